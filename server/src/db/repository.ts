// Generic repository of the entity tables, driven by the resource descriptors. Every column name
// it puts into SQL comes from the entity's schema (never from the request), and every value is a
// bound parameter.
import { sql, type Kysely, type SelectExpression, type SelectQueryBuilder, type Transaction } from 'kysely';
import { toColumn, type Reference, type ResourceDescriptor } from '../../../schemas/descriptor';
import { referencesTo } from '../../../schemas/index';
import type { Db, DialectName } from './database';
import type { OrderTerm } from './orderName';
import { adjustCounts, keptCount } from './rowCounts';
import type { Row } from './row';
import { auditRecord, type AuditActor } from '../audit/log';
import { fullTextOnWrite } from '../fullText/store';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are chosen by descriptor at run time
type AnyDb = Kysely<any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
type AnyTrx = Transaction<any>;
export type { Row } from './row';

/**
 * Runs inside a write's transaction, after the row is written: `before` is the row as it was
 * (undefined on insert), `after` as it is (undefined on delete). Throwing rolls the write back.
 * The file lifecycle (server/src/files/lifecycle.ts) queues the files a write drops with it.
 * `of` names a row of another entity that went with the written one (a deleted video's comments).
 */
export type WriteHook = (trx: AnyTrx, before: Row | undefined, after: Row | undefined, of?: ResourceDescriptor) => Promise<void>;

/** Children read at once when a hook must see them go: a busy video may have many long comments. */
const CASCADE_BATCH = 100;

export interface FieldColumn {
  field: string;
  column: string;
}

const columnCache = new Map<string, FieldColumn[]>();

/** Fields stored in the descriptor's table (everything but write-only and object fields). */
export function storedFields(descriptor: ResourceDescriptor): FieldColumn[] {
  let cached = columnCache.get(descriptor.resource);
  if (!cached) {
    cached = Object.entries(descriptor.schema.properties)
      .filter(([, s]) => !s.writeOnly && s.type !== 'object')
      .map(([field]) => ({ field, column: toColumn(field) }));
    columnCache.set(descriptor.resource, cached);
  }
  return cached;
}

function columnOf(descriptor: ResourceDescriptor, field: string): string {
  const found = storedFields(descriptor).find((f) => f.field === field);
  if (!found) throw new Error(`${descriptor.resource} has no stored field ${field}`);
  return found.column;
}

function selection(descriptor: ResourceDescriptor, omit: readonly string[] = []): string[] {
  return storedFields(descriptor)
    .filter((f) => !omit.includes(f.field))
    .map((f) => `${f.column} as ${f.field}`);
}

