// 导出: every list call has an export call beside it (`<list call>/Export`, docs/api.md), which
// writes the rows of the same filters, search and order as an .xlsx file. The rows stream from a
// cursor (db/cursor.ts) through exceljs's streaming writer to the client, a batch at a time, and
// the writer waits while the client reads slower than it writes, so the server never holds the
// rows: its memory does not grow with their number. Each export is recorded in the audit log.
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import contentDisposition from 'content-disposition';
import type ExcelJS from 'exceljs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { dayIn, formatIn } from '../../../schemas/businessTime';
import { exportFields, toColumn, type ResourceDescriptor } from '../../../schemas/descriptor';
import { parseFileList } from '../../../schemas/fileList';
import { EXPORT_ROWS_HEADER as ROWS_HEADER, exportCall } from '../../../schemas/lists';
import { RESOURCES, SCREENS } from '../../../schemas/index';
import { choiceLabel, fieldKind, fieldSchema, fieldTitle, referenceOf, referenceTarget, type FieldKind } from '../../../schemas/fieldKinds';
import { writeAudit } from '../audit/log';
import type { MemberRow } from '../auth/members';
import { rowBatches } from '../db/cursor';
import { parseOrderName } from '../db/orderName';
import { listQueries, storedFields, type AnySelect, type Row } from '../db/repository';
import { badRequest } from '../errors';
import { clientGone } from '../http/clientGone';
import { requireAccess } from '../plugins/permissions';
import { richTextPlainText } from '../richText';
import { listFilters, readRoute } from './crud';
import { listParamsSchema } from './requestSchemas';

type Params = Record<string, unknown>;

/** Rows read and written at a time: the most the server holds of an export. */
export const EXPORT_BATCH = 500;
/** Bytes of the file held between the writer and the client before the writer waits. */
const OUT_BUFFER_BYTES = 1024 * 1024;
/** Excel keeps at most this many characters in a cell. */
const CELL_MAX_CHARS = 32767;
/**
 * A text that Excel (or another spreadsheet) could take for a formula once edited: = + - @, and
 * tab and carriage return (OWASP, CSV injection). Such a cell is written with a leading apostrophe.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
export const MIME_XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const msgTooManyRows = (total: number, max: number) =>
  `共${total.toLocaleString('en-US')}行，超过导出上限${max.toLocaleString('en-US')}行（Excel 每个工作表最多 1,048,576 行），请先筛选或搜索缩小范围`;

/** What a hand-written list adds to the generic filters (the audit log's time range): its parameters and conditions. */
export interface ExportConditions {
  schema: { properties: Record<string, unknown> };
  /** Conditions from the parameters; throws a 400 for a bad one, as the list call does. */
  where(params: Params, app: FastifyInstance): ((query: AnySelect) => AnySelect) | undefined;
}

const conditions = new Map<string, ExportConditions>();

/** A hand-written list's own conditions, which its export applies too (registered by its call file). */
export function exportConditions(resource: string, given: ExportConditions): void {
  conditions.set(resource, given);
}


/**
 * The file's name: the screen's title (the `Screen` parameter: the label of one of the descriptor's
 * screens or of their menu entries, such as 标准图集; else its first screen of its own module, else
 * its label) and the business day.
 */
function fileLabel(descriptor: ResourceDescriptor, screen: unknown): string {
  const own = SCREENS.filter((s) => s.resource === descriptor.resource);
  const titles = own.flatMap((s) => [s.label, ...(s.menu ?? []).flatMap((m) => (m.label ? [m.label] : []))]);
  if (typeof screen === 'string' && titles.includes(screen)) return screen;
  return (own.find((s) => s.module === descriptor.module) ?? own[0])?.label ?? descriptor.label;
}

interface Column {
  field: string;
  kind: FieldKind;
  header: string;
}

/** A text cell: never a formula, within Excel's length. */
function textCell(text: string): string | null {
  if (text === '') return null;
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return safe.length > CELL_MAX_CHARS ? `${safe.slice(0, CELL_MAX_CHARS - 1)}…` : safe;
}

