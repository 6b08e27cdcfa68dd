// 全文: the search call of every descriptor with `fullText` (on its own service, guarded by its list's
// view code), and the administrators' calls on the index: its state and a retry of what failed
// (docs/api.md, Full-text search).
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { FULL_TEXT_CALLS, FULL_TEXT_MAX_CHARS, FULL_TEXT_MAX_PAGE_SIZE, FULL_TEXT_PAGE_SIZE, type FullTextFailure, type FullTextIndexState } from '../../../schemas/fullText';
import { toColumn, type ResourceDescriptor } from '../../../schemas/descriptor';
import { MAX_PAGE_INDEX } from '../../../schemas/lists';
import { badRequest } from '../errors';
import { ok } from '../http/envelope';
import { requireAccess, requireAdmin } from '../plugins/permissions';
import { categoryFilter, FULL_TEXT_RESOURCES, fullTextByTable, typeFilter } from '../fullText/declared';
import { searchFullText } from '../fullText/search';
import { enqueue, type AnyDb } from '../fullText/store';
import { readRoute, writeRoute } from './crud';
import { currentFileUrl } from './rules';

export const MSG_TEXT_REQUIRED = '请输入要搜索的文字';
export const msgTextTooLong = () => `搜索文字不能超过${FULL_TEXT_MAX_CHARS}个字`;

export function searchParamsSchema(descriptor: ResourceDescriptor) {
  const properties: Record<string, unknown> = {
    Text: { type: 'string', maxLength: 1000, description: '要搜索的文字（去掉首尾空格后 1–100 个字）' },
    PageIndex: { type: 'integer', minimum: 1, maximum: MAX_PAGE_INDEX },
    PageSize: { type: 'integer', minimum: 1, maximum: FULL_TEXT_MAX_PAGE_SIZE },
  };
  for (const field of descriptor.filters) {
    const s = descriptor.schema.properties[field] as { type?: string } | undefined;
    properties[field] = s?.type === 'integer' ? { type: 'integer', minimum: -1000000000, maximum: 1000000000 } : { type: ['string', 'null'], maxLength: 64 };
  }
  return { type: 'object', properties, required: ['Text'], additionalProperties: false } as const;
}

const pagingSchema = {
  type: 'object',
  properties: {
    PageIndex: { type: 'integer', minimum: 1, maximum: MAX_PAGE_INDEX },
    PageSize: { type: 'integer', minimum: 1, maximum: 100 },
  },
  additionalProperties: false,
} as const;

const emptySchema = { type: 'object', properties: {}, additionalProperties: false } as const;

export default async function fullTextRoutes(app: FastifyInstance) {
  for (const descriptor of FULL_TEXT_RESOURCES) {
    const ft = descriptor.fullText!;
    const meta = { tags: [descriptor.label], summary: `${descriptor.label}全文搜索` };
    readRoute(app, `/${descriptor.service}/${ft.call}`, searchParamsSchema(descriptor), meta, async (request, params) => {
      await requireAccess(request, descriptor, 'list');
      const text = typeof params.Text === 'string' ? params.Text.trim() : '';
      if (text === '') throw badRequest(MSG_TEXT_REQUIRED, [{ field: 'Text', msg: MSG_TEXT_REQUIRED }]);
      if ([...text].length > FULL_TEXT_MAX_CHARS) throw badRequest(msgTextTooLong(), [{ field: 'Text', msg: msgTextTooLong() }]);
      const { rows, total, totalCapped } = await searchFullText(app.database, descriptor, {
        text,
        ...filterValues(descriptor, params),
        pageIndex: Number(params.PageIndex ?? 1),
        pageSize: Number(params.PageSize ?? FULL_TEXT_PAGE_SIZE),
      });
      // A file's URL as the record's own calls present it (FT_PAGE keeps it as the record stored it).
      const presented = rows.map((r) => (r.FileUrl === undefined ? r : { ...r, FileUrl: currentFileUrl(r.FileUrl, app.storage) }));
      return { ...ok(presented, undefined, total), totalCapped };
    });
  }

  const tags = ['全文索引'];
  readRoute(app, `/Ajax/${FULL_TEXT_CALLS.state}`, pagingSchema, { tags, summary: '全文索引状态' }, async (request, params) => {
    await requireAdmin(request);
    const size = Number(params.PageSize ?? 20);
    const index = Number(params.PageIndex ?? 1);
    return indexState(app.database.db as unknown as AnyDb, index, size);
  });

  writeRoute(app, `/Ajax/${FULL_TEXT_CALLS.retry}`, emptySchema, { tags, summary: '重新索引读取失败的文件' }, async (request) => {
    await requireAdmin(request);
    const db = app.database.db as unknown as AnyDb;
    const failed = (await db.selectFrom('FT_SOURCE').select(['TBL', 'RECORD_ID']).distinct().where('STATE', '=', 'failed').execute()) as { TBL: string; RECORD_ID: number }[];
    await db.transaction().execute(async (trx) => {
      for (const f of failed) await enqueue(trx, f.TBL, Number(f.RECORD_ID));
    });
    app.fullText?.wake();
    return ok({ Queued: failed.length }, `已重新排队${failed.length}条`);
  });
}

