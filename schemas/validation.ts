// The rules a write call's body keeps, for the server and the add/edit dialog alike: the body schema
// of each call (derived from the entity's schema), which text is trimmed before it is checked, the
// Ajv options and the date-range keywords that check it, and the Chinese field errors a broken rule
// gives (docs/api.md). The server validates with Fastify's Ajv (server/src/app.ts); the dialog runs
// the same schemas compiled ahead of time (./validationCode.ts, src/components/formValidation.ts).
// No Ajv here: the app's dialog loads this module.
import type { ResourceDescriptor, Service } from './descriptor';
import { FIELD_MESSAGES, HTTP_URL_PATTERN, SCHEMA_KEYWORDS } from './fields';
import { memberResource, memberSchema } from './member';

type Props = Record<string, unknown>;

/** Ids are 32-bit (PostgreSQL `serial`): a larger one is refused, not sent to the database to fail there. */
export const MAX_ID = 2147483647;
export const idProperty = { type: 'integer', minimum: 1, maximum: MAX_ID } as const;

// ---- body schemas ----

function writableProperties(schema: ResourceDescriptor['schema']): Props {
  const out: Props = {};
  const required = new Set(schema.required ?? []);
  for (const [field, s] of Object.entries(schema.properties)) {
    if (s.readOnly) continue;
    // `default` is applied by the create handler, not by Ajv, so that an update never resets a field.
    const { default: _default, title: _title, ...rest } = s as Record<string, unknown>;
    // A required text field may be left out of an update, never blanked (spaces are trimmed first).
    if (required.has(field) && rest.type === 'string' && rest.minLength === undefined) rest.minLength = 1;
    out[field] = rest;
  }
  return out;
}

/**
 * The body of an add call: fields the server owns (readOnly) are left out and stripped from bodies
 * (Ajv's removeAdditional), so they are never taken from the request.
 */
export function createBodySchema(descriptor: ResourceDescriptor) {
  return {
    type: 'object',
    properties: writableProperties(descriptor.schema),
    required: (descriptor.schema.required ?? []).filter((f) => !descriptor.schema.properties[f]?.readOnly),
    additionalProperties: false,
  } as const;
}

/** Updates merge the given fields onto the stored record: only `Id` is required. */
export function updateBodySchema(descriptor: ResourceDescriptor) {
  return {
    type: 'object',
    properties: { Id: idProperty, ...writableProperties(descriptor.schema) },
    required: ['Id'],
    additionalProperties: false,
  } as const;
}

/** A new member needs a password; an update leaves it out to keep it (server/src/routes/members.ts). */
export const addMemberBodySchema = {
  ...createBodySchema(memberResource),
  required: [...(memberSchema.required ?? []), 'Password'],
} as const;

const NEW_PASSWORD = memberSchema.properties.Password;

/**
 * A member changing their own password (server/src/routes/ownPassword.ts, src/layout/ChangePassword.tsx):
 * the new one under the rules of a member's password set by an administrator. Passwords are
 * write-only, so never trimmed.
 */
export const ownPasswordBodySchema = {
  type: 'object',
  properties: {
    OldPassword: { type: 'string', title: '原密码', minLength: 1, maxLength: 256, writeOnly: true },
    NewPassword: { type: 'string', title: '新密码', minLength: NEW_PASSWORD.minLength, maxLength: NEW_PASSWORD.maxLength, writeOnly: true },
  },
  required: ['OldPassword', 'NewPassword'],
  additionalProperties: false,
} as const;

/** A call as the screens name it: `Ajax/AddVideoType`. */
export const callKey = (service: Service, name: string) => `${service}/${name}`;

/** The call changing one's own password. */
export const OWN_PASSWORD_CALL = 'Ajax/UpdateOwnPassword';

/** Write calls whose body is not the generated one; their routes take the schema from here too. */
export const CALL_BODIES: Readonly<Record<string, object>> = {
  [callKey(memberResource.service, memberResource.calls.create!)]: addMemberBodySchema,
  [OWN_PASSWORD_CALL]: ownPasswordBodySchema,
};

export type WriteKind = 'create' | 'update';

/** The call a descriptor's add or update goes to, if it has one. */
export function writeCallKey(descriptor: ResourceDescriptor, kind: WriteKind): string | undefined {
  const name = descriptor.calls[kind];
  return name ? callKey(descriptor.service, name) : undefined;
}