/** Escapes LIKE wildcards so that a search for "50%" finds the text "50%". */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface ListQuery {
  /** Equality filters, by field. */
  equals: Record<string, string | number>;
  /** Case-insensitive "contains" searches, by field. */
  contains: Record<string, string>;
  order: OrderTerm[];
  /** Omitted: every row up to `limit`. */
  page?: { index: number; size: number };
  limit: number;
  /** Fields left out of the rows (a list answer's detailOnlyFields). */
  omit?: readonly string[];
  /** Further conditions (the audit log's time range); the kept totals then do not apply. */
  where?: (query: AnySelect) => AnySelect;
  /**
   * Read only the rows an answer of this many bytes can hold (docs/api.md, Lists), and at least
   * one: their sizes are read first, without their text.
   */
  maxBytes?: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export type AnySelect = SelectQueryBuilder<any, any, object>;

/** From this many rows skipped, a page is found through its IDs first (a deferred join). */
export const DEFERRED_JOIN_OFFSET = 1000;

/**
 * Per row, the bytes its text takes as stored (the sum of its text columns' octet_length): both
 * databases read that from the value's header, without reading the text itself.
 */
function sizeSelection(descriptor: ResourceDescriptor, omit: readonly string[] = []) {
  const text = storedFields(descriptor).filter(({ field }) => {
    if (omit.includes(field)) return false;
    const type = (descriptor.schema.properties[field] as { type?: unknown } | undefined)?.type;
    // Arrays (the audit log's changes) are stored as JSON text.
    return [type].flat().some((t) => t === 'string' || t === 'array');
  });
  const terms = text.map(({ column }) => sql`coalesce(octet_length(${sql.ref(column)}), 0)`);
  return (terms.length > 0 ? sql<number>`${sql.join(terms, sql` + `)}` : sql<number>`0`).as('SIZE');
}

/** Text the server writes without a declared maximum (times, names, codes) is shorter than this. */
const UNDECLARED_TEXT_LENGTH = 1000;

/**
 * The most bytes a row's text can take as stored, by the schema's maxLength (3 bytes a character
 * at most in UTF-8); Infinity with a field of no maximum (the audit log's list of changes).
 */
function largestRowBytes(descriptor: ResourceDescriptor, omit: readonly string[] = []): number {
  let bytes = 0;
  for (const { field } of storedFields(descriptor)) {
    if (omit.includes(field)) continue;
    const shape = descriptor.schema.properties[field] as { type?: unknown; maxLength?: number } | undefined;
    const types = [shape?.type].flat();
    if (types.includes('string')) bytes += 3 * (shape?.maxLength ?? UNDECLARED_TEXT_LENGTH);
    else if (!types.every((t) => t === 'integer' || t === 'number' || t === 'null')) return Infinity;
  }
  return bytes;
}

/** What a row's JSON adds to the size of its text: the field names, quotes and numbers. */
function rowOverhead(descriptor: ResourceDescriptor, omit: readonly string[] = []): number {
  return storedFields(descriptor)
    .filter(({ field }) => !omit.includes(field))
    .reduce((sum, { field }) => sum + field.length + 16, 2);
}

/**
 * The page query, the count query and the size query of a list, built but not run (benchmarks and
 * plans read them too). `take` reads fewer rows than the page or `limit` asks for.
 */
export function listQueries({ db, dialect }: Db, descriptor: ResourceDescriptor, query: ListQuery, take?: number) {
  const k = db as unknown as AnyDb;
  let base = k.selectFrom(descriptor.table);
  for (const [field, value] of Object.entries(query.equals)) {
    base = base.where(columnOf(descriptor, field), '=', value);
  }
  for (const [field, text] of Object.entries(query.contains)) {
    const col = sql.ref(columnOf(descriptor, field));
    // SQLite's LIKE ignores ASCII case already; PostgreSQL needs ILIKE.
    base =
      dialect === 'postgres'
        ? base.where(sql<boolean>`${col} ilike ${likePattern(text)} escape '\\'`)
        : base.where(sql<boolean>`${col} like ${likePattern(text)} escape '\\'`);
  }
  if (query.where) base = query.where(base);
  const offset = query.page ? (query.page.index - 1) * query.page.size : 0;
  const count = Math.min(query.page ? query.page.size : query.limit, take ?? Infinity);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
  const read = (columns: readonly SelectExpression<any, any>[]) => {
    let rows;
    if (query.page && offset >= DEFERRED_JOIN_OFFSET) {
      // A deep page: skip rows in the ordering index alone (ID is in every such index), then read
      // the page's rows by primary key. PostgreSQL otherwise visits the table for every skipped row.
      let ids = base.select('ID');
      for (const term of query.order) ids = ids.orderBy(term.column, term.direction);
      rows = k.selectFrom(descriptor.table).select(columns).where('ID', 'in', ids.limit(count).offset(offset));
    } else {
      rows = base.select(columns);
    }
    for (const term of query.order) rows = rows.orderBy(term.column, term.direction);
    return query.page ? (offset >= DEFERRED_JOIN_OFFSET ? rows : rows.limit(count).offset(offset)) : rows.limit(count);
  };
  return {
    rows: read(selection(descriptor, query.omit)),
    sizes: read([sizeSelection(descriptor, query.omit)]),
    count: base.select(sql<number>`count(*)`.as('total')),
  };
}

/** How many leading rows fit in `maxBytes`, by their sizes: at least one. */
function rowsWithin(sizes: readonly number[], maxBytes: number): number {
  let bytes = 0;
  let n = 0;
  while (n < sizes.length && (n === 0 || bytes + sizes[n]! <= maxBytes)) bytes += sizes[n++]!;
  return n;
}

export async function listRows(database: Db, descriptor: ResourceDescriptor, query: ListQuery): Promise<{ rows: Row[]; total: number }> {
  // Rows past the byte limit are not even read: a video's thousand long comments would otherwise
  // be read whole, hundreds of MB, for an answer of a few. Their sizes come first, then as many
  // rows as fit (all of them, as asked, when they do). Not when the rows asked for cannot pass the
  // limit by the lengths their fields allow (a page of 15 videos): that would only cost a query.
  let take: number | undefined;
  const asked = query.page ? query.page.size : query.limit;
  if (query.maxBytes !== undefined && asked * largestRowBytes(descriptor, query.omit) > query.maxBytes) {
    const overhead = rowOverhead(descriptor, query.omit);
    const sizes = (await listQueries(database, descriptor, query).sizes.execute()) as { SIZE: number | string }[];
    const fit = rowsWithin(sizes.map((r) => Number(r.SIZE) + overhead), query.maxBytes);
    // A write between the two reads changes which rows come, not the answer's bound: the answer
    // is cut by its real size (listAnswer).
    if (fit < sizes.length) take = fit;
  }
  const q = listQueries(database, descriptor, query, take);
  // Without a search or further conditions, the total is kept in ROW_COUNT; otherwise the matching rows are counted.
  const kept =
    Object.keys(query.contains).length === 0 && !query.where ? keptCount(database.db as never, descriptor, query.equals) : undefined;
  const [rows, total] = await Promise.all([
    q.rows.execute() as Promise<Row[]>,
    kept?.then(async (n) => n ?? Number((await q.count.executeTakeFirstOrThrow()).total)) ??
      q.count.executeTakeFirstOrThrow().then((c) => Number(c.total)),
  ]);
  return { rows, total };
}

export async function findRow(
  { db }: Db,
  descriptor: ResourceDescriptor,
  field: string,
  value: string | number,
): Promise<Row | undefined> {
  const k = db as unknown as AnyDb;
  return (await k
    .selectFrom(descriptor.table)
    .select(selection(descriptor))
    .where(columnOf(descriptor, field), '=', value)
    .executeTakeFirst()) as Row | undefined;
}

function toColumns(descriptor: ResourceDescriptor, values: Row): Row {
  const out: Row = {};
  for (const [field, value] of Object.entries(values)) {
    if (field === 'Id' || value === undefined) continue;
    out[columnOf(descriptor, field)] = value;
  }
  return out;
}

/**
 * A row read for a change inside a transaction. On PostgreSQL it is locked (FOR UPDATE) until the
 * transaction ends, since other connections, or other server processes, may change it meanwhile;
 * SQLite has one writer at a time and no FOR UPDATE.
 */
async function lockedRow(trx: AnyTrx, dialect: DialectName, descriptor: ResourceDescriptor, id: number): Promise<Row | undefined> {
  const query = trx.selectFrom(descriptor.table).select(selection(descriptor)).where('ID', '=', id);
  return (await (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst()) as Row | undefined;
}

// Writes run in a transaction with the ROW_COUNT adjustments, so the kept totals are exact, and
// with their audit log entry when `audit` names the member making them (server/src/audit/log.ts).
// A descriptor with `fullText` has its index kept in step in the same transaction (fullText/store.ts).
export async function insertRow({ db, dialect }: Db, descriptor: ResourceDescriptor, values: Row, audit?: AuditActor, hook?: WriteHook): Promise<Row> {
  return (db as unknown as AnyDb).transaction().execute(async (trx) => {
    const row = (await trx
      .insertInto(descriptor.table)
      .values(toColumns(descriptor, values))
      .returning(selection(descriptor))
      .executeTakeFirstOrThrow()) as Row;
    await adjustCounts(trx, descriptor, row, 1);
    if (audit) await auditRecord(trx, audit, descriptor, 'create', undefined, row);
    await fullTextOnWrite(trx, dialect, descriptor, undefined, row);
    if (hook) await hook(trx, undefined, row);
    return row;
  });
}

export async function updateRow(
  database: Db,
  descriptor: ResourceDescriptor,
  id: number,
  values: Row,
  audit?: AuditActor,
  hook?: WriteHook,
): Promise<Row | undefined> {
  const set = toColumns(descriptor, values);
  if (Object.keys(set).length === 0) return findRow(database, descriptor, 'Id', id);
  const movesCount = descriptor.filters.some((f) => values[f] !== undefined);
  return (database.db as unknown as AnyDb).transaction().execute(async (trx) => {
    // A change of a filter column moves the row from one kept count to another; the row is locked
    // while read, so that a concurrent move or delete cannot count it from a stale value.
    // The audit log and the hook need the row as it was too.
    const before = movesCount || audit || hook || descriptor.fullText ? await lockedRow(trx, database.dialect, descriptor, id) : undefined;
    const row = (await trx
      .updateTable(descriptor.table)
      .set(set)
      .where('ID', '=', id)
      .returning(selection(descriptor))
      .executeTakeFirst()) as Row | undefined;
    if (row && before && movesCount) {
      await adjustCounts(trx, descriptor, before, -1);
      await adjustCounts(trx, descriptor, row, 1);
    }
    if (row && before && audit) await auditRecord(trx, audit, descriptor, 'update', before, row);
    if (row && before) await fullTextOnWrite(trx, database.dialect, descriptor, before, row);
    if (row && before && hook) await hook(trx, before, row);
    return row;
  });
}

interface Cascade {
  child: ResourceDescriptor;
  /** The child's field pointing at the parent, and the parent's field it holds. */
  field: string;
  parentField: string;
}

const cascadeCache = new Map<string, Cascade[]>();

/** Rows that go with a deleted row (a video's comments): the references that cascade (`onDelete`). */
function cascadesOf(descriptor: ResourceDescriptor): Cascade[] {
  let cascades = cascadeCache.get(descriptor.resource);
  if (!cascades) {
    cascades = referencesTo(descriptor.resource)
      .filter(({ reference }) => reference.onDelete === 'cascade')
      .map(({ from, reference }) => ({ child: from, field: reference.field, parentField: reference.toField }));
    cascadeCache.set(descriptor.resource, cascades);
  }
  return cascades;
}

export async function deleteRow(database: Db, descriptor: ResourceDescriptor, id: number, audit?: AuditActor, hook?: WriteHook): Promise<boolean> {
  return (database.db as unknown as AnyDb).transaction().execute((trx) => deleteIn(trx, database.dialect, descriptor, id, audit, hook));
}

/**
 * Deletes several rows in one transaction, each as deleteRow does (its children, its counts, its
 * own audit entry, the hook): all or none. The ids of the rows deleted; those already gone are not.
 */
export async function deleteRows(database: Db, descriptor: ResourceDescriptor, ids: readonly number[], audit?: AuditActor, hook?: WriteHook): Promise<number[]> {
  return (database.db as unknown as AnyDb).transaction().execute(async (trx) => {
    const deleted: number[] = [];
    for (const id of ids) if (await deleteIn(trx, database.dialect, descriptor, id, audit, hook)) deleted.push(id);
    return deleted;
  });
}

async function deleteIn(trx: AnyTrx, dialect: DialectName, descriptor: ResourceDescriptor, id: number, audit?: AuditActor, hook?: WriteHook): Promise<boolean> {
  // Locked first: a concurrent move cannot change what is uncounted below, and a child insert
  // (its foreign key check) waits for this delete instead of deadlocking with it.
  const existing = await lockedRow(trx, dialect, descriptor, id);
  if (!existing) return false;
  // Children first (deleted here, so that their counts follow): the foreign key's own cascade
  // would remove them without their counts.
  const cascaded: { child: ResourceDescriptor; count: number }[] = [];
  for (const { child, field, parentField } of cascadesOf(descriptor)) {
    // Only the filter columns (what the counts need) are read back: a busy video may have many
    // long comments.
    const back = child.filters.length > 0 ? child.filters.map((f) => `${columnOf(child, f)} as ${f}`) : ['ID'];
    const parentValue = existing[parentField] as string;
    let count = 0;
    if (hook) {
      // The hook sees each child as it goes (the files its text links to), a batch at a time.
      for (;;) {
        const batch = (await trx
          .selectFrom(child.table)
          .select(selection(child))
          .where(columnOf(child, field), '=', parentValue)
          .orderBy('ID')
          .limit(CASCADE_BATCH)
          .execute()) as Row[];
        if (batch.length === 0) break;
        for (const row of batch) await hook(trx, row, undefined, child);
        const removed = (await trx
          .deleteFrom(child.table)
          .where('ID', 'in', batch.map((row) => row.Id as number))
          .returning(back)
          .execute()) as Row[];
        await adjustCounts(trx, child, removed, -1);
        count += removed.length;
      }
    } else {
      const removed = (await trx.deleteFrom(child.table).where(columnOf(child, field), '=', parentValue).returning(back).execute()) as Row[];
      await adjustCounts(trx, child, removed, -1);
      count = removed.length;
    }
    cascaded.push({ child, count });
  }
  const result = await trx.deleteFrom(descriptor.table).where('ID', '=', id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) return false;
  await adjustCounts(trx, descriptor, existing, -1);
  if (audit) {
    // The children go with their parent in the parent's one entry (how many), not one entry each.
    const extra = cascaded
      .filter(({ count }) => count > 0)
      .map(({ child, count }) => ({ field: child.resource, label: `随之删除的${child.label}`, before: count }));
    await auditRecord(trx, audit, descriptor, 'delete', existing, undefined, extra);
  }
  await fullTextOnWrite(trx, dialect, descriptor, existing, undefined);
  if (hook) await hook(trx, existing, undefined);
  return true;
}

/** The largest value of a field over the table, 0 when it is empty (a 'last' create default). */
export async function maxValue({ db }: Db, descriptor: ResourceDescriptor, field: string): Promise<number> {
  const k = db as unknown as AnyDb;
  const row = (await k
    .selectFrom(descriptor.table)
    .select(sql<number | string | null>`max(${sql.ref(columnOf(descriptor, field))})`.as('value'))
    .executeTakeFirst()) as { value: number | string | null } | undefined;
  return Number(row?.value ?? 0);
}

/** Whether any row of the descriptor's table has `field = value` (used by the 409 rules). */
export async function anyRow(
  { db }: Db,
  descriptor: ResourceDescriptor,
  field: string,
  value: string | number,
): Promise<boolean> {
  const k = db as unknown as AnyDb;
  const row = await k
    .selectFrom(descriptor.table)
    .select('ID')
    .where(columnOf(descriptor, field), '=', value)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** How a daily entity keeps the counts of a counted one (incrementCounter's `daily`). */
export interface DailyCount {
  /**
   * One row per record and day: a reference to the counted entity and a day field, declared
   * `unique` together; each other field counts the counted entity's field of the same name.
   */
  readonly descriptor: ResourceDescriptor;
  /** The day of this count, 'YYYY-MM-DD' (the business day: schemas/businessTime.ts dayIn). */
  readonly day: string;
}

interface DailyShape {
  reference: Reference;
  dayField: string;
  counts: string[];
}

const dailyShapes = new Map<string, DailyShape>();

/** The fields of a daily entity, from its declaration: its reference to the counted entity, its day, its counts. */
function dailyShape(daily: ResourceDescriptor, counted: ResourceDescriptor): DailyShape {
  const key = `${daily.resource} ${counted.resource}`;
  let shape = dailyShapes.get(key);
  if (!shape) {
    const reference = daily.references?.find((r) => r.to === counted.resource);
    const pair = reference && daily.unique?.find((set) => set.length === 2 && set.includes(reference.field));
    if (!reference || !pair) throw new Error(`${daily.resource}: no reference to ${counted.resource} declared unique together with a day`);
    const dayField = pair.find((f) => f !== reference.field)!;
    const counts = storedFields(daily)
      .map((f) => f.field)
      .filter((f) => f !== 'Id' && f !== reference.field && f !== dayField);
    shape = { reference, dayField, counts };
    dailyShapes.set(key, shape);
  }
  return shape;
}

/**
 * Adds one to a counter in a single statement (never read-modify-write); undefined if no row.
 * With `daily`, adds one as well to the same field of the record's row of the day in the daily
 * entity, in the same transaction: both or neither. The day's row is made by its first count
 * (INSERT … ON CONFLICT on the unique pair DO UPDATE), so no count is lost to a race on it.
 */
export async function incrementCounter(
  { db }: Db,
  descriptor: ResourceDescriptor,
  id: number,
  field: string,
  daily?: DailyCount,
): Promise<number | undefined> {
  const k = db as unknown as AnyDb;
  if (!daily) return addToCounter(k, descriptor, id, field, undefined, 1);
  return k.transaction().execute((trx) => addToCounter(trx, descriptor, id, field, daily, 1));
}

/**
 * Adds `by` to a counter (and to its day's row with `daily`), within the caller's transaction when
 * `daily` is given: the counter's new value, undefined if no row. counterBatch.ts adds many counts at once.
 */
export async function addToCounter(
  trx: AnyDb,
  descriptor: ResourceDescriptor,
  id: number,
  field: string,
  daily: DailyCount | undefined,
  by: number,
): Promise<number | undefined> {
  const column = columnOf(descriptor, field);
  const increment = (returning: string[]) =>
    trx
      .updateTable(descriptor.table)
      .set({ [column]: sql`${sql.ref(column)} + ${by}` })
      .where('ID', '=', id)
      .returning(returning)
      .executeTakeFirst() as Promise<Row | undefined>;
  if (!daily) return (await increment([`${column} as value`]))?.value as number | undefined;

  const d = daily.descriptor;
  const { reference, dayField, counts } = dailyShape(d, descriptor);
  const count = columnOf(d, field);
  const referenceColumn = columnOf(d, reference.field);
  const dayColumn = columnOf(d, dayField);
  // The record first: on PostgreSQL its row stays locked to the end, which orders the counts of
  // one record and its deletion (deleteRow locks it first too), so no day's row outlives it.
  const counted = await increment([`${column} as value`, `${columnOf(descriptor, reference.toField)} as code`]);
  if (!counted) return undefined;
  const row = (await trx
    .insertInto(d.table)
    .values({ [referenceColumn]: counted.code, [dayColumn]: daily.day, [count]: by })
    .onConflict((oc) => oc.columns([referenceColumn, dayColumn]).doUpdateSet({ [count]: sql`${sql.ref(`${d.table}.${count}`)} + ${by}` }))
    .returning(selection(d))
    .executeTakeFirstOrThrow()) as Row;
  // A day's row starts at its first counts and grows by each count after: counts adding up to
  // exactly these mean that they made it, and the list totals (ROW_COUNT) take it in.
  if (counts.reduce((n, f) => n + Number(row[f]), 0) === by) await adjustCounts(trx, d, row, 1);
  return counted.value as number;
}