/** The search's filters from the call's parameters: the type, and the category (its root: everywhere). */
function filterValues(descriptor: ResourceDescriptor, params: Record<string, unknown>): { type?: string | number; category?: string } {
  const out: { type?: string | number; category?: string } = {};
  const type = typeFilter(descriptor);
  const value = type ? params[type] : undefined;
  if (typeof value === 'number' || (typeof value === 'string' && value !== '')) out.type = value;
  const category = categoryFilter(descriptor);
  const code = category ? params[category.field] : undefined;
  if (typeof code === 'string' && code !== '' && code !== category!.tree.root) out.category = code;
  return out;
}

async function indexState(db: AnyDb, pageIndex: number, pageSize: number) {
  const count = async (table: string, state?: string) => {
    let q = db.selectFrom(table).select(sql<number>`count(*)`.as('n'));
    if (state) q = q.where('STATE', '=', state);
    return Number(((await q.executeTakeFirst()) as { n: number } | undefined)?.n ?? 0);
  };
  const [Indexed, Waiting, Failed] = await Promise.all([count('FT_SOURCE', 'indexed'), count('FT_JOB'), count('FT_SOURCE', 'failed')]);
  const rows = (await db
    .selectFrom('FT_SOURCE')
    .select(['ID', 'TBL', 'RECORD_ID', 'FILE_NAME', 'REASON', 'UPDATED_AT'])
    .where('STATE', '=', 'failed')
    .orderBy('UPDATED_AT', 'desc')
    .orderBy('ID', 'desc')
    .limit(pageSize)
    .offset((pageIndex - 1) * pageSize)
    .execute()) as { ID: number; TBL: string; RECORD_ID: number; FILE_NAME: string; REASON: string; UPDATED_AT: string }[];
  // The records' names, a query per table of the page.
  const names = new Map<string, string>();
  for (const table of new Set(rows.map((r) => r.TBL))) {
    const descriptor = fullTextByTable(table);
    if (!descriptor?.nameField) continue;
    const ids = rows.filter((r) => r.TBL === table).map((r) => Number(r.RECORD_ID));
    const found = (await db.selectFrom(table).select(['ID', `${toColumn(descriptor.nameField)} as NAME`]).where('ID', 'in', ids).execute()) as { ID: number; NAME: string }[];
    for (const f of found) names.set(`${table} ${f.ID}`, f.NAME);
  }
  const Failures: FullTextFailure[] = rows.map((r) => {
    const descriptor = fullTextByTable(r.TBL);
    return {
      Table: r.TBL,
      Resource: descriptor?.resource ?? '',
      Label: descriptor?.label ?? '',
      Id: Number(r.RECORD_ID),
      SaName: names.get(`${r.TBL} ${r.RECORD_ID}`) ?? '',
      FileName: r.FILE_NAME,
      Reason: r.REASON,
      When: r.UPDATED_AT,
    };
  });
  const data: FullTextIndexState = { Indexed, Waiting, Failed, Failures };
  return ok(data, undefined, Failed);
}
