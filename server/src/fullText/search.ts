// The search (docs/fullText.md): the query's phrase of tokens (tokens.ts) against the index, with
// the record's filters (document type, category and everything under it) inside the query, and the
// same answer on SQLite and PostgreSQL.
//
// Bounded work, whatever the word: the matching pages are found newest first (FT_PAGE.ID, the order
// pages were indexed in) and no further than COUNT_CAP + 1, so `total` is exact up to 1000 and
// `totalCapped` says "1000+". Of those, the RANK_POOL newest are ranked (rank()) from what the
// database counts of the phrase on each page's NORM, the same on both databases; the rest follow
// newest first. A rarer word (at most RANK_POOL pages) is thus ranked over all its pages. Only the
// pages shown are read whole, for their snippets.
import { sql, type RawBuilder } from 'kysely';
import { toColumn, type FullTextSource, type ResourceDescriptor } from '../../../schemas/descriptor';
import { FULL_TEXT_COUNT_CAP, type FullTextHit } from '../../../schemas/fullText';
import type { Db } from '../db/database';
import { categoryFilter, categoryTag, typeFilter, typeTag } from './declared';
import type { AnyDb } from './store';
import { ftsMatch, normText, pairLexemes, phraseHits, queryTokens, snippetOf, tsqueryAll, tsqueryLiteral } from './tokens';

/** Matching pages counted at most: past it the total is "1000+". */
export const COUNT_CAP = FULL_TEXT_COUNT_CAP;
/** The newest matching pages ranked by relevance. */
export const RANK_POOL = 200;
/** A category's subtree up to this many categories is also a filter of the FTS5 query itself. */
const TAGGED_CATEGORIES = 64;
/**
 * BM25's constants, and the average length of a page's NORM it normalises by, in bytes: lengths are
 * read as bytes (UTF-8: a Han character is 3), which both databases know without reading the text
 * character by character; on SQLite that was half the cost of ranking the pool.
 */
const K1 = 1.2;
const B = 0.75;
const AVERAGE_NORM_BYTES = 2400;
/** A result whose record's name holds the words comes first among equals. */
const NAME_BONUS = 1;

export interface SearchQuery {
  text: string;
  /** The document type, when given. */
  type?: string | number;
  /** A category: it and everything under it. */
  category?: string;
  pageIndex: number;
  pageSize: number;
}

/** A hit as the wire carries it (schemas/fullText.ts, which the screens read too). */
export type SearchResult = FullTextHit;

/** The codes of a category and of every category under it (its tree's table). */
async function subtree(db: AnyDb, descriptor: ResourceDescriptor, code: string): Promise<string[]> {
  const tree = categoryFilter(descriptor)!.tree;
  const { rows } = await sql<{ code: string }>`
    with recursive sub(code) as (
      select ${code}
      union
      select t.${sql.ref(tree.codeColumn)} from ${sql.table(tree.table)} t join sub on t.${sql.ref(tree.parentColumn)} = sub.code
    )
    select code from sub`.execute(db);
  return rows.map((r) => r.code);
}

/** The record's fields a result carries: its Id, code, name and those the screens show of it. */
function recordFields(descriptor: ResourceDescriptor): string[] {
  const wanted = [descriptor.codeField, descriptor.nameField, ...descriptor.searchFields, ...descriptor.filters];
  return [...new Set(wanted.filter((f): f is string => !!f && f in descriptor.schema.properties))];
}

const groupKey = (c: { RECORD_ID: number; SOURCE: string; FILE_URL: string; PAGE: number }) => `${c.RECORD_ID}\n${c.SOURCE}\n${c.FILE_URL}\n${c.PAGE}`;