/** The body schema a descriptor's add or update call validates: the dialog checks exactly this. */
export function writeBodySchema(descriptor: ResourceDescriptor, kind: WriteKind): object {
  const key = writeCallKey(descriptor, kind);
  const own = key === undefined ? undefined : CALL_BODIES[key];
  return own ?? (kind === 'create' ? createBodySchema(descriptor) : updateBodySchema(descriptor));
}

// ---- trimming ----

/**
 * The plain-text fields of a body schema, trimmed before validation: strings that are not
 * passwords (writeOnly), rich text or file lists (a contentMediaType).
 */
export function trimmedFields(bodySchema: object): string[] {
  const properties = (bodySchema as { properties?: Record<string, Record<string, unknown>> }).properties ?? {};
  return Object.entries(properties)
    .filter(([, s]) => s.type === 'string' && !s.writeOnly && s.contentMediaType === undefined)
    .map(([field]) => field);
}

/** Trims those fields of a body in place: a name of spaces is blank, and none is stored with spaces around it. */
export function trimFields(body: Record<string, unknown>, fields: readonly string[]): void {
  for (const field of fields) {
    const value = body[field];
    if (typeof value === 'string') body[field] = value.trim();
  }
}

// ---- Ajv ----

/** An ISO day, compared as text: 'YYYY-MM-DD' sorts as the days do. */
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The date range (`formatMinimum` / `formatMaximum` of schemas/fields.ts dateField) as a
 * comparison of days. A day in the wrong form passes here: it is the `format` keyword's error.
 */
export const DAY_RANGE = {
  formatMinimum: (limit: string, day: string) => !ISO_DAY.test(day) || day >= limit,
  formatMaximum: (limit: string, day: string) => !ISO_DAY.test(day) || day <= limit,
} as const;

export type DayRangeKeyword = keyof typeof DAY_RANGE;
export const DAY_RANGE_KEYWORDS = Object.keys(DAY_RANGE) as DayRangeKeyword[];

/**
 * Ajv options of request validation (server/src/app.ts; the dialog's validators are compiled with
 * them too): every error at once, fields not in a schema dropped, JSON's types coerced as Fastify
 * does, defaults left to the handlers, and `verbose`, so that each error carries its schema and
 * value (fieldErrors reads a field's `requiredMessage` and a date range's limit there). Our
 * annotation keywords are declared; the date range is added by addDayRangeKeywords.
 */
export const REQUEST_AJV_OPTIONS: {
  allErrors: boolean;
  removeAdditional: boolean;
  useDefaults: boolean;
  coerceTypes: 'array';
  verbose: boolean;
  keywords: string[];
} = {
  allErrors: true,
  removeAdditional: true,
  useDefaults: false,
  coerceTypes: 'array',
  verbose: true,
  keywords: SCHEMA_KEYWORDS.filter((k) => !(DAY_RANGE_KEYWORDS as readonly string[]).includes(k)),
};

/** The part of an Ajv instance the date range needs (Fastify's copy of Ajv, or ours). */
export interface KeywordHost {
  removeKeyword(keyword: string): unknown;
  addKeyword(definition: {
    keyword: string;
    type: 'string';
    schemaType: 'string';
    errors: false;
    validate: (limit: string, day: string) => boolean;
  }): unknown;
}

/**
 * The date range on an Ajv instance: ajv-formats, which Fastify adds, defines these keywords with
 * code of its own copy of Ajv, which another copy cannot run (a 500 on any request checking a
 * date); they are replaced by DAY_RANGE, the same comparison the dialog's validators call.
 */
export function addDayRangeKeywords(ajv: KeywordHost): void {
  for (const keyword of DAY_RANGE_KEYWORDS) {
    ajv.removeKeyword(keyword);
    ajv.addKeyword({ keyword, type: 'string', schemaType: 'string', errors: false, validate: DAY_RANGE[keyword] });
  }
}

// ---- field errors ----

/** One field's error as docs/api.md gives it. */
export interface FieldError {
  field: string;
  msg: string;
}

interface FieldSchema {
  pattern?: string;
  /** The message of a required field left out or blank (schemas/fields.ts). */
  requiredMessage?: string;
  properties?: Record<string, FieldSchema>;
}

/** An Ajv error, with `verbose`. */
export interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  /** With Ajv's `verbose`: the keyword's value, its schema and the value checked. */
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

/**
 * Ajv's errors as field errors in Chinese, the wording of schemas/fields.ts FIELD_MESSAGES: one per
 * top-level field, the first, unless the field is blank, which is said first.
 */
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
