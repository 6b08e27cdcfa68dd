// The ordinary list / single / add / update / delete calls of docs/api.md, generated from the
// resource descriptors. Calls a descriptor lists in `handWritten` are left to their own modules.
// Every write passes the member to the repository, which logs it in the same transaction (audit log).
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { detailOnlyFields, type CallKind, type ResourceDescriptor } from '../../../schemas/descriptor';
import { resourceByName } from '../../../schemas/index';
import { deleteRow, findRow, insertRow, listRows, updateRow, type Row } from '../db/repository';
import { parseOrderName } from '../db/orderName';
import { notFound } from '../errors';
import { VersionedCache } from '../db/versionedCache';
import { clientGone } from '../http/clientGone';
import { listAnswer, MSG_DELETED, ok } from '../http/envelope';
import { requireAccess, requireOwnership } from '../plugins/permissions';
import { trimFields, trimmedFields, writeBodySchema } from '../../../schemas/validation';
import { idBodySchema, listParamsSchema, MAX_ALL_ROWS, oneParamsSchema } from './requestSchemas';
import type { MemberRow } from '../auth/members';
import { checkDelete, prepareWrite, present, type RuleContext } from './rules';

type Params = Record<string, unknown>;

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
    // A read: nothing for the full-text indexer to look at afterwards (plugins/fullText.ts).
    config: { queuesNoIndexing: true },
    handler: (request, reply) => handler(request, ((request.method === 'GET' ? request.query : request.body) ?? {}) as Params, reply),
  };
  app.route({ ...base, method: 'GET', schema: { ...meta, querystring: schema } });
  app.route({ ...base, method: 'POST', schema: { ...meta, body: schema } });
}

/**
 * Registers a write call. Its plain-text fields (schemas/validation.ts `trimmedFields`) are trimmed
 * before validation, as the dialog does before its own check: a name of spaces is blank, and none
 * is stored with spaces around it.
 */
export function writeRoute(
  app: FastifyInstance,
  url: string,
  schema: object,
  meta: { tags: string[]; summary: string },
  handler: (request: FastifyRequest, body: Params, reply: FastifyReply) => Promise<unknown>,
  config: FastifyContextConfig = {},
): void {
  const trimmed = trimmedFields(schema);
  app.route({
    method: 'POST',
    url,
    config,
    schema: { ...meta, body: schema },
    ...(trimmed.length > 0 && {
      preValidation: async (request: FastifyRequest) => {
        const body = request.body as Params | null;
        if (body && typeof body === 'object') trimFields(body, trimmed);
      },
    }),
    handler: (request, reply) => handler(request, (request.body ?? {}) as Params, reply),
  });
}

const anywhereCache = new Map<string, string | undefined>();

/**
 * The value of a filter meaning "anywhere": the root of the tree the filter field points into,
 * when the field itself never holds it (an article's ScCode '0': every article of the page). A
 * tree's own parent field holds its root, where it filters the top level.
 */
function anywhereValue(descriptor: ResourceDescriptor, field: string): string | undefined {
  const key = `${descriptor.resource} ${field}`;
  if (!anywhereCache.has(key)) {
    const reference = descriptor.references?.find((r) => r.field === field);
    const tree = reference && reference.root === undefined ? resourceByName(reference.to) : undefined;
    anywhereCache.set(key, tree?.references?.find((r) => r.to === tree.resource && r.root !== undefined)?.root);
  }
  return anywhereCache.get(key);
}

export function listFilters(descriptor: ResourceDescriptor, params: Params) {
  const equals: Record<string, string | number> = {};
  const contains: Record<string, string> = {};
  for (const field of descriptor.filters) {
    const value = params[field];
    if (value === undefined || value === null || value === '') continue;
    if (value === anywhereValue(descriptor, field)) continue;
    equals[field] = value as string | number;
  }
  for (const field of descriptor.searchFields) {
    const value = params[field];
    if (typeof value === 'string' && value.trim() !== '') contains[field] = value.trim();
  }
  return { equals, contains };
}

/**
 * A list answer within the byte limit (config.listMaxBytes): rows past it are neither read nor
 * sent, and `total` still counts them. Why rows and not bodies: every screen then stays correct
 * without knowing which entity has long fields. The app's dataProvider asks for the rest from
 * where an answer stopped, with the paging parameters every list call already takes; leaving
 * long bodies out instead would need a single-record call for every entity (a comment has none),
 * and would still not bound 20,000 rows of a whole list.
 */
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
    maxBytes: app.config.listMaxBytes,
  });
  return listAnswer(
    rows.map((r) => present(descriptor, r, app.storage)),
    total,
    app.config.listMaxBytes,
  );
}

/** Kept read answers, as the JSON bytes sent: lists are read far more often than anything is written. */
const ANSWER_CACHE_BYTES = 32 * 1024 * 1024;
const answers = new WeakMap<FastifyInstance, VersionedCache<Buffer>>();

