// The audit log (操作日志): one row per successful write by a member, written in the write's own
// transaction. The member is kept as text (code and name), not as a foreign key, so that the
// entries outlive the member. Rows are only ever inserted. Migrations never import app code.
import type { Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on raw tables
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('AUDIT_LOG')
    .ifNotExists()
    .addColumn('ID', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
      dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    // ISO 8601 in UTC (toISOString): text order is time order on both databases.
    .addColumn('AT', 'text', (c) => c.notNull())
    .addColumn('AU_CODE', 'text', (c) => c.notNull())
    .addColumn('AU_NAME', 'text', (c) => c.notNull())
    .addColumn('ACTION', 'text', (c) => c.notNull())
    .addColumn('RESOURCE', 'text', (c) => c.notNull())
    .addColumn('RECORD_ID', 'integer')
    .addColumn('RECORD_CODE', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('RECORD_NAME', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('CHANGES', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  // Newest first (AT DESC, ID DESC), on its own and within one resource or one member.
  await db.schema.createIndex('AUDIT_LOG_ORDER').ifNotExists().on('AUDIT_LOG').columns(['AT', 'ID']).execute();
  await db.schema
    .createIndex('AUDIT_LOG_RESOURCE_ORDER')
    .ifNotExists()
    .on('AUDIT_LOG')
    .columns(['RESOURCE', 'AT', 'ID'])
    .execute();
  await db.schema
    .createIndex('AUDIT_LOG_MEMBER_ORDER')
    .ifNotExists()
    .on('AUDIT_LOG')
    .columns(['AU_CODE', 'AT', 'ID'])
    .execute();
}
