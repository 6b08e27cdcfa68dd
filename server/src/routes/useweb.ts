// UpdateUsewebSort: the order of the websites after a drag sort, all rows in one transaction with
// one audit log entry listing the websites whose place changed.
import type { FastifyInstance } from 'fastify';
import type { AuditChange } from '../../../schemas/auditLog';
import { usewebResource } from '../../../schemas/useweb';
import { SORT_MAXIMUM } from '../../../schemas/fields';
import { writeAudit } from '../audit/log';
import { badRequest, notFound } from '../errors';
import { ok } from '../http/envelope';
import { requireAccess } from '../plugins/permissions';
import { writeRoute } from './crud';
import { idProperty, MAX_ID } from './requestSchemas';

const entrySchema = {
  type: 'object',
  properties: { Id: idProperty, UwSort: { type: 'integer', minimum: 1, maximum: SORT_MAXIMUM } },
  required: ['Id', 'UwSort'],
  additionalProperties: false,
} as const;
const listSchema = { type: 'array', items: entrySchema, minItems: 1, maxItems: 5000 } as const;

const sortBody = {
  type: 'object',
  // modelList is a JSON list; legacy clients send it as JSON text, others as an array.
  properties: { modelList: { anyOf: [listSchema, { type: 'string', maxLength: 500000 }] } },
  required: ['modelList'],
  additionalProperties: false,
} as const;

/** The bounds of the array form's schema hold for the JSON-text form too. */
const inRange = (v: unknown, min: number, max: number) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;

function parseModelList(value: unknown): { Id: number; UwSort: number }[] {
  let list: unknown = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value);
    } catch {
      throw badRequest('排序数据格式不正确', [{ field: 'modelList', msg: '排序数据格式不正确' }]);
    }
  }
  const ok =
    Array.isArray(list) &&
    list.length > 0 &&
    list.every(
      (e: unknown) =>
        !!e &&
        typeof e === 'object' &&
        inRange((e as { Id: unknown }).Id, 1, MAX_ID) &&
        inRange((e as { UwSort: unknown }).UwSort, 1, SORT_MAXIMUM),
    );
  if (!ok) throw badRequest('排序数据格式不正确', [{ field: 'modelList', msg: '排序数据格式不正确' }]);
  return (list as { Id: number; UwSort: number }[]).map(({ Id, UwSort }) => ({ Id, UwSort }));
}

export default async function usewebRoutes(app: FastifyInstance) {
  writeRoute(app, '/Ajax/UpdateUsewebSort', sortBody, { tags: [usewebResource.label], summary: '保存网站排序' }, async (request, body) => {
    const member = await requireAccess(request, usewebResource, 'sort');
    const entries = parseModelList(body.modelList);
    await app.database.db.transaction().execute(async (trx) => {
      // The places before the sort, for the log (the websites are few: one read).
      const ids = [...new Set(entries.map((e) => e.Id))];
      const before = new Map(
        (await trx.selectFrom('USEWEB').select(['ID', 'UW_NAME', 'UW_SORT']).where('ID', 'in', ids).execute()).map((r) => [r.ID, r]),
      );
      const changes: AuditChange[] = [];
      for (const { Id, UwSort } of entries) {
        const result = await trx.updateTable('USEWEB').set({ UW_SORT: UwSort }).where('ID', '=', Id).executeTakeFirst();
        // An unknown Id rolls the whole order back: nothing half-saved.
        if (Number(result.numUpdatedRows) === 0) throw notFound(`网站不存在或已被删除（Id ${Id}）`);
        const old = before.get(Id);
        if (old && old.UW_SORT !== UwSort) changes.push({ field: 'UwSort', id: Id, name: old.UW_NAME, before: old.UW_SORT, after: UwSort });
      }
      await writeAudit(trx, member, { action: 'sort', resource: usewebResource.resource, recordName: '网站排序', changes });
    });
    return ok(entries.length);
  });
}