/**
 * Sends a read answer from the cache while the database is unchanged (its change clock), else
 * from `load()` (an object, or its JSON already made). The answer doesn't depend on who asks:
 * access is checked before. A failed load (404) is not kept.
 */
async function sendAnswer(request: FastifyRequest, reply: FastifyReply, key: string, load: () => Promise<unknown>) {
  const app = request.server;
  let cache = answers.get(app);
  if (!cache) {
    cache = new VersionedCache<Buffer>({ maxEntries: 10_000, maxBytes: ANSWER_CACHE_BYTES, sizeOf: (body) => body.length });
    answers.set(app, cache);
  }
  const body = await cache.get(key, await request.dataVersion(), async () => {
    const answer = await load();
    return Buffer.from(typeof answer === 'string' ? answer : JSON.stringify(answer));
  });
  return reply.type('application/json; charset=utf-8').send(body);
}

const answerKey = (descriptor: ResourceDescriptor, call: string, params: Params) => `${descriptor.resource}/${call}\n${JSON.stringify(params)}`;

/**
 * What the rules of one write need: the stores, the member, the time now in the business zone, and
 * (for a write's reply) a signal of its client gone, which drops its rich text unsaved.
 */
function ruleContext(app: FastifyInstance, member: MemberRow, reply?: FastifyReply): RuleContext {
  return { database: app.database, storage: app.storage, member, now: new Date(), timeZone: app.config.timeZone, ...(reply ? { signal: clientGone(reply) } : {}) };
}

async function loadById(app: FastifyInstance, descriptor: ResourceDescriptor, id: unknown): Promise<Row> {
  const row = await findRow(app.database, descriptor, 'Id', Number(id));
  if (!row) throw notFound(`${descriptor.label}不存在或已被删除`);
  return row;
}

export function registerCrud(app: FastifyInstance, descriptor: ResourceDescriptor) {
  const { calls, service } = descriptor;
  const tags = [descriptor.label];
  const url = (call: string) => `/${service}/${call}`;
  const skip = (kind: CallKind, call: string | undefined): call is undefined => !call || (descriptor.handWritten?.includes(kind) ?? false);

  if (!skip('list', calls.list)) {
    readRoute(app, url(calls.list), listParamsSchema(descriptor), { tags, summary: `${descriptor.label}列表` }, async (request, params, reply) => {
      await requireAccess(request, descriptor, 'list');
      return sendAnswer(request, reply, answerKey(descriptor, 'list', params), () => listCall(descriptor, app, params));
    });
  }

  if (!skip('one', calls.one)) {
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

  if (!skip('create', calls.create)) {
    writeRoute(app, url(calls.create), writeBodySchema(descriptor, 'create'), { tags, summary: `新增${descriptor.label}` }, async (request, body, reply) => {
      const member = await requireAccess(request, descriptor, 'create');
      const values: Row = { ...body };
      await prepareWrite(descriptor, ruleContext(app, member, reply), values, undefined);
      const files = app.files.track(descriptor);
      const row = await insertRow(app.database, descriptor, values, member, files.hook);
      await files.settle();
      return ok(present(descriptor, row, app.storage));
    });
  }

  if (!skip('update', calls.update)) {
    writeRoute(app, url(calls.update), writeBodySchema(descriptor, 'update'), { tags, summary: `修改${descriptor.label}` }, async (request, body, reply) => {
      const member = await requireAccess(request, descriptor, 'edit');
      const existing = await loadById(app, descriptor, body.Id);
      requireOwnership(member, descriptor, 'edit', existing);
      const values: Row = { ...body };
      delete values.Id;
      await prepareWrite(descriptor, ruleContext(app, member, reply), values, existing);
      // The files the update drops (a replaced video, a handout taken off) go once it commits.
      const files = app.files.track(descriptor);
      const updated = await updateRow(app.database, descriptor, Number(body.Id), values, member, files.hook);
      if (!updated) throw notFound(`${descriptor.label}不存在或已被删除`);
      await files.settle();
      return ok(present(descriptor, updated, app.storage));
    });
  }

  if (!skip('delete', calls.delete)) {
    writeRoute(app, url(calls.delete), idBodySchema, { tags, summary: `删除${descriptor.label}` }, async (request, body) => {
      const member = await requireAccess(request, descriptor, 'delete');
      const existing = await loadById(app, descriptor, body.Id);
      requireOwnership(member, descriptor, 'delete', existing);
      await checkDelete(descriptor, ruleContext(app, member), existing);
      // The record's files go once the delete commits, unless another record points at them.
      const files = app.files.track(descriptor);
      if (!(await deleteRow(app.database, descriptor, Number(body.Id), member, files.hook))) throw notFound(`${descriptor.label}不存在或已被删除`);
      await files.settle();
      return ok(present(descriptor, existing, app.storage), MSG_DELETED);
    });
  }
}
