// Checks a database left by a fault: SQLite's own integrity check, and the kept totals of
// ROW_COUNT against the rows themselves (recounted in a transaction that is rolled back).
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { RESOURCES } from '../../schemas/index';
import { rebuildCounts } from '../../server/src/db/rowCounts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- raw tables
type AnyDb = Kysely<any>;

const ROLLBACK = new Error('rollback');

/** Kept totals that differ from a recount, as `TABLE key: kept ≠ counted` lines (empty when exact). */
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