export async function searchFullText(database: Db, descriptor: ResourceDescriptor, query: SearchQuery): Promise<{ rows: SearchResult[]; total: number; totalCapped: boolean }> {
  const phrase = queryTokens(query.text);
  if (phrase.length === 0) return { rows: [], total: 0, totalCapped: false };
  const db = database.db as unknown as AnyDb;
  const table = descriptor.table;
  const typeField = typeFilter(descriptor);
  const category = categoryFilter(descriptor);
  const type = typeField !== undefined && query.type !== undefined && query.type !== '' ? query.type : undefined;
  const codes = category && query.category && query.category !== category.tree.root ? await subtree(db, descriptor, query.category) : undefined;
  if (codes && codes.length === 0) return { rows: [], total: 0, totalCapped: false };
  const norm = normText(phrase);

  // The pages as far as the page shown reaches (the pool at least), newest first, and how many
  // match up to COUNT_CAP + 1.
  const from = (query.pageIndex - 1) * query.pageSize;
  const wanted = Math.min(COUNT_CAP, Math.max(RANK_POOL, from + query.pageSize));
  let ids: number[];
  let matching: number;
  if (database.dialect === 'sqlite') {
    const tagged = !codes || codes.length <= TAGGED_CATEGORIES;
    const match = ftsMatch(phrase, {
      ...(type !== undefined ? { all: [typeTag(type)] } : {}),
      ...(codes && tagged ? { any: codes.map(categoryTag) } : {}),
    });
    const fts = sql.table(`${table}_FTS`);
    // The index alone, its filters inside the match, read newest first (rising FTS5 rowid: minus
    // the page's ID) and stopped at the limit. A category of very many categories is checked on
    // the pages' copies instead. The count goes on from there in the index, without making rows.
    const matches = (select: RawBuilder<unknown>, limit: number, afterRowid = -Infinity) => {
      const after = Number.isFinite(afterRowid) ? sql` and f.rowid > ${afterRowid}` : sql``;
      return tagged
        ? sql`select ${select} from ${fts} f where f.${fts} match ${match}${after} order by f.rowid limit ${limit}`
        : sql`select ${select} from ${fts} f cross join "FT_PAGE" p on p."ID" = -f.rowid
            where f.${fts} match ${match} and p."SC_CODE" in (${sql.join(codes!)})${after}
            order by f.rowid limit ${limit}`;
    };
    const { rows } = await sql<{ ID: number }>`${matches(sql`-f.rowid as "ID"`, wanted)}`.execute(db);
    ids = rows.map((r) => Number(r.ID));
    const more = ids.length < wanted ? 0 : Number((await sql<{ n: number }>`select count(*) as n from (${matches(sql`1`, COUNT_CAP + 1 - wanted, -ids.at(-1)!)})`.execute(db)).rows[0]!.n);
    matching = ids.length + more;
  } else {
    ids = await postgresMatches(db, table, phrase, norm, type, codes);
    matching = ids.length;
  }
  // Pages, counted: a page longer than MAX_PAGE_TOKENS counts once per part (store.ts).
  const totalCapped = matching > COUNT_CAP;
  const total = Math.min(matching, COUNT_CAP);

  const ranked = await rankPool(db, database.dialect, descriptor, ids.slice(0, RANK_POOL), phrase, norm);
  // The ranked pool, then the other matching pages newest first.
  const order = [...ranked.map((r) => r.ID), ...ids.slice(RANK_POOL, COUNT_CAP)];
  const page = order.slice(from, from + query.pageSize);
  const details = new Map((await readDetails(db, descriptor, page)).map((d) => [d.ID, d]));
  const shown = new Set(ranked.map(groupKey));
  const pooled = new Set(ranked.map((r) => r.ID));
  const rows = page.flatMap((id) => {
    const detail = details.get(id);
    // A part of a long page already shown among the ranked is not shown twice.
    if (!detail || (!pooled.has(id) && shown.has(groupKey(detail)))) return [];
    return [present(descriptor, detail, phraseHits(detail.TEXT, phrase))];
  });
  return { rows, total, totalCapped };
}

/** What the planner knows of the tsvectors' lexemes (pg_stats): how often each common one is on a page. */
interface LexemeStats {
  at: number;
  pages: number;
  frequency: Map<string, number>;
  /** The frequency of the least common lexeme listed: any other is rarer. */
  floor: number;
}

