// Opens the record store: one SQLite file in DATA_DIR (embedded default) or PostgreSQL when
// DATABASE_URL is set, behind one Kysely instance, and runs the migrations.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, type Migration, type MigrationProvider, Migrator } from 'kysely';
import pg from 'pg';
import { MIGRATIONS, type MigrationModule } from './migrations/index';
import type { Database } from './tables';
import { ChangeClock, ImmediateTransactionDialect, withStatementCache } from './sqliteFast';
import { oncePerTurn } from './versionedCache';

export type DialectName = 'sqlite' | 'postgres';

export interface Db {
  db: Kysely<Database>;
  dialect: DialectName;
  /**
   * A token that changes whenever committed data may have changed, here or in another process
   * (see VersionedCache for how to use it); undefined when caching is turned off.
   */
  dataVersion(): Promise<string | undefined>;
  close(): Promise<void>;
  /** What a cursor reads from (db/cursor.ts): the SQLite file, through a connection of its own, or the PostgreSQL pool. */
  readonly source?: { readonly sqliteFile: string } | { readonly pool: pg.Pool };
}

/** Busy timeout: a writer in another process holds the lock for at most a few ms; wait, do not fail. */
const SQLITE_BUSY_TIMEOUT_MS = 5000;

export function openSqlite(file: string): SQLite.Database {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL in WAL mode, kept on purpose: a commit is written to the WAL (the OS's cache) before
  // the answer, so a crash of the process (kill -9, OOM) loses nothing acknowledged, as
  // tests/faults/crash.test.ts checks; only an OS crash or power cut may roll back the last
  // transactions since the WAL was last synced at a checkpoint. The database is never corrupted
  // either way. FULL would close that window with an fsync per commit, which serialises writes on
  // the disk's flush latency; for a back office whose writes a person can redo, NORMAL's trade is
  // the right one (docs/security/faults.md). Point-in-time safety comes from npm run backup.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  return sqlite;
}

/** `migrate: false` skips the migrations: a cluster's workers, whose primary ran them (cluster.ts). */
export async function openDatabase(options: { dataDir: string; databaseUrl?: string; poolSize?: number; migrate?: boolean }): Promise<Db> {
  let result: Db;
  if (options.databaseUrl) {
    // Integers in our tables are int4, but COUNT(*) is int8: read int8 as a JS number.
    pg.types.setTypeParser(20, (v: string) => Number(v));
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // A dropped connection (server restart) must not crash the process; the pool reconnects.
    pool.on('error', () => {});
    // A connection lost while checked out between two statements emits 'error' on its client,
    // which no one listens to then: that would crash the process. The failed statement reports
    // the fault instead, and the pool drops the client on release (it is no longer queryable).
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    result = { db, dialect: 'postgres', dataVersion: oncePerTurn(() => snapshotVersion(db)), close: () => db.destroy(), source: { pool } };
  } else {
    const sqliteFile = path.join(options.dataDir, 'zhishi.sqlite');
    const sqlite = openSqlite(sqliteFile);
    const clock = new ChangeClock(sqlite);
    const db = new Kysely<Database>({ dialect: new ImmediateTransactionDialect(withStatementCache(sqlite, clock)) });
    result = { db, dialect: 'sqlite', dataVersion: oncePerTurn(() => Promise.resolve(clock.version())), close: () => db.destroy(), source: { sqliteFile } };
  }
  if (options.migrate !== false) await migrate(result);
  return result;
}

/**
 * PostgreSQL's change clock: the current snapshot (xmin:xmax:in-progress ids). What a statement sees
 * depends on its snapshot alone, and any committed write moves it (a writer gets an id, which raises
 * xmax, and leaves the in-progress list when it ends); reads don't. So an unchanged snapshot means
 * unchanged data, in every process on the cluster, without locks or triggers: one round trip.
 */
async function snapshotVersion(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ v: string }>`select pg_current_snapshot()::text as v`.execute(db);
  return rows[0]!.v;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on raw tables
type RawDb = Kysely<any>;

async function migrate({ db, dialect }: Db): Promise<void> {
  await runMigrations(db, dialect);
}

/**
 * Runs the migrations a database has not recorded yet, in name order. The registry
 * (migrations/index.ts) is written by `npm run db:generate`; names are the file names, as recorded
 * in Kysely's migration table. Others (a test's extra migration) may be given instead.
 */
export async function runMigrations(
  db: RawDb,
  dialect: DialectName,
  migrations: Readonly<Record<string, MigrationModule>> = MIGRATIONS,
): Promise<void> {
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const [name, mod] of Object.entries(migrations)) {
        out[name] = { up: (k) => mod.up(k, dialect) };
      }
      return out;
    },
  };
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`数据库迁移失败 (${failed?.migrationName ?? 'unknown'}): ${String(error)}`);
  }
}