/** A day or time as Excel keeps it: the wall-clock time in the business zone, as a date without zone. */
function dateCell(zone: string, value: unknown, withTime: boolean): Date | null {
  const text = formatIn(zone, value, withTime ? 'YYYY-MM-DDTHH:mm:ss' : 'YYYY-MM-DD');
  return text === '' ? null : new Date(`${text}${withTime ? '' : 'T00:00:00'}Z`);
}

function cellOf(descriptor: ResourceDescriptor, column: Column, row: Row, names: Map<string, Map<string, string>>, zone: string): ExcelJS.CellValue {
  const value = row[column.field];
  if (value === null || value === undefined) return null;
  switch (column.kind) {
    case 'flag':
    case 'choice':
      return textCell(choiceLabel(fieldSchema(descriptor, column.field), value));
    case 'reference':
      return textCell(names.get(column.field)?.get(String(value)) ?? '');
    case 'date':
      return dateCell(zone, value, false);
    case 'datetime':
      return dateCell(zone, value, true);
    case 'number':
      return typeof value === 'number' ? value : Number.isFinite(Number(value)) && value !== '' ? Number(value) : textCell(String(value));
    case 'richText':
      return textCell(richTextPlainText(String(value)));
    case 'fileList':
      return textCell(parseFileList(value).map((f) => f.name).join('\n'));
    default:
      return textCell(String(value));
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are chosen by descriptor at run time
type AnyDb = Kysely<any>;

/** The names of the records a batch's references point at, by field, then by the value held. */
async function referencedNames(db: AnyDb, descriptor: ResourceDescriptor, columns: readonly Column[], rows: readonly Row[]) {
  const out = new Map<string, Map<string, string>>();
  for (const column of columns) {
    if (column.kind !== 'reference') continue;
    const reference = referenceOf(descriptor, column.field)!;
    const target = referenceTarget(reference);
    const table = RESOURCES.find((d) => d.resource === target.resource)?.table;
    const values = [...new Set(rows.map((r) => r[column.field]).filter((v) => v !== null && v !== undefined && v !== ''))].map(String);
    const names = new Map<string, string>();
    out.set(column.field, names);
    if (!table || values.length === 0) continue;
    const found = (await db
      .selectFrom(table)
      .select([sql.ref(toColumn(target.idField)).as('k'), sql.ref(toColumn(target.nameField)).as('n')])
      .where(toColumn(target.idField), 'in', values)
      .execute()) as { k: unknown; n: unknown }[];
    for (const { k, n } of found) names.set(String(k), typeof n === 'string' ? n : String(n ?? ''));
  }
  return out;
}

/** Waits until the client has read what was written, or has gone. */
async function drained(out: PassThrough, signal: AbortSignal): Promise<void> {
  if (!out.writableNeedDrain || signal.aborted) return;
  const ac = new AbortController();
  const stop = () => ac.abort();
  signal.addEventListener('abort', stop, { once: true });
  try {
    await once(out, 'drain', { signal: ac.signal });
  } catch {
    // Aborted: the loop sees the signal.
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/** Resolves once the client has gone. */
function gone(signal: AbortSignal): Promise<void> {
  return signal.aborted ? Promise.resolve() : new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** The filters the export applied, for the audit log: the parameters given, but paging. */
function appliedParams(params: Params): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if (['pageIndex', 'pageSize', 'All', 'Screen'].includes(key) || value === undefined || value === null || value === '') continue;
    out[key] = value;
  }
  return out;
}

async function exportList(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, descriptor: ResourceDescriptor, params: Params, member: MemberRow) {
  const database = app.database;
  const zone = app.config.timeZone;
  const fields = exportFields(descriptor);
  const columns: Column[] = fields.map((field) => ({ field, kind: fieldKind(descriptor, field), header: fieldTitle(descriptor, field) }));
  const stored = new Set(storedFields(descriptor).map((f) => f.field));
  const query = {
    ...listFilters(descriptor, params),
    order: parseOrderName(params.OrderName as string | undefined, descriptor),
    limit: app.config.exportMaxRows,
    omit: [...stored].filter((field) => !fields.includes(field)),
    where: conditions.get(descriptor.resource)?.where(params, app),
  };
  const built = listQueries(database, descriptor, query);
  // Counted first: a file Excel cannot open whole is refused before any row is read.
  const total = Number((await built.count.executeTakeFirstOrThrow()).total);
  if (total > app.config.exportMaxRows) throw badRequest(msgTooManyRows(total, app.config.exportMaxRows));

  const label = fileLabel(descriptor, params.Screen);
  const fileName = `${label}-${dayIn(zone)}.xlsx`;
  const signal = clientGone(reply);
  // A megabyte between the writer and the socket: fewer waits for the client, still bounded.
  const out = new PassThrough({ highWaterMark: OUT_BUFFER_BYTES });
  // A client gone mid-file: the writer's further output goes nowhere.
  out.on('error', () => {});
  // Loaded on the first export, not at start: about half a second and 20 MB that most processes never use.
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  // The header row stays in view (frozen).
  const sheet = workbook.addWorksheet(label.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({
    header: c.header,
    key: c.field,
    width: c.kind === 'datetime' ? 20 : c.kind === 'date' ? 12 : Math.min(60, Math.max(10, c.header.length * 2 + 2)),
    ...(c.kind === 'date' ? { style: { numFmt: 'yyyy-mm-dd' } } : c.kind === 'datetime' ? { style: { numFmt: 'yyyy-mm-dd hh:mm:ss' } } : {}),
  }));

  reply
    .header('content-type', MIME_XLSX)
    .header('content-disposition', contentDisposition(fileName))
    .header(ROWS_HEADER, String(total))
    .header('access-control-expose-headers', `${ROWS_HEADER}, Content-Disposition`)
    .header('cache-control', 'no-store');
  void reply.send(out);

  let written = 0;
  let failed: unknown;
  try {
    for await (const batch of rowBatches(database, built.rows.compile(), EXPORT_BATCH)) {
      if (signal.aborted) break;
      const names = await referencedNames(database.db as unknown as AnyDb, descriptor, columns, batch);
      for (const row of batch) {
        sheet.addRow(columns.map((c) => cellOf(descriptor, c, row, names, zone))).commit();
        written++;
      }
      await drained(out, signal);
      // Lets the compressor take what was written before the next batch comes.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (!signal.aborted) {
      sheet.commit();
      // The file's end waits for the client to read it; a client gone meanwhile never will.
      await Promise.race([workbook.commit(), gone(signal)]);
    }
  } catch (error) {
    failed = error;
    request.log.error({ err: error }, 'export failed');
  } finally {
    if (signal.aborted || failed) out.destroy();
  }
  const cancelled = signal.aborted || failed !== undefined;
  await writeAudit(database.db as unknown as AnyDb, member, {
    action: 'export',
    resource: descriptor.resource,
    recordName: fileName,
    changes: [
      { field: 'rows', label: '导出行数', after: written },
      { field: 'total', label: '符合条件的行数', after: total },
      ...(Object.keys(appliedParams(params)).length > 0 ? [{ field: 'params', label: '条件', after: appliedParams(params) }] : []),
      ...(cancelled ? [{ field: 'result', label: '结果', after: failed ? '出错中止' : '已取消' }] : []),
    ],
  }).catch((error: unknown) => request.log.error({ err: error }, 'export audit failed'));
  return reply;
}

export function exportParamsSchema(descriptor: ResourceDescriptor) {
  const base = listParamsSchema(descriptor);
  const own = conditions.get(descriptor.resource)?.schema.properties ?? {};
  return {
    ...base,
    properties: { ...base.properties, ...own, Screen: { type: ['string', 'null'], maxLength: 50, description: '文件名所用的界面名称（该资源的界面或菜单名称，其他值不用）' } },
  } as const;
}

/**
 * The export call of every descriptor with a list screen of its own (what a member exports is a
 * screen's list: the daily figures and a video's comments have none); permission: the list's view
 * code (2).
 */
export default async function exportRoutes(app: FastifyInstance) {
  for (const descriptor of RESOURCES) {
    if (!descriptor.calls.list || !SCREENS.some((s) => s.resource === descriptor.resource)) continue;
    const meta = { tags: [descriptor.label], summary: `导出${descriptor.label}（.xlsx）` };
    readRoute(app, exportCall(descriptor), exportParamsSchema(descriptor), meta, async (request, params, reply) => {
      const member = await requireAccess(request, descriptor, 'list');
      return exportList(app, request, reply, descriptor, params, member);
    });
  }
}
