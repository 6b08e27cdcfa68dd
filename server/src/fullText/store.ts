// The index's tables (migration 011): the work queue, kept in step with every write of an indexed
// record in that write's own transaction (repository.ts calls `fullTextOnWrite`), and the pages.
import { sql, type Kysely } from 'kysely';
import type { ResourceDescriptor } from '../../../schemas/descriptor';
import type { DialectName } from '../db/database';
import type { Row } from '../db/row';
import { categoryFilter, filterFields, sourceFields, tagsOf, typeFilter } from './declared';
import { normText, spacedPairs, spacedText, tokenize, tsvectorLiteral, type Token } from './tokens';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the index's tables are not in tables.ts
export type AnyDb = Kysely<any>;

/** Tokens of one stored part of a page at most: PostgreSQL's positions end at 16,383. */
export const MAX_PAGE_TOKENS = 16_000;
/** Tokens a part repeats of the one before, so that a phrase (a query is at most 100 characters) is never cut. */
const OVERLAP_TOKENS = 120;

/** Queues a record for (re)indexing: a later change makes a claimed job's work stale (VERSION). */
export async function enqueue(db: AnyDb, table: string, recordId: number, now = new Date()): Promise<void> {
  await db
    .insertInto('FT_JOB')
    .values({ TBL: table, RECORD_ID: recordId, STATE: 'waiting', VERSION: 1, TRIES: 0, DUE_AT: now.toISOString() })
    .onConflict((oc) =>
      oc.columns(['TBL', 'RECORD_ID']).doUpdateSet({
        STATE: 'waiting',
        VERSION: sql`${sql.ref('FT_JOB.VERSION')} + 1`,
        TRIES: 0,
        DUE_AT: now.toISOString(),
        LEASE_UNTIL: null,
        ERROR: null,
      }),
    )
    .execute();
}

/** Removes a record's pages (and their FTS5 rows), what was read of its sources, and its queued work. */
export async function forgetRecord(db: AnyDb, dialect: DialectName, table: string, recordId: number, options: { keepJob?: boolean } = {}): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`delete from ${sql.table(`${table}_FTS`)} where rowid in (select -${sql.ref('ID')} from ${sql.table('FT_PAGE')} where ${sql.ref('TBL')} = ${table} and ${sql.ref('RECORD_ID')} = ${recordId})`.execute(
      db,
    );
  }
  await db.deleteFrom('FT_PAGE').where('TBL', '=', table).where('RECORD_ID', '=', recordId).execute();
  await db.deleteFrom('FT_SOURCE').where('TBL', '=', table).where('RECORD_ID', '=', recordId).execute();
  if (!options.keepJob) await db.deleteFrom('FT_JOB').where('TBL', '=', table).where('RECORD_ID', '=', recordId).execute();
}

const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

/**
 * Inside a write's transaction (repository.ts): a deleted record's pages go with it, so that no
 * search returns it once the delete commits; a new record, or a change of its files or rich text,
 * queues it for the indexer; a move to another type or category is copied onto its pages at once
 * (the search filters by those copies inside the index).
 */
export async function fullTextOnWrite(trx: AnyDb, dialect: DialectName, descriptor: ResourceDescriptor, before: Row | undefined, after: Row | undefined): Promise<void> {
  if (!descriptor.fullText) return;
  const id = Number((after ?? before)?.Id);
  if (!Number.isFinite(id)) return;
  if (!after) return forgetRecord(trx, dialect, descriptor.table, id);
  if (!before || sourceFields(descriptor).some((f) => !same(before[f], after[f]))) await enqueue(trx, descriptor.table, id);
  if (before && filterFields(descriptor).some((f) => !same(before[f], after[f]))) await moveRecord(trx, dialect, descriptor, id, after);
}

/** A record's pages take its new type and category: the FT_PAGE copies, and on SQLite the FTS5 rows' tags. */
async function moveRecord(db: AnyDb, dialect: DialectName, descriptor: ResourceDescriptor, id: number, row: Row): Promise<void> {
  const type = typeFilter(descriptor);
  const category = categoryFilter(descriptor)?.field;
  await db
    .updateTable('FT_PAGE')
    .set({ TYPE: type ? (row[type] ?? null) : null, SC_CODE: category ? (row[category] ?? null) : null })
    .where('TBL', '=', descriptor.table)
    .where('RECORD_ID', '=', id)
    .execute();
  if (dialect !== 'sqlite') return;
  // FTS5 rows are rewritten whole (a contentless table keeps no text): the pages' tokens again.
  const fts = `${descriptor.table}_FTS`;
  const pages = (await db.selectFrom('FT_PAGE').select(['ID', 'TEXT']).where('TBL', '=', descriptor.table).where('RECORD_ID', '=', id).execute()) as { ID: number; TEXT: string }[];
  const tags = tagsOf(descriptor, row);
  for (const page of pages) {
    await sql`delete from ${sql.table(fts)} where rowid = ${-page.ID}`.execute(db);
    const tokens = tokenize(page.TEXT);
    await sql`insert into ${sql.table(fts)} (rowid, BODY, PAIRS, TAG) values (${-page.ID}, ${spacedText(tokens)}, ${spacedPairs(tokens)}, ${tags})`.execute(db);
  }
}

