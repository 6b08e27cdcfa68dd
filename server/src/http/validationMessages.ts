// Turns Ajv's validation errors into the field errors of docs/api.md, in Chinese. The wording is
// the dialog's (schemas/fields.ts FIELD_MESSAGES); a field's own message is read from its schema.
import { FIELD_MESSAGES, HTTP_URL_PATTERN } from '../../../schemas/fields';
import type { FieldError } from '../errors';

interface FieldSchema {
  pattern?: string;
  /** The message of a required field left out or blank (schemas/fields.ts). */
  requiredMessage?: string;
  properties?: Record<string, FieldSchema>;
}

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  /** With Ajv's `verbose` (routes/requestSchemas.ts): the keyword's value, its schema and the value checked. */
  schema?: unknown;
  parentSchema?: FieldSchema;
  data?: unknown;
}

function fieldOf(error: AjvError): string {
  if (error.keyword === 'required' && typeof error.params.missingProperty === 'string') {
    return error.params.missingProperty;
  }
  const path = error.instancePath.replace(/^\//, '');
  return path.split('/')[0] || 'body';
}

/** The schema of the top-level field at fault, when the error says it. */
function schemaOf(error: AjvError, field: string): FieldSchema | undefined {
  if (error.keyword === 'required') return error.parentSchema?.properties?.[field];
  return error.instancePath === `/${field}` ? error.parentSchema : undefined;
}

/** Left out, or blank after trimming (a required text field has minLength 1). */
function isBlank(error: AjvError): boolean {
  if (error.keyword === 'required') return true;
  return error.keyword === 'minLength' && (error.data === '' || (error.data === undefined && error.params.limit === 1));
}

function messageOf(error: AjvError, field: string): string {
  const p = error.params;
  if (isBlank(error)) return schemaOf(error, field)?.requiredMessage ?? FIELD_MESSAGES.required;
  switch (error.keyword) {
    case 'minLength':
      return FIELD_MESSAGES.minLength(Number(p.limit));
    case 'maxLength':
      return FIELD_MESSAGES.maxLength(Number(p.limit));
    case 'minimum':
      return FIELD_MESSAGES.minimum(Number(p.limit));
    case 'maximum':
      return FIELD_MESSAGES.maximum(Number(p.limit));
    case 'formatMinimum':
      return FIELD_MESSAGES.earliest(String(error.schema));
    case 'formatMaximum':
      return FIELD_MESSAGES.latest(String(error.schema));
    case 'type':
      return p.type === 'integer' || p.type === 'number' ? '须为数字' : '类型不正确';
    case 'enum':
      return '取值无效';
    case 'format':
      return p.format === 'date' ? FIELD_MESSAGES.date : '格式不正确';
    case 'pattern':
      return schemaOf(error, field)?.pattern === HTTP_URL_PATTERN ? FIELD_MESSAGES.link : '格式不正确';
    case 'additionalProperties':
      return '不支持的字段';
    default:
      return '格式不正确';
  }
}

/** One error per top-level field: the first, unless the field is blank, which is said first. */
export function fieldErrors(validation: readonly AjvError[]): FieldError[] {
  const messages = new Map<string, { msg: string; blank: boolean }>();
  for (const error of validation) {
    const field = fieldOf(error);
    const blank = isBlank(error);
    const known = messages.get(field);
    if (known && (known.blank || !blank)) continue;
    messages.set(field, { msg: messageOf(error, field), blank });
  }
  return [...messages].map(([field, { msg }]) => ({ field, msg }));
}
