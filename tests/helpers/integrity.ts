// Checks a database left by a fault: SQLite's own integrity check, the kept totals of ROW_COUNT
// against the rows themselves (recounted in a transaction that is rolled back), and the daily
// figures against the counters they are written with (one transaction each).
import SQLite from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import { RESOURCES, toColumn } from '../../schemas/index';
import { rebuildCounts } from '../../server/src/db/rowCounts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- raw tables
type AnyDb = Kysely<any>;

const ROLLBACK = new Error('rollback');

/**
 * Kept totals that differ from a recount, as `TABLE key: kept ≠ counted` lines, and daily figures
 * that differ from their counters (dailyMismatches); empty when exact.
 */
export async function countMismatches(db: AnyDb): Promise<string[]> {
  const read = async (k: AnyDb) => {
    const rows = (await k.selectFrom('ROW_COUNT').selectAll().execute()) as { TABLE_NAME: string; FILTER_KEY: string; ROW_COUNT: number | string }[];
    // A count that dropped to zero may stay as a row; a recount has no row for it.
    return new Map(rows.filter((r) => Number(r.ROW_COUNT) !== 0).map((r) => [`${r.TABLE_NAME} ${r.FILTER_KEY}`, Number(r.ROW_COUNT)]));
  };
  const kept = await read(db);
  let counted = new Map<string, number>();
  await db
    .transaction()
    .execute(async (trx) => {
      for (const d of RESOURCES) await rebuildCounts(trx, d);
      counted = await read(trx as unknown as AnyDb);
      throw ROLLBACK;
    })
    .catch((err: unknown) => {
      if (err !== ROLLBACK) throw err;
    });
  const out: string[] = [];
  for (const key of new Set([...kept.keys(), ...counted.keys()])) {
    if (kept.get(key) !== counted.get(key)) out.push(`${key}: kept ${kept.get(key) ?? 0} ≠ counted ${counted.get(key) ?? 0}`);
  }
  return [...out, ...(await dailyMismatches(db))];
}

/**
 * Records whose counters differ from the sum of their daily rows, as `VIDEO v1 VD_NUM: counter 5 ≠
 * days 4` lines. A daily entity declares a reference unique together with its day; each of its
 * other fields counts the referenced record's field of the same name.
 */
export async function dailyMismatches(db: AnyDb): Promise<string[]> {
  const out: string[] = [];
  for (const d of RESOURCES) {
    for (const r of d.references ?? []) {
      const pair = d.unique?.find((set) => set.length === 2 && set.includes(r.field));
      const target = RESOURCES.find((t) => t.resource === r.to);
      if (!pair || !target) continue;
      const counts = Object.keys(d.schema.properties).filter((f) => f !== 'Id' && !pair.includes(f) && f in target.schema.properties);
      const code = sql.ref(`t.${toColumn(r.toField)}`);
      const { rows } = await sql<Record<string, string | number>>`
        select ${code} as code, ${sql.join(counts.map((f) => sql`${sql.ref(`t.${toColumn(f)}`)} as ${sql.ref(`c_${f}`)}, coalesce(sum(${sql.ref(`d.${toColumn(f)}`)}), 0) as ${sql.ref(`d_${f}`)}`))}
        from ${sql.table(target.table)} t left join ${sql.table(d.table)} d on ${sql.ref(`d.${toColumn(r.field)}`)} = ${code}
        group by ${code}, ${sql.join(counts.map((f) => sql.ref(`t.${toColumn(f)}`)))}`.execute(db);
      for (const row of rows) {
        for (const f of counts) {
          if (Number(row[`c_${f}`]) !== Number(row[`d_${f}`])) out.push(`${target.table} ${row.code} ${toColumn(f)}: counter ${row[`c_${f}`]} ≠ days ${row[`d_${f}`]}`);
        }
      }
    }
  }
  return out;
}

export interface SqliteCheck {
  integrity: string;
  mismatches: string[];
}

/** Opens the file as a new process would after a crash (recovering its WAL), and checks it. */
export async function checkSqliteFile(file: string): Promise<SqliteCheck> {
  const sqlite = new SQLite(file);
  try {
    const integrity = (sqlite.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
    const db: AnyDb = new Kysely({ dialect: new SqliteDialect({ database: sqlite }) });
    const mismatches = await countMismatches(db);
    return { integrity, mismatches };
  } finally {
    sqlite.close();
  }
}
