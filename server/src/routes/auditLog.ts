// GetAuditLogListInAdmin: the audit log for administrators, newest first, paged like every list,
// filtered by resource, action and member, searched by record name, within a time range. The
// list is the generic one (listRows) plus the range; there is no call that writes the log.
import type { FastifyInstance } from 'fastify';
import { AUDIT_ACTIONS, auditLogResource } from '../../../schemas/auditLog';
import { AUDITED_RESOURCES } from '../../../schemas/index';
import { startOfDayIn } from '../../../schemas/businessTime';
import { listRows, type AnySelect, type Row } from '../db/repository';
import { parseOrderName } from '../db/orderName';
import { badRequest } from '../errors';
import { listAnswer } from '../http/envelope';
import { requireAdmin } from '../plugins/permissions';
import { listFilters, readRoute } from './crud';
import { exportConditions } from './export';
import { listParamsSchema, MAX_ALL_ROWS } from './requestSchemas';

/** A day (YYYY-MM-DD, a UTC day) or an ISO 8601 time; empty means no bound. */
const TIME_PATTERN = '^(|\\d{4}-\\d{2}-\\d{2}([T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})?)?)$';
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const base = listParamsSchema(auditLogResource);
export const auditListSchema = {
  ...base,
  properties: {
    ...base.properties,
    Resource: { type: ['string', 'null'], enum: [...Object.keys(AUDITED_RESOURCES), '', null] },
    Action: { type: ['string', 'null'], enum: [...AUDIT_ACTIONS, '', null] },
    AtFrom: {
      type: ['string', 'null'],
      maxLength: 40,
      pattern: TIME_PATTERN,
      description: '起始时间（含）：ISO 8601 时间，或 YYYY-MM-DD（该 UTC 日零点）',
    },
    AtTo: {
      type: ['string', 'null'],
      maxLength: 40,
      pattern: TIME_PATTERN,
      description: '截止时间（含）：ISO 8601 时间，或 YYYY-MM-DD（整个 UTC 日）',
    },
  },
} as const;

const TIME_MSG = '时间格式应为YYYY-MM-DD或ISO 8601时间';

/** The times a stored entry can have: toISOString's four-digit years, whose text order is time order. */
const FIRST_TIME = Date.parse('0000-01-01T00:00:00.000Z');
const LAST_TIME = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * A bound of the range as stored text (toISOString, so text order is time order). A bare day is
 * inclusive: from its start, or up to the start of the next day (exclusive). A bound past either end
 * of the four-digit calendar is no bound on its open side (AtTo=9999-12-31) and an empty range on
 * the other: toISOString writes such years as "+010000" or "-000001", whose text does not sort as time.
 */
function bound(value: unknown, field: 'AtFrom' | 'AtTo', zone: string): { at: string; inclusive: boolean } | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const text = value.trim();
  // A bare day is the business zone's day (config.timeZone).
  const start = (DAY.test(text) ? startOfDayIn(zone, text) : new Date(text)).getTime();
  if (Number.isNaN(start)) throw badRequest(`${field}：${TIME_MSG}`, [{ field, msg: TIME_MSG }]);
  const exclusiveEnd = field === 'AtTo' && DAY.test(text);
  const time = exclusiveEnd ? start + 86_400_000 : start;
  if (field === 'AtTo') {
    if (time > LAST_TIME) return undefined;
    if (time < FIRST_TIME) return { at: new Date(FIRST_TIME).toISOString(), inclusive: false };
  } else {
    if (time < FIRST_TIME) return undefined;
    if (time > LAST_TIME) return { at: new Date(LAST_TIME).toISOString(), inclusive: false };
  }
  return { at: new Date(time).toISOString(), inclusive: !exclusiveEnd };
}

/** A range that holds no time at all: from after to, or from equal to an exclusive to. */
const emptyRange = (from: { at: string }, to: { at: string; inclusive: boolean }) => from.at > to.at || (from.at === to.at && !to.inclusive);

function present(row: Row): Row {
  let changes: unknown = [];
  try {
    changes = JSON.parse(String(row.Changes ?? '[]'));
  } catch {
    changes = [];
  }
  return { ...row, RecordId: row.RecordId === null || row.RecordId === undefined ? null : Number(row.RecordId), Changes: changes };
}

/** The time range of the parameters as conditions of the list's query (the rows, the total, a deep page's IDs). */
function timeRange(params: Record<string, unknown>, zone: string): (query: AnySelect) => AnySelect {
  const from = bound(params.AtFrom, 'AtFrom', zone);
  const to = bound(params.AtTo, 'AtTo', zone);
  if (from && to && emptyRange(from, to)) {
    throw badRequest('开始时间不能晚于结束时间', [{ field: 'AtTo', msg: '开始时间不能晚于结束时间' }]);
  }
  return (query) => {
    let q = query;
    if (from) q = q.where('AT', from.inclusive ? '>=' : '>', from.at);
    if (to) q = q.where('AT', to.inclusive ? '<=' : '<', to.at);
    return q;
  };
}

// Its export (routes/export.ts) takes the same range.
exportConditions(auditLogResource.resource, { schema: auditListSchema, where: (params, app) => timeRange(params, app.config.timeZone) });

export default async function auditLogRoutes(app: FastifyInstance) {
  const meta = { tags: [auditLogResource.label], summary: '操作日志列表（仅管理员）' };
  readRoute(app, `/Ajax/${auditLogResource.calls.list}`, auditListSchema, meta, async (request, params, reply) => {
    await requireAdmin(request);
    const where = timeRange(params, app.config.timeZone);
    const all = params.All === 1;
    const { rows, total } = await listRows(app.database, auditLogResource, {
      ...listFilters(auditLogResource, params),
      order: parseOrderName(params.OrderName as string | undefined, auditLogResource),
      page: all ? undefined : { index: Number(params.pageIndex ?? 1), size: Number(params.pageSize ?? auditLogResource.pageSize) },
      limit: MAX_ALL_ROWS,
      where,
      maxBytes: app.config.listMaxBytes,
    });
    return reply.type('application/json; charset=utf-8').send(listAnswer(rows.map(present), total, app.config.listMaxBytes));
  });
}
