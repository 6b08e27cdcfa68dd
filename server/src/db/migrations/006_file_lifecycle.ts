// Stored files that do not outlive their records (server/src/files/lifecycle.ts):
// - FILE_GC: keys that may have lost their last record, removed by the sweeper once no record
//   points at them any more. A row is written in the same transaction as the change that drops a
//   file (or as the signing of an upload, due a day later), so a crash after the commit only delays
//   the removal. STATE 'queued' (to decide), 'removing' (decided, storage removal pending or
//   failing: retried), 'removed' (a tombstone kept a few days, so that no record may point at the
//   key again).
// - UPLOAD_LOG: every upload the server signed or started, by member, for the daily upload quota.
// Both start empty: existing data is untouched (files stored before are adopted as candidates at
// the next start, see adoptExistingFiles). Migrations never import app code.
import type { Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on raw tables
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('FILE_GC')
    .ifNotExists()
    .addColumn('KEY', 'text', (c) => c.primaryKey())
    .addColumn('STATE', 'text', (c) => c.notNull().defaultTo('queued'))
    // ISO 8601 in UTC: text order is time order on both databases.
    .addColumn('DUE_AT', 'text', (c) => c.notNull())
    .addColumn('TRIES', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('FILE_GC_DUE').ifNotExists().on('FILE_GC').columns(['DUE_AT']).execute();

  await db.schema
    .createTable('UPLOAD_LOG')
    .ifNotExists()
    .addColumn('KEY', 'text', (c) => c.primaryKey())
    // Text, not a foreign key: the quota's history does not hold a member back from deletion.
    .addColumn('AU_CODE', 'text', (c) => c.notNull())
    .addColumn('SIZE', 'bigint', (c) => c.notNull())
    .addColumn('CREATED_AT', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('UPLOAD_LOG_MEMBER').ifNotExists().on('UPLOAD_LOG').columns(['AU_CODE', 'CREATED_AT']).execute();
  await db.schema.createIndex('UPLOAD_LOG_CREATED').ifNotExists().on('UPLOAD_LOG').columns(['CREATED_AT']).execute();
}
