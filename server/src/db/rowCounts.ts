// Exact totals for the lists without counting rows: ROW_COUNT holds, per table, one count for every
// combination of the descriptor's filter columns that occurs (`VDT_CODE=abc`, `SC_CODE=x|TYPE=1`,
// '' for all rows). The repository adjusts them in the same transaction as each insert, delete or
// change of a filter column, so they never drift; a list's total is then one primary-key read.
import { sql, type Kysely, type Transaction } from 'kysely';
import { toColumn, type ResourceDescriptor } from '../../../schemas/descriptor';
import type { Row } from './row';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are chosen by descriptor at run time
type AnyDb = Kysely<any> | Transaction<any>;

/** Only plain values make keys: anything else is counted the slow way (and can never collide). */
const PLAIN_VALUE = /^[A-Za-z0-9_-]{0,64}$/;

/** The filter column sets a resource's totals are kept for: every subset of its filters. */
export function countedSets(descriptor: ResourceDescriptor): string[][] {
  if (descriptor.module === 'admin') return [];
  const fields = [...descriptor.filters];
  const sets: string[][] = [];
  for (let mask = 0; mask < 1 << fields.length; mask++) {
    sets.push(fields.filter((_, i) => mask & (1 << i)));
  }
  return sets;
}

function keyOf(fields: readonly string[], values: Record<string, unknown>): string | undefined {
  const parts: string[] = [];
  for (const field of fields) {
    const value = String(values[field]);
    if (!PLAIN_VALUE.test(value)) return undefined;
    parts.push(`${toColumn(field)}=${value}`);
  }
  return parts.join('|');
}

/** Adds `delta` for each row to every count the row belongs to, one statement per count. */
export async function adjustCounts(db: AnyDb, descriptor: ResourceDescriptor, rows: Row | Row[], delta: number): Promise<void> {
  const byKey = new Map<string, number>();
  for (const row of Array.isArray(rows) ? rows : [rows]) {
    for (const fields of countedSets(descriptor)) {
      const key = keyOf(fields, row);
      if (key !== undefined) byKey.set(key, (byKey.get(key) ?? 0) + delta);
    }
  }
  for (const [key, change] of byKey) {
    await db
      .insertInto('ROW_COUNT')
      .values({ TABLE_NAME: descriptor.table, FILTER_KEY: key, ROW_COUNT: change })
      .onConflict((oc) =>
        oc.columns(['TABLE_NAME', 'FILTER_KEY']).doUpdateSet({ ROW_COUNT: sql`${sql.ref('ROW_COUNT.ROW_COUNT')} + ${change}` }),
      )
      .execute();
  }
}

/** The kept total for these equality filters, or undefined when it is not kept (count instead). */
export async function keptCount(
  db: AnyDb,
  descriptor: ResourceDescriptor,
  equals: Record<string, string | number>,
): Promise<number | undefined> {
  const fields = descriptor.filters.filter((f) => f in equals);
  if (fields.length !== Object.keys(equals).length) return undefined;
  if (descriptor.module === 'admin') return undefined;
  const key = keyOf(fields, equals);
  if (key === undefined) return undefined;
  const row = (await db
    .selectFrom('ROW_COUNT')
    .select('ROW_COUNT')
    .where('TABLE_NAME', '=', descriptor.table)
    .where('FILTER_KEY', '=', key)
    .executeTakeFirst()) as { ROW_COUNT: number | string } | undefined;
  // No row: no stored record has these values.
  return row ? Number(row.ROW_COUNT) : 0;
}

/** Recounts a table from its rows (after a bulk load that bypassed the repository). */
export async function rebuildCounts(db: AnyDb, descriptor: ResourceDescriptor): Promise<void> {
  await db.deleteFrom('ROW_COUNT').where('TABLE_NAME', '=', descriptor.table).execute();
  for (const fields of countedSets(descriptor)) {
    const columns = fields.map(toColumn);
    const key =
      columns.length === 0
        ? sql<string>`''`
        : sql<string>`${sql.join(
            columns.map((c, i) => sql`${sql.lit(`${i > 0 ? '|' : ''}${c}=`)} || cast(${sql.ref(c)} as text)`),
            sql` || `,
          )}`;
    const groupBy = columns.length === 0 ? sql`` : sql`group by ${sql.join(columns.map((c) => sql.ref(c)))}`;
    await sql`insert into ${sql.table('ROW_COUNT')} (${sql.ref('TABLE_NAME')}, ${sql.ref('FILTER_KEY')}, ${sql.ref('ROW_COUNT')})
      select ${descriptor.table}, ${key}, count(*) from ${sql.table(descriptor.table)} ${groupBy}`.execute(db);
  }
}
