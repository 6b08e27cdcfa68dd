// The ordinary list / single / add / update / delete calls of docs/api.md, generated from
// the resource descriptors. Calls listed in `handWritten` are left to their own modules. Every
// write passes the member to the repository, which logs it in the same transaction (audit log).
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { detailOnlyFields, type ResourceDescriptor } from '../../../schemas/descriptor';
import { ROOT_CODE } from '../../../schemas/standardClassify';
import type { Action } from '../../../schemas/permissions';
import { deleteRow, findRow, insertRow, listRows, updateRow, type Row } from '../db/repository';
import { parseOrderName } from '../db/orderName';
import { notFound } from '../errors';
import { VersionedCache } from '../db/versionedCache';
import { MSG_DELETED, ok } from '../http/envelope';
import { requireAccess, requireOwnership } from '../plugins/permissions';
import {
  createBodySchema,
  idBodySchema,
  listParamsSchema,
  MAX_ALL_ROWS,
  oneParamsSchema,
  updateBodySchema,
} from './requestSchemas';
import { checkDelete, prepareWrite, present } from './rules';

type Params = Record<string, unknown>;

/** Resources whose rows obey the ownership rule on these actions (schemas/permissions.ts). */
const OWNED: Record<string, readonly Action[]> = { video: ['edit', 'delete'] };

/** Registers a read call for GET (query string) and POST (JSON body), sharing one handler. */
export function readRoute(
  app: FastifyInstance,
  url: string,
  schema: object,
  meta: { tags: string[]; summary: string },
  handler: (request: FastifyRequest, params: Params, reply: FastifyReply) => Promise<unknown>,
): void {
  const base: Omit<RouteOptions, 'method' | 'schema'> = {
    url,
    handler: (request, reply) => handler(request, ((request.method === 'GET' ? request.query : request.body) ?? {}) as Params, reply),
  };
  app.route({ ...base, method: 'GET', schema: { ...meta, querystring: schema } });
  app.route({ ...base, method: 'POST', schema: { ...meta, body: schema } });
}

export function writeRoute(
  app: FastifyInstance,
  url: string,
  schema: object,
  meta: { tags: string[]; summary: string },
  handler: (request: FastifyRequest, body: Params) => Promise<unknown>,
): void {
  app.route({
    method: 'POST',
    url,
    schema: { ...meta, body: schema },
    handler: (request) => handler(request, (request.body ?? {}) as Params),
  });
}

export function listFilters(descriptor: ResourceDescriptor, params: Params) {
  const equals: Record<string, string | number> = {};
  const contains: Record<string, string> = {};
  for (const field of descriptor.filters) {
    const value = params[field];
    if (value === undefined || value === null || value === '') continue;
    // The root of a tree (ScCode '0' or empty) means "every article of the page".
    if (field === 'ScCode' && value === ROOT_CODE) continue;
    equals[field] = value as string | number;
  }
  for (const field of descriptor.searchFields) {
    const value = params[field];
    if (typeof value === 'string' && value.trim() !== '') contains[field] = value.trim();
  }
  return { equals, contains };
}

async function listCall(descriptor: ResourceDescriptor, app: FastifyInstance, params: Params) {
  const order = parseOrderName(params.OrderName as string | undefined, descriptor);
  const all = params.All === 1;
  const { rows, total } = await listRows(app.database, descriptor, {
    ...listFilters(descriptor, params),
    order,
    page: all ? undefined : { index: Number(params.pageIndex ?? 1), size: Number(params.pageSize ?? 15) },
    limit: MAX_ALL_ROWS,
    // Lists carry what lists show; bodies come from the single-record call.
    omit: detailOnlyFields(descriptor),
  });
  return ok(
    rows.map((r) => present(descriptor, r, app.storage)),
    undefined,
    total,
  );
}

/** Kept read answers, as the JSON bytes sent: lists are read far more often than anything is written. */
const ANSWER_CACHE_BYTES = 32 * 1024 * 1024;
const answers = new WeakMap<FastifyInstance, VersionedCache<Buffer>>();

/**
 * Sends a read answer from the cache while the database is unchanged (its change clock), else
 * from `load()`. The answer doesn't depend on who asks: access is checked before. A failed load
 * (404) is not kept.
 */
async function sendAnswer(request: FastifyRequest, reply: FastifyReply, key: string, load: () => Promise<unknown>) {
  const app = request.server;
  let cache = answers.get(app);
  if (!cache) {
    cache = new VersionedCache<Buffer>({ maxEntries: 10_000, maxBytes: ANSWER_CACHE_BYTES, sizeOf: (body) => body.length });
    answers.set(app, cache);
  }
  const body = await cache.get(key, await request.dataVersion(), async () => Buffer.from(JSON.stringify(await load())));
  return reply.type('application/json; charset=utf-8').send(body);
}

