// Request schemas of the calls. The write calls' bodies, their trimming, the Ajv options and the
// date-range keywords are shared with the add/edit dialog (schemas/validation.ts): a required text
// field must keep something after trimming (minLength 1), fields the server owns (readOnly) are
// stripped (Ajv's removeAdditional). Here: ids, lists and single-record reads.
import type { FastifyServerOptions } from 'fastify';
import type { ResourceDescriptor } from '../../../schemas/descriptor';
import { addDayRangeKeywords, idProperty, REQUEST_AJV_OPTIONS } from '../../../schemas/validation';

import { MAX_PAGE_INDEX, MAX_PAGE_SIZE } from '../../../schemas/lists';

export { idProperty, MAX_ID, writeBodySchema } from '../../../schemas/validation';
export { MAX_ALL_ROWS, MAX_PAGE_SIZE } from '../../../schemas/lists';

type Props = Record<string, unknown>;

type AjvCompilerOptions = Extract<NonNullable<FastifyServerOptions['ajv']>, { mode?: never }>;

/**
 * Fastify's Ajv for requests (app.ts): the options and the date range the dialog's validators are
 * compiled with as well (schemas/validation.ts).
 */
export const requestAjv: AjvCompilerOptions = {
  customOptions: REQUEST_AJV_OPTIONS,
  onCreate: addDayRangeKeywords,
};

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
    pageIndex: { type: 'integer', minimum: 1, maximum: MAX_PAGE_INDEX },
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
