// Reads what the screens need from an entity's JSON schema: titles, how a column renders, which
// widget edits a field and its validators. Nothing here restates a field by hand.
import { maxLength, maxValue, minLength, minValue, number, regex, required, type Validator } from 'react-admin';
import type { ListColumn, ResourceDescriptor } from '../../schemas/descriptor';
import { HTTP_URL_PATTERN } from '../../schemas/fields';

export interface FieldSchema {
  type?: string | readonly string[];
  title?: string;
  enum?: readonly unknown[];
  format?: string;
  pattern?: string;
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  readOnly?: boolean;
  writeOnly?: boolean;
  contentMediaType?: string;
}

export function fieldSchema(descriptor: ResourceDescriptor, field: string): FieldSchema {
  const prop = Object.hasOwn(descriptor.schema.properties, field) ? descriptor.schema.properties[field] : undefined;
  return (prop ?? {}) as FieldSchema;
}

export function fieldTitle(descriptor: ResourceDescriptor, field: string): string {
  return fieldSchema(descriptor, field).title ?? field;
}

/** A 1/0 flag: an integer with exactly the values 0 and 1. */
export function isFlag(schema: FieldSchema): boolean {
  return schema.type === 'integer' && !!schema.enum && schema.enum.length === 2 && schema.enum.includes(0) && schema.enum.includes(1);
}

export type ColumnRender = NonNullable<ListColumn['render']>;

export function columnRender(descriptor: ResourceDescriptor, column: ListColumn): ColumnRender {
  if (column.render) return column.render;
  const schema = fieldSchema(descriptor, column.field);
  if (isFlag(schema)) return 'flag';
  if (schema.format === 'date') return 'date';
  if (schema.format === 'date-time') return 'datetime';
  if (schema.pattern === HTTP_URL_PATTERN) return 'link';
  if (schema.type === 'integer' || schema.type === 'number') return 'number';
  return 'text';
}

export type InputKind = 'text' | 'number' | 'flag' | 'link' | 'date' | 'richText' | 'fileList' | 'password' | 'object';

export function inputKind(schema: FieldSchema): InputKind {
  if (schema.writeOnly) return 'password';
  if (isFlag(schema)) return 'flag';
  if (schema.type === 'integer' || schema.type === 'number') return 'number';
  if (schema.type === 'object' || schema.type === 'array') return 'object';
  if (schema.contentMediaType === 'text/html') return 'richText';
  if (schema.contentMediaType === 'application/json') return 'fileList';
  if (schema.format === 'date') return 'date';
  if (schema.pattern === HTTP_URL_PATTERN) return 'link';
  return 'text';
}

/** Fields a form edits: the schema's own, minus what the server owns (readOnly). */
export function editableFields(descriptor: ResourceDescriptor): string[] {
  return Object.entries(descriptor.schema.properties)
    .filter(([, prop]) => !(prop as FieldSchema).readOnly)
    .map(([name]) => name);
}

export const LINK_MESSAGE = '请输入以 http:// 或 https:// 开头的链接';

/** Validators from the schema's keywords; `optional` drops `required` (e.g. a password on edit). */
export function validatorsFor(descriptor: ResourceDescriptor, field: string, optional = false): Validator[] {
  const schema = fieldSchema(descriptor, field);
  const out: Validator[] = [];
  if (!optional && descriptor.schema.required?.includes(field)) out.push(required());
  const kind = inputKind(schema);
  if (kind === 'number') {
    out.push(number());
    out.push((value: unknown) =>
      value === null || value === undefined || value === '' || Number.isInteger(Number(value)) ? undefined : '必须为整数',
    );
    if (schema.minimum !== undefined) out.push(minValue(schema.minimum));
    if (schema.maximum !== undefined) out.push(maxValue(schema.maximum));
  } else if (kind !== 'flag' && kind !== 'object') {
    if (schema.minLength !== undefined && schema.minLength > 1) out.push(minLength(schema.minLength));
    if (schema.maxLength !== undefined) out.push(maxLength(schema.maxLength));
    if (kind === 'link') out.push(regex(new RegExp(HTTP_URL_PATTERN), LINK_MESSAGE));
  }
  return out;
}

/** Defaults of a new record, from the schema's `default` keywords. */
export function schemaDefaults(descriptor: ResourceDescriptor): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(descriptor.schema.properties)) {
    const d = (prop as FieldSchema).default;
    if (d !== undefined && !(prop as FieldSchema).readOnly) out[name] = d;
  }
  return out;
}