export interface PageText {
  source: string;
  fileName: string;
  fileUrl: string;
  /** 1-based page of a paged file; 0 for a source without pages. */
  page: number;
  text: string;
}

interface Part extends PageText {
  tokens: Token[];
}

/** A page cut into parts of at most MAX_PAGE_TOKENS tokens, each overlapping the one before. */
function partsOf(page: PageText): Part[] {
  const tokens = tokenize(page.text);
  if (tokens.length <= MAX_PAGE_TOKENS) return [{ ...page, tokens }];
  const parts: Part[] = [];
  for (let from = 0; from < tokens.length; from += MAX_PAGE_TOKENS - OVERLAP_TOKENS) {
    const slice = tokens.slice(from, from + MAX_PAGE_TOKENS);
    const start = slice[0]!.start;
    const end = slice.at(-1)!.end;
    parts.push({ ...page, text: page.text.slice(start, end), tokens: slice.map((t) => ({ ...t, start: t.start - start, end: t.end - start })) });
    if (from + MAX_PAGE_TOKENS >= tokens.length) break;
  }
  return parts;
}

/** Rows of a PostgreSQL insert at once. */
const PG_BATCH = 200;

/**
 * Writes a record's pages: FT_PAGE rows with the record's type and category, and the index (an
 * FTS5 row per page on SQLite, the tsvector on PostgreSQL). The caller has removed the old ones.
 */
export async function insertPages(db: AnyDb, dialect: DialectName, descriptor: ResourceDescriptor, record: Row, recordId: number, pages: readonly PageText[], filters: { type: unknown; category: unknown }): Promise<number> {
  const table = descriptor.table;
  const parts = pages.flatMap(partsOf).filter((p) => p.tokens.length > 0);
  const base = (p: Part) => ({
    TBL: table,
    RECORD_ID: recordId,
    SOURCE: p.source,
    FILE_NAME: p.fileName,
    FILE_URL: p.fileUrl,
    PAGE: p.page,
    TYPE: filters.type ?? null,
    SC_CODE: filters.category ?? null,
    TEXT: p.text,
    // The phrase's check and count in the database (tokens.ts, normText).
    NORM: normText(p.tokens),
  });
  if (dialect === 'postgres') {
    for (let i = 0; i < parts.length; i += PG_BATCH) {
      const batch = parts.slice(i, i + PG_BATCH);
      await db
        .insertInto('FT_PAGE')
        .values(batch.map((p) => ({ ...base(p), TSV: sql`${tsvectorLiteral(p.tokens)}::tsvector` })))
        .execute();
    }
    return parts.length;
  }
  const tags = tagsOf(descriptor, record);
  for (const p of parts) {
    const { ID } = (await db.insertInto('FT_PAGE').values(base(p)).returning('ID').executeTakeFirstOrThrow()) as { ID: number };
    // The FTS5 rowid is minus the page's ID: FTS5 reads its rows fastest in rising rowid order, which is then newest first.
    await sql`insert into ${sql.table(`${table}_FTS`)} (rowid, BODY, PAIRS, TAG) values (${-ID}, ${spacedText(p.tokens)}, ${spacedPairs(p.tokens)}, ${tags})`.execute(db);
  }
  return parts.length;
}

/**
 * After many pages are written at once (npm run reindex): SQLite merges each FTS5 index into one
 * segment (fewer to read per query); PostgreSQL moves the GIN index's pending entries into it and
 * refreshes the planner's statistics. Either may take a while on a large index; searches go on.
 */
export async function optimizeIndex(db: AnyDb, dialect: DialectName, tables: readonly string[]): Promise<void> {
  if (dialect === 'postgres') {
    await sql`vacuum analyze "FT_PAGE"`.execute(db);
    return;
  }
  for (const table of tables) {
    const fts = `${table}_FTS`;
    await sql`insert into ${sql.table(fts)} (${sql.ref(fts)}) values ('optimize')`.execute(db);
  }
}
