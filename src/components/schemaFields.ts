// Reads what the screens need from an entity's JSON schema: titles, how a column renders, which
// widget edits a field and its validators. Nothing here restates a field by hand.
import { number, type Validator } from 'react-admin';
import type { ListColumn, ResourceDescriptor } from '../../schemas/descriptor';
import { FIELD_MESSAGES, HTTP_URL_PATTERN } from '../../schemas/fields';

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
  /** Our keywords (schemas/fields.ts): a required field's own message, a date's first and last day. */
  requiredMessage?: string;
  formatMinimum?: string;
  formatMaximum?: string;
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

export const LINK_MESSAGE = FIELD_MESSAGES.link;

/** What a required field says when it is left out or blank: its `requiredMessage`, else 必填. */
export function requiredMessage(descriptor: ResourceDescriptor, field: string): string {
  return fieldSchema(descriptor, field).requiredMessage ?? FIELD_MESSAGES.required;
}

const isUnset = (value: unknown) => value === undefined || value === null || value === '';

/** Text as the server checks it: trimmed (server/src/routes/requestSchemas.ts), unless a password. */
const asSent = (value: unknown, kind: InputKind) => (typeof value === 'string' && kind !== 'password' ? value.trim() : value);

/** Length as JSON Schema counts it: in characters (code points), not UTF-16 units. */
const lengthOf = (text: string) => [...text].length;

/** A day as 'YYYY-MM-DD' (a picker may give a Date). */
function dayOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value instanceof Date && !Number.isNaN(value.getTime())) {
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
  }
  return undefined;
}

/**
 * Validators from the schema's keywords, with the server's wording (schemas/fields.ts FIELD_MESSAGES),
 * so a dialog says what is wrong before anything is sent; `optional` drops `required` (e.g. a password
 * on edit). Text counts as the server will see it: trimmed, so spaces alone are blank.
 */
export function validatorsFor(descriptor: ResourceDescriptor, field: string, optional = false): Validator[] {
  const schema = fieldSchema(descriptor, field);
  const kind = inputKind(schema);
  const out: Validator[] = [];
  if (!optional && descriptor.schema.required?.includes(field)) {
    const message = requiredMessage(descriptor, field);
    // `isRequired` marks the label as react-admin's own required() does.
    out.push(Object.assign((value: unknown) => (isUnset(asSent(value, kind)) ? message : undefined), { isRequired: true }));
  }
  if (kind === 'number') {
    out.push(number());
    out.push((value: unknown) => (isUnset(value) || Number.isInteger(Number(value)) ? undefined : '必须为整数'));
    const { minimum, maximum } = schema;
    if (minimum !== undefined) out.push((value: unknown) => (!isUnset(value) && Number(value) < minimum ? FIELD_MESSAGES.minimum(minimum) : undefined));
    if (maximum !== undefined) out.push((value: unknown) => (!isUnset(value) && Number(value) > maximum ? FIELD_MESSAGES.maximum(maximum) : undefined));
  } else if (kind !== 'flag' && kind !== 'object') {
    const { minLength, maxLength } = schema;
    const text = (value: unknown) => {
      const sent = asSent(value, kind);
      return typeof sent === 'string' && sent !== '' ? sent : undefined;
    };
    if (minLength !== undefined && minLength > 1) {
      out.push((value: unknown) => {
        const t = text(value);
        return t !== undefined && lengthOf(t) < minLength ? FIELD_MESSAGES.minLength(minLength) : undefined;
      });
    }
    if (maxLength !== undefined) {
      out.push((value: unknown) => {
        const t = text(value);
        return t !== undefined && lengthOf(t) > maxLength ? FIELD_MESSAGES.maxLength(maxLength) : undefined;
      });
    }
    if (kind === 'link') {
      const link = new RegExp(HTTP_URL_PATTERN);
      out.push((value: unknown) => {
        const t = text(value);
        return t !== undefined && !link.test(t) ? FIELD_MESSAGES.link : undefined;
      });
    }
    if (kind === 'date') {
      const { formatMinimum: first, formatMaximum: last } = schema;
      out.push((value: unknown) => {
        const day = dayOf(value);
        if (!day) return undefined;
        if (first !== undefined && day < first) return FIELD_MESSAGES.earliest(first);
        if (last !== undefined && day > last) return FIELD_MESSAGES.latest(last);
        return undefined;
      });
    }
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
