// Opens the record store: one SQLite file in DATA_DIR (embedded default) or PostgreSQL when
// DATABASE_URL is set, behind one Kysely instance, and runs the migrations.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type Migration, type MigrationProvider, Migrator } from 'kysely';
import pg from 'pg';
import * as m001 from './migrations/001_initial';
import * as m002 from './migrations/002_uploads';
import * as m003 from './migrations/003_row_counts';
import * as m005 from './migrations/005_member_disabled';
import type { Database } from './tables';

export type DialectName = 'sqlite' | 'postgres';

export interface Db {
  db: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
}

/** Busy timeout: a writer in another process holds the lock for at most a few ms; wait, do not fail. */
const SQLITE_BUSY_TIMEOUT_MS = 5000;

export function openSqlite(file: string): SQLite.Database {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL in WAL mode: a crash of the process loses nothing acknowledged; only an OS crash or
  // power cut may roll back the last transactions. The database is never corrupted either way.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  return sqlite;
}

export async function openDatabase(options: { dataDir: string; databaseUrl?: string; poolSize?: number }): Promise<Db> {
  let result: Db;
  if (options.databaseUrl) {
    // Integers in our tables are int4, but COUNT(*) is int8: read int8 as a JS number.
    pg.types.setTypeParser(20, (v: string) => Number(v));
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // A dropped connection (server restart) must not crash the process; the pool reconnects.
    pool.on('error', () => {});
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    result = { db, dialect: 'postgres', close: () => db.destroy() };
  } else {
    const sqlite = openSqlite(path.join(options.dataDir, 'zhishi.sqlite'));
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    result = { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  await migrate(result);
  return result;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on raw tables
type RawDb = Kysely<any>;
const MIGRATIONS: Record<string, { up(db: RawDb, dialect: DialectName): Promise<void> }> = {
  '001_initial': m001,
  '002_uploads': m002,
  '003_row_counts': m003,
  '005_member_disabled': m005,
};

async function migrate({ db, dialect }: Db): Promise<void> {
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const [name, mod] of Object.entries(MIGRATIONS)) {
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