/** Read again after this long: ANALYZE (autovacuum's, or npm run reindex's) refreshes them. */
const STATS_TTL_MS = 60_000;
const lexemeStatsCache = new WeakMap<AnyDb, Promise<LexemeStats>>();

async function readLexemeStats(db: AnyDb): Promise<LexemeStats> {
  const { rows } = await sql<{ e: string; f: number }>`
    select u.e, u.f from pg_stats s, unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) as u(e, f)
    where s.schemaname = current_schema() and s.tablename = 'FT_PAGE' and s.attname = 'TSV' and u.e is not null`.execute(db);
  const { rows: size } = await sql<{ n: number }>`select reltuples as n from pg_class where oid = '"FT_PAGE"'::regclass`.execute(db);
  const frequency = new Map(rows.map((r) => [r.e, Number(r.f)]));
  return { at: Date.now(), pages: Math.max(0, Number(size[0]?.n ?? 0)), frequency, floor: rows.length > 0 ? Math.min(...frequency.values()) : 0 };
}

async function lexemeStats(db: AnyDb): Promise<LexemeStats> {
  let stats = lexemeStatsCache.get(db);
  if (!stats || Date.now() - (await stats).at > STATS_TTL_MS) {
    stats = readLexemeStats(db);
    lexemeStatsCache.set(db, stats);
    stats.catch(() => lexemeStatsCache.delete(db));
  }
  return stats;
}

/**
 * PostgreSQL's matching pages, newest first, by one of two ways, whichever reads fewer rows by the
 * planner's own statistics of the lexemes: a common phrase (on a fraction f of N pages) by walking
 * the newest pages and checking NORM (about (COUNT_CAP + 1) / f rows), a rarer one by the GIN index
 * of its pairs (N × f pages, each checked on NORM). Neither reads a tsvector: GIN answers plain
 * lexemes from the index alone, and the phrase is checked on NORM, in the row. A page written
 * before NORM existed (empty) is checked on its tsvector.
 */
async function postgresMatches(db: AnyDb, table: string, phrase: readonly string[], norm: string, type: string | number | undefined, codes: readonly string[] | undefined): Promise<number[]> {
  const lexemes = pairLexemes(phrase);
  const stats = await lexemeStats(db);
  const f = Math.min(...lexemes.map((l) => stats.frequency.get(l) ?? stats.floor));
  const walk = f > 0 && stats.pages * f * f >= COUNT_CAP + 1;
  const conditions = [
    ...(type !== undefined ? [sql`p."TYPE" = ${type}`] : []),
    ...(codes ? [sql`p."SC_CODE" in (${sql.join(codes)})`] : []),
    ...(walk ? [] : [sql`p."TSV" @@ ${tsqueryAll(lexemes)}::tsquery`]),
    sql`(strpos(p."NORM", ${norm}) > 0 or (p."NORM" = '' and p."TSV" @@ ${tsqueryLiteral(phrase)}::tsquery))`,
  ];
  const { rows } = await sql<{ ID: number }>`
    select p."ID" from "FT_PAGE" p
    where p."TBL" = ${table} and ${sql.join(conditions, sql` and `)}
    order by p."ID" desc limit ${COUNT_CAP + 1}`.execute(db);
  return rows.map((r) => Number(r.ID));
}

interface Detail {
  ID: number;
  RECORD_ID: number;
  SOURCE: string;
  FILE_URL: string;
  PAGE: number;
  FILE_NAME: string;
  TEXT: string;
  [column: string]: unknown;
}

/** The pages shown, whole, with their records' fields. */
async function readDetails(db: AnyDb, descriptor: ResourceDescriptor, ids: readonly number[]): Promise<Detail[]> {
  if (ids.length === 0) return [];
  const fields = recordFields(descriptor);
  const { rows } = await sql<Detail>`
    select p."ID", p."RECORD_ID", p."SOURCE", p."FILE_NAME", p."FILE_URL", p."PAGE", p."TEXT",
      ${sql.join(fields.map((f) => sql`a.${sql.ref(toColumn(f))} as ${sql.ref(f)}`))}
    from "FT_PAGE" p join ${sql.table(descriptor.table)} a on a."ID" = p."RECORD_ID"
    where p."ID" in (${sql.join(ids)})`.execute(db);
  return rows.map((r) => ({ ...r, ID: Number(r.ID), RECORD_ID: Number(r.RECORD_ID), PAGE: Number(r.PAGE) }));
}

