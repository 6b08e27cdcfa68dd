// Multipart uploads in progress: only uploads this server started, by the member who started them,
// may be signed, listed, completed or aborted. A row lives from CreateMultipartUpload until the
// upload is completed or aborted. Migrations never import app code.
import type { Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on raw tables
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('UPLOAD')
    .ifNotExists()
    // S3 upload ids are long opaque strings; local ones are UUIDs.
    .addColumn('UPLOAD_ID', 'text', (c) => c.primaryKey())
    .addColumn('KEY', 'text', (c) => c.notNull().unique())
    .addColumn('KIND', 'text', (c) => c.notNull())
    .addColumn('TITLE', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('SIZE', 'bigint', (c) => c.notNull())
    .addColumn('PART_SIZE', 'bigint', (c) => c.notNull())
    .addColumn('CONTENT_TYPE', 'text', (c) => c.notNull())
    .addColumn('AU_CODE', 'text', (c) => c.notNull().references('MEMBER.AU_CODE').onDelete('cascade'))
    .addColumn('CREATED_AT', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('UPLOAD_CREATED_AT').ifNotExists().on('UPLOAD').column('CREATED_AT').execute();
}
