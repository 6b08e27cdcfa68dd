// Reads the rows of a query a batch at a time, never holding them all: an export (导出) of a list
// of a million rows. SQLite: a read-only connection of its own, whose statement steps through the
// rows (better-sqlite3's `iterate`); the app's own connection stays free for every other call
// meanwhile (a connection that iterates can run nothing else). PostgreSQL: a server-side cursor
// (DECLARE / FETCH) in a read-only transaction on a connection of the pool.
// Stopping the loop early (a client gone) closes the statement or the cursor and frees the connection.
import SQLite from 'better-sqlite3';
import type { CompiledQuery } from 'kysely';
import type { Db } from './database';
import type { Row } from './row';

/** How long a read waits for a writer's lock (as the app's own connection does). */
const BUSY_TIMEOUT_MS = 5000;

export async function* rowBatches(database: Db, query: CompiledQuery, size: number): AsyncGenerator<Row[], void, undefined> {
  const source = database.source;
  if (!source) throw new Error('this database has no cursor source');
  if ('sqliteFile' in source) {
    const sqlite = new SQLite(source.sqliteFile, { readonly: true, fileMustExist: true });
    try {
      sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      // One statement reads one snapshot (WAL): a write meanwhile is neither seen nor blocked.
      const rows = sqlite.prepare(query.sql).iterate(...(query.parameters as unknown[])) as IterableIterator<Row>;
      let batch: Row[] = [];
      for (const row of rows) {
        batch.push(row);
        if (batch.length >= size) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    } finally {
      sqlite.close();
    }
    return;
  }
  const client = await source.pool.connect();
  let ended = false;
  let broken = false;
  try {
    await client.query('begin transaction read only');
    // The cursor's query is the list's own, its values bound parameters as everywhere else.
    await client.query(`declare export_rows no scroll cursor for ${query.sql}`, query.parameters as unknown[]);
    for (;;) {
      const { rows } = await client.query<Row>(`fetch forward ${Math.trunc(size)} from export_rows`);
      if (rows.length > 0) yield rows;
      if (rows.length < size) break;
    }
    await client.query('commit');
    ended = true;
  } catch (error) {
    broken = true;
    throw error;
  } finally {
    // Stopped early or failed: the rollback closes the cursor; a connection that cannot is dropped.
    if (!ended) await client.query('rollback').catch(() => (broken = true));
    client.release(broken);
  }
}