interface Ranked {
  ID: number;
  RECORD_ID: number;
  SOURCE: string;
  FILE_URL: string;
  PAGE: number;
  score: number;
}

/**
 * The pool, best first: BM25 of the phrase in the page (its occurrences, counted by the database on
 * NORM, against NORM's length in bytes), a bonus when the record's name holds the words, then the newer
 * page. One per (record, source, file, page). The pages' text is not read.
 */
async function rankPool(db: AnyDb, dialect: Db['dialect'], descriptor: ResourceDescriptor, ids: readonly number[], phrase: readonly string[], norm: string): Promise<Ranked[]> {
  if (ids.length === 0) return [];
  // Bytes: the occurrences are the bytes `replace` removed over the phrase's own bytes, exactly.
  const bytes = (value: RawBuilder<unknown>) => (dialect === 'sqlite' ? sql`length(cast(${value} as blob))` : sql`octet_length(${value}::text)`);
  const { rows } = await sql<{ ID: number; RECORD_ID: number; SOURCE: string; FILE_URL: string; PAGE: number; LEN: number; TF: number }>`
    select "ID", "RECORD_ID", "SOURCE", "FILE_URL", "PAGE", ${bytes(sql.ref('NORM'))} as "LEN",
      (${bytes(sql.ref('NORM'))} - ${bytes(sql`replace("NORM", ${norm}, '')`)}) / ${bytes(sql`${norm}`)} as "TF"
    from "FT_PAGE" where "ID" in (${sql.join(ids)})`.execute(db);
  const names = await recordNames(db, descriptor, [...new Set(rows.map((r) => Number(r.RECORD_ID)))]);
  const best = new Map<string, Ranked>();
  for (const row of rows) {
    const tf = Number(row.TF);
    const length = Number(row.LEN) || AVERAGE_NORM_BYTES;
    let score = (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / AVERAGE_NORM_BYTES));
    const name = names.get(Number(row.RECORD_ID));
    if (name !== undefined && phraseHits(name, phrase).length > 0) score += NAME_BONUS;
    const r: Ranked = { ID: Number(row.ID), RECORD_ID: Number(row.RECORD_ID), SOURCE: row.SOURCE, FILE_URL: row.FILE_URL, PAGE: Number(row.PAGE), score };
    const key = groupKey(r);
    const seen = best.get(key);
    if (!seen || seen.score < score || (seen.score === score && seen.ID < r.ID)) best.set(key, r);
  }
  return [...best.values()].sort((a, b) => b.score - a.score || b.ID - a.ID);
}

/** The records' names (descriptor.nameField), for the bonus. */
async function recordNames(db: AnyDb, descriptor: ResourceDescriptor, ids: readonly number[]): Promise<Map<number, string>> {
  const field = descriptor.nameField;
  if (!field || ids.length === 0) return new Map();
  const { rows } = await sql<{ ID: number; NAME: unknown }>`
    select "ID", ${sql.ref(toColumn(field))} as "NAME" from ${sql.table(descriptor.table)} where "ID" in (${sql.join(ids)})`.execute(db);
  return new Map(rows.flatMap((r) => (typeof r.NAME === 'string' ? [[Number(r.ID), r.NAME] as const] : [])));
}

function present(descriptor: ResourceDescriptor, detail: Detail, hits: [number, number][]): SearchResult {
  const out: SearchResult = { Id: detail.RECORD_ID, Source: detail.SOURCE as FullTextSource, ...snippetOf(detail.TEXT, hits) };
  for (const f of recordFields(descriptor)) out[f] = detail[f];
  if (detail.SOURCE === 'file') {
    out.FileName = detail.FILE_NAME;
    out.FileUrl = detail.FILE_URL;
    if (detail.PAGE > 0) out.Page = detail.PAGE;
  }
  return out;
}
