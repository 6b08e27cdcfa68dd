// Request schemas of the generic calls, derived from the entity schema: fields the server owns
// (readOnly) are left out and stripped from bodies (Ajv's removeAdditional), so they are never
// taken from the request.
import type { ObjectSchema, ResourceDescriptor } from '../../../schemas/descriptor';

type Props = Record<string, unknown>;

/** Every row of a list in one call is bounded by this (docs/api.md: All=1 has a server maximum). */
export const MAX_ALL_ROWS = 20000;
export const MAX_PAGE_SIZE = 100;
/** Ids are 32-bit (PostgreSQL `serial`): a larger one is refused, not sent to the database to fail there. */
export const MAX_ID = 2147483647;
export const idProperty = { type: 'integer', minimum: 1, maximum: MAX_ID } as const;

function writableProperties(schema: ObjectSchema): Props {
  const out: Props = {};
  for (const [field, s] of Object.entries(schema.properties)) {
    if (s.readOnly) continue;
    // `default` is applied by the create handler, not by Ajv, so that an update never resets a field.
    const { default: _default, title: _title, ...rest } = s as Record<string, unknown>;
    out[field] = rest;
  }
  return out;
}

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

export const idBodySchema = {
  type: 'object',
  properties: { Id: idProperty },
  required: ['Id'],
  additionalProperties: false,
} as const;

export function oneParamsSchema(descriptor: ResourceDescriptor) {
  if (descriptor.oneParam === 'Code') {
    return {
      type: 'object',
      properties: {
        Id: idProperty,
        Code: { type: 'string', minLength: 1, maxLength: 64 },
        code: { type: 'string', minLength: 1, maxLength: 64 },
      },
      anyOf: [{ required: ['Id'] }, { required: ['Code'] }, { required: ['code'] }],
      additionalProperties: false,
    } as const;
  }
  return idBodySchema;
}

export function listParamsSchema(descriptor: ResourceDescriptor) {
  const properties: Props = {
    pageIndex: { type: 'integer', minimum: 1, maximum: 1000000 },
    pageSize: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE },
    All: { type: 'integer', enum: [0, 1] },
    OrderName: { type: 'string', maxLength: 200 },
  };
  for (const field of descriptor.filters) {
    const s = descriptor.schema.properties[field] as { type?: string } | undefined;
    // ScCode may be sent as null or '' for the root of a tree.
    properties[field] =
      s?.type === 'integer'
        ? { type: 'integer', minimum: -1000000000, maximum: 1000000000 }
        : { type: ['string', 'null'], maxLength: 64 };
  }
  for (const field of descriptor.searchFields) properties[field] = { type: ['string', 'null'], maxLength: 100 };
  return { type: 'object', properties, additionalProperties: false } as const;
}
