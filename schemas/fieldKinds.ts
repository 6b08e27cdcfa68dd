// The kinds of field a schema declares, read from an entity's JSON schema and descriptor: titles,
// the kind of each field (which input edits it, which cell shows it, which filter narrows by it:
// the table of docs/architecture.md; how an export writes it, server/src/routes/export.ts) and its
// choices. Shared by the screens (src/components/schemaFields.ts) and the server. Nothing here
// restates a field by hand.
import type { Reference, ResourceDescriptor } from './descriptor';
import { HTTP_URL_PATTERN } from './fields';
import { resourceByName } from './index';

export interface FieldSchema {
  type?: string | readonly string[];
  title?: string;
  description?: string;
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
  /** Our keywords (schemas/fields.ts): a required field's own message, a date's first and last day, an enum's labels. */
  requiredMessage?: string;
  formatMinimum?: string;
  formatMaximum?: string;
  enumLabels?: Readonly<Record<string, string>>;
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

/** Text longer than a line holds: a several-line input. */
const LONG_TEXT = 200;

/**
 * The kinds of field a schema can declare. Each has one input, one cell and one filter
 * (SchemaInputs.tsx, SchemaList.tsx; the table in docs/architecture.md).
 */
export type FieldKind =
  | 'text'
  | 'longText'
  | 'number'
  | 'flag'
  | 'choice'
  | 'reference'
  | 'date'
  | 'datetime'
  | 'link'
  | 'richText'
  | 'fileList'
  | 'video'
  | 'image'
  | 'password'
  | 'object';

/** The reference a field holds (the descriptor's `references`), if it holds one. */
export function referenceOf(descriptor: ResourceDescriptor, field: string): Reference | undefined {
  return descriptor.references?.find((r) => r.field === field);
}

/** A field's kind, from its schema and the descriptor's `references` and `files`. */
export function fieldKind(descriptor: ResourceDescriptor, field: string): FieldKind {
  const schema = fieldSchema(descriptor, field);
  if (schema.writeOnly) return 'password';
  if (referenceOf(descriptor, field)) return 'reference';
  const file = descriptor.files?.[field];
  if (file === 'image') return 'image';
  if (file === 'video') return 'video';
  if (schema.contentMediaType === 'application/json') return 'fileList';
  if (schema.contentMediaType === 'text/html') return 'richText';
  if (isFlag(schema)) return 'flag';
  if (schema.enum) return 'choice';
  if (schema.type === 'integer' || schema.type === 'number') return 'number';
  if (schema.type === 'object' || schema.type === 'array') return 'object';
  if (schema.format === 'date') return 'date';
  if (schema.format === 'date-time') return 'datetime';
  if (schema.pattern === HTTP_URL_PATTERN) return 'link';
  if ((schema.maxLength ?? 0) > LONG_TEXT) return 'longText';
  return 'text';
}

/** The choices of an enum (a flag's included), in the schema's order: `{ id: value, name: label }`. */
export function choicesOf(schema: FieldSchema): { id: string | number; name: string }[] {
  const values = (schema.enum ?? []).filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
  // A flag lists 1 before 0 (是, 否).
  const ordered = isFlag(schema) ? [1, 0] : values;
  return ordered.map((id) => ({ id, name: schema.enumLabels?.[String(id)] ?? String(id) }));
}

/** The label of one value of an enum (是 / 否 for a flag without labels). */
export function choiceLabel(schema: FieldSchema, value: unknown): string {
  if (value === null || value === undefined) return '';
  const label = schema.enumLabels?.[String(value)];
  if (label !== undefined) return label;
  if (isFlag(schema)) return Number(value) === 1 ? '是' : '否';
  return String(value);
}

/** What a reference points at: the referenced resource, its field matched and the field naming it. */
export function referenceTarget(reference: Reference): { resource: string; idField: string; nameField: string } {
  const target = resourceByName(reference.to);
  return { resource: reference.to, idField: reference.toField, nameField: target?.nameField ?? reference.toField };
}
