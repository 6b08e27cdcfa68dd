// Three additions to Kysely's SQLite dialect: two for the hot read path, one for writes.
// - Transactions begin IMMEDIATE: a transaction reads before it writes (a quota checked, a row
//   read before it is changed); begun deferred, its read snapshot cannot become a write once
//   another process has committed since, and SQLite fails it at once with SQLITE_BUSY whatever the
//   busy timeout. Taking the write lock first makes it wait its turn instead (the timeout applies).
// - Prepared statements are kept by SQL text: SQLite parses a statement once, not on every call
//   (Kysely's driver prepares afresh each time, a third of a small query's cost).
// - A change clock: a token that moves whenever committed data may have changed, through this
//   connection (any statement SQLite does not call read-only) or another one, in this process or
//   another (SQLite's `data_version`). An answer cached under a token is exact while the token is
//   unchanged.
import type SQLite from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDatabase } from 'kysely';

/** Distinct statement texts are few (they come from descriptors); the bound keeps odd ones from piling up. */
const MAX_STATEMENTS = 1000;

/**
 * The database object Kysely's SqliteDialect uses, with statements kept. Kysely runs one query at a
 * time on the connection and reads results with `all()`/`run()`, so sharing a statement is safe;
 * streaming (`iterate()`) over a shared statement would not be, and is not used here.
 */
export function withStatementCache(sqlite: SQLite.Database, clock?: ChangeClock): SqliteDatabase {
  const statements = new LRUCache<string, SQLite.Statement>({ max: MAX_STATEMENTS });
  return {
    // Kysely's driver prepares each query right before it runs it.
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      clock?.aboutToRun(statement);
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}

/** Counts this connection's writes as they are about to run, and reads SQLite's data_version. */
export class ChangeClock {
  #localWrites = 0;
  readonly #dataVersion: SQLite.Statement;

  constructor(sqlite: SQLite.Database) {
    this.#dataVersion = sqlite.prepare('pragma data_version').pluck();
  }

  /**
   * A statement that may change the database moves the clock; SQLite itself says which
   * (`sqlite3_stmt_readonly`), so a read written as raw SQL (a search, a recursive category
   * query) empties no cache. A transaction's BEGIN IMMEDIATE counts as a write: it takes the lock.
   */
  aboutToRun(statement: SQLite.Statement): void {
    if (!statement.readonly) this.#localWrites++;
  }

  /**
   * Read before the data it labels: a reader that then queries sees data at least this new, so an
   * answer stored under the token is never older than the token says. (A write bumps the count
   * before it runs; readers queue behind it on the one connection.)
   */
  version(): string {
    return `${String(this.#dataVersion.get())}:${this.#localWrites}`;
  }
}

/** Kysely's SQLite driver, with transactions that take the write lock when they begin. */
class ImmediateTransactionDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/** Kysely's SQLite dialect whose transactions begin IMMEDIATE (see the top of this file). */
export class ImmediateTransactionDialect extends SqliteDialect {
  readonly #database: SqliteDatabase;

  constructor(database: SqliteDatabase) {
    super({ database });
    this.#database = database;
  }

  override createDriver(): Driver {
    return new ImmediateTransactionDriver({ database: this.#database });
  }
}