const answerKey = (descriptor: ResourceDescriptor, call: string, params: Params) => `${descriptor.resource}/${call}\n${JSON.stringify(params)}`;

async function loadById(app: FastifyInstance, descriptor: ResourceDescriptor, id: unknown): Promise<Row> {
  const row = await findRow(app.database, descriptor, 'Id', Number(id));
  if (!row) throw notFound(`${descriptor.label}不存在或已被删除`);
  return row;
}

export function registerCrud(app: FastifyInstance, descriptor: ResourceDescriptor, handWritten: ReadonlySet<string>) {
  const { calls, service } = descriptor;
  const tags = [descriptor.label];
  const url = (call: string) => `/${service}/${call}`;
  const skip = (call: string | undefined): call is undefined => !call || handWritten.has(`${service}/${call}`);

  if (!skip(calls.list)) {
    readRoute(app, url(calls.list), listParamsSchema(descriptor), { tags, summary: `${descriptor.label}列表` }, async (request, params, reply) => {
      await requireAccess(request, descriptor, 'list');
      return sendAnswer(request, reply, answerKey(descriptor, 'list', params), () => listCall(descriptor, app, params));
    });
  }

  if (!skip(calls.one)) {
    readRoute(app, url(calls.one), oneParamsSchema(descriptor), { tags, summary: `${descriptor.label}详情` }, async (request, params, reply) => {
      await requireAccess(request, descriptor, 'show');
      return sendAnswer(request, reply, answerKey(descriptor, 'one', params), async () => {
        const code = (params.Code ?? params.code) as string | undefined;
        const row =
          params.Id !== undefined
            ? await findRow(app.database, descriptor, 'Id', Number(params.Id))
            : descriptor.codeField && code
              ? await findRow(app.database, descriptor, descriptor.codeField, code)
              : undefined;
        if (!row) throw notFound(`${descriptor.label}不存在或已被删除`);
        return ok(present(descriptor, row, app.storage));
      });
    });
  }

  if (!skip(calls.create)) {
    writeRoute(app, url(calls.create), createBodySchema(descriptor), { tags, summary: `新增${descriptor.label}` }, async (request, body) => {
      const member = await requireAccess(request, descriptor, 'create');
      const values: Row = { ...body };
      await prepareWrite(descriptor, { database: app.database, storage: app.storage, member, now: new Date() }, values, undefined);
      const files = app.files.track(descriptor);
      const row = await insertRow(app.database, descriptor, values, member, files.hook);
      await files.settle();
      return ok(present(descriptor, row, app.storage));
    });
  }

  if (!skip(calls.update)) {
    writeRoute(app, url(calls.update), updateBodySchema(descriptor), { tags, summary: `修改${descriptor.label}` }, async (request, body) => {
      const member = await requireAccess(request, descriptor, 'edit');
      const existing = await loadById(app, descriptor, body.Id);
      if (OWNED[descriptor.resource]?.includes('edit')) requireOwnership(member, descriptor.resource, existing);
      const values: Row = { ...body };
      delete values.Id;
      await prepareWrite(descriptor, { database: app.database, storage: app.storage, member, now: new Date() }, values, existing);
      // The files the update drops (a replaced video, a handout taken off) go once it commits.
      const files = app.files.track(descriptor);
      const updated = await updateRow(app.database, descriptor, Number(body.Id), values, member, files.hook);
      if (!updated) throw notFound(`${descriptor.label}不存在或已被删除`);
      await files.settle();
      return ok(present(descriptor, updated, app.storage));
    });
  }

  if (!skip(calls.delete)) {
    writeRoute(app, url(calls.delete), idBodySchema, { tags, summary: `删除${descriptor.label}` }, async (request, body) => {
      const member = await requireAccess(request, descriptor, 'delete');
      const existing = await loadById(app, descriptor, body.Id);
      if (OWNED[descriptor.resource]?.includes('delete')) requireOwnership(member, descriptor.resource, existing);
      await checkDelete(descriptor, { database: app.database, storage: app.storage, member, now: new Date() }, existing);
      // The record's files go once the delete commits, unless another record points at them.
      const files = app.files.track(descriptor);
      if (!(await deleteRow(app.database, descriptor, Number(body.Id), member, files.hook))) throw notFound(`${descriptor.label}不存在或已被删除`);
      await files.settle();
      return ok(present(descriptor, existing, app.storage), MSG_DELETED);
    });
  }
}
