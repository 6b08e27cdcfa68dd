// The full-text index of the documents (server/src/fullText/, docs/fullText.md), written by hand:
// - FT_JOB: work waiting for the indexer, one row per record to (re)index, written in the same
//   transaction as the change that calls for it; STATE 'waiting' or 'running' (claimed by a worker
//   until LEASE_UNTIL; a worker that died leaves it to be claimed again). VERSION grows with each
//   change, so that a worker never stores the text of a record as it was before a later change.
// - FT_SOURCE: what was read of each record's sources (a file, a rich-text field): 'indexed' with its
//   pages, or 'failed' with the reason, for the administrators' screen.
// - FT_PAGE: one row per (record, source, page) of normalised text, with the record's document type
//   and category copied for the search's filters. A long page is cut into parts of one PAGE number.
// - The index itself: on SQLite an FTS5 table per indexed entity table (contentless: the text is
//   FT_PAGE's; its rowid minus FT_PAGE.ID; BODY the tokens, TAG the type and category), on PostgreSQL a tsvector column of
//   FT_PAGE with a GIN index, and a b-tree to read the newest pages of an entity table first.
// Migrations never import app code: the entity tables are named here.
import { sql, type Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/** The tables of the entities whose descriptors declare `fullText` (schemas/standardArticle.ts). */
const INDEXED_TABLES = ['DOC_ARTICLE', 'TYKJ_ARTICLE'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on raw tables
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const id = dialect === 'postgres' ? 'bigserial' : 'integer';
  await db.schema
    .createTable('FT_JOB')
    .ifNotExists()
    .addColumn('ID', id, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('TBL', 'text', (c) => c.notNull())
    .addColumn('RECORD_ID', 'integer', (c) => c.notNull())
    .addColumn('STATE', 'text', (c) => c.notNull().defaultTo('waiting'))
    .addColumn('VERSION', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('TRIES', 'integer', (c) => c.notNull().defaultTo(0))
    // ISO 8601 in UTC: text order is time order on both databases.
    .addColumn('DUE_AT', 'text', (c) => c.notNull())
    .addColumn('LEASE_UNTIL', 'text')
    .addColumn('ERROR', 'text')
    .execute();
  await db.schema.createIndex('FT_JOB_RECORD').ifNotExists().unique().on('FT_JOB').columns(['TBL', 'RECORD_ID']).execute();
  await db.schema.createIndex('FT_JOB_DUE').ifNotExists().on('FT_JOB').columns(['STATE', 'DUE_AT']).execute();

  await db.schema
    .createTable('FT_SOURCE')
    .ifNotExists()
    .addColumn('ID', id, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('TBL', 'text', (c) => c.notNull())
    .addColumn('RECORD_ID', 'integer', (c) => c.notNull())
    .addColumn('SOURCE', 'text', (c) => c.notNull())
    .addColumn('FILE_NAME', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('FILE_URL', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('STATE', 'text', (c) => c.notNull())
    .addColumn('PAGES', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('REASON', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('UPDATED_AT', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('FT_SOURCE_RECORD').ifNotExists().on('FT_SOURCE').columns(['TBL', 'RECORD_ID']).execute();
  await db.schema.createIndex('FT_SOURCE_STATE').ifNotExists().on('FT_SOURCE').columns(['STATE', 'UPDATED_AT']).execute();

  let page = db.schema
    .createTable('FT_PAGE')
    .ifNotExists()
    .addColumn('ID', id, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('TBL', 'text', (c) => c.notNull())
    .addColumn('RECORD_ID', 'integer', (c) => c.notNull())
    .addColumn('SOURCE', 'text', (c) => c.notNull())
    .addColumn('FILE_NAME', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('FILE_URL', 'text', (c) => c.notNull().defaultTo(''))
    // 0 for a source without pages (a rich-text body, a text file).
    .addColumn('PAGE', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('TYPE', 'integer')
    .addColumn('SC_CODE', 'text')
    .addColumn('TEXT', 'text', (c) => c.notNull());
  if (dialect === 'postgres') page = page.addColumn('TSV', sql`tsvector`, (c) => c.notNull());
  await page.execute();
  await db.schema.createIndex('FT_PAGE_RECORD').ifNotExists().on('FT_PAGE').columns(['TBL', 'RECORD_ID']).execute();

  if (dialect === 'postgres') {
    await sql`create index if not exists "FT_PAGE_TSV" on "FT_PAGE" using gin ("TSV")`.execute(db);
    // The newest pages of a table (of a type) first: a common word is found within the first rows.
    await db.schema.createIndex('FT_PAGE_NEWEST').ifNotExists().on('FT_PAGE').columns(['TBL', 'ID']).execute();
    await db.schema.createIndex('FT_PAGE_NEWEST_TYPE').ifNotExists().on('FT_PAGE').columns(['TBL', 'TYPE', 'ID']).execute();
  } else {
    for (const table of INDEXED_TABLES) {
      // Contentless (the text is FT_PAGE's), rows deletable by rowid (minus FT_PAGE.ID); the tokens come
      // spaced from server/src/fullText/tokens.ts, which unicode61 keeps as they are.
      await sql`create virtual table if not exists ${sql.table(`${table}_FTS`)} using fts5(BODY, TAG, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0')`.execute(
        db,
      );
    }
  }
}
