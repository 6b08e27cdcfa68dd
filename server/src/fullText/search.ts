// The search (docs/fullText.md): the query's phrase of tokens (tokens.ts) against the index, with
// the record's filters (document type, category and everything under it) inside the query, and the
// same answer on SQLite and PostgreSQL.
//
// Bounded work, whatever the word: the index is read newest page first (FT_PAGE.ID, the order pages
// were indexed in) and stops at COUNT_CAP + 1 matching pages, so `total` is exact up to 1000 and
// `totalCapped` says "1000+". Of those, the RANK_POOL newest are ranked (ranked()), in JavaScript so
// that both databases rank alike; the rest follow newest first. A rarer word (at most RANK_POOL
// pages) is thus ranked over all its pages.
import { sql } from 'kysely';
import { toColumn, type FullTextSource, type ResourceDescriptor } from '../../../schemas/descriptor';
import type { FullTextHit } from '../../../schemas/fullText';
import type { Db } from '../db/database';
import { categoryFilter, categoryTag, typeFilter, typeTag } from './declared';
import type { AnyDb } from './store';
import { ftsMatch, phraseHits, queryTokens, snippetOf, tsqueryLiteral } from './tokens';

/** Matching pages counted at most: past it the total is "1000+". */
export const COUNT_CAP = 1000;
/** The newest matching pages ranked by relevance. */
export const RANK_POOL = 200;
/** A category's subtree up to this many categories is also a filter of the FTS5 query itself. */
const TAGGED_CATEGORIES = 64;
/** BM25's constants, and the average page length in characters it normalises by. */
const K1 = 1.2;
const B = 0.75;
const AVERAGE_CHARS = 600;
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

const groupKey = (c: Detail) => `${c.RECORD_ID}\n${c.SOURCE}\n${c.FILE_URL}\n${c.PAGE}`;

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

  let ids: number[];
  if (database.dialect === 'sqlite') {
    const tagged = !codes || codes.length <= TAGGED_CATEGORIES;
    const match = ftsMatch(phrase, {
      ...(type !== undefined ? { all: [typeTag(type)] } : {}),
      ...(codes && tagged ? { any: codes.map(categoryTag) } : {}),
    });
    const fts = sql.table(`${table}_FTS`);
    // The index alone, its filters inside the match, read newest first (rising FTS5 rowid: minus
    // the page's ID) and stopped at the limit. A category of very many categories is checked on
    // the pages' copies instead.
    const { rows } = tagged
      ? await sql<{ ID: number }>`select -f.rowid as "ID" from ${fts} f where f.${fts} match ${match} order by f.rowid limit ${COUNT_CAP + 1}`.execute(db)
      : await sql<{ ID: number }>`
          select p."ID" from ${fts} f cross join "FT_PAGE" p on p."ID" = -f.rowid
          where f.${fts} match ${match} and p."SC_CODE" in (${sql.join(codes!)})
          order by f.rowid limit ${COUNT_CAP + 1}`.execute(db);
    ids = rows.map((r) => Number(r.ID));
  } else {
    const conditions = [
      ...(type !== undefined ? [sql`p."TYPE" = ${type}`] : []),
      ...(codes ? [sql`p."SC_CODE" in (${sql.join(codes)})`] : []),
    ];
    const and = conditions.length > 0 ? sql` and ${sql.join(conditions, sql` and `)}` : sql``;
    const { rows } = await sql<{ ID: number }>`
      select p."ID" from "FT_PAGE" p
      where p."TBL" = ${table} and p."TSV" @@ ${tsqueryLiteral(phrase)}::tsquery${and}
      order by p."ID" desc limit ${COUNT_CAP + 1}`.execute(db);
    ids = rows.map((r) => Number(r.ID));
  }
  // Pages, counted: a page longer than MAX_PAGE_TOKENS counts once per part (store.ts).
  const totalCapped = ids.length > COUNT_CAP;
  const total = Math.min(ids.length, COUNT_CAP);

  const ranked = rank(descriptor, await readDetails(db, descriptor, ids.slice(0, RANK_POOL)), phrase);
  // The ranked pool, then the other matching pages newest first.
  const order: (number | Ranked)[] = [...ranked, ...ids.slice(RANK_POOL, COUNT_CAP)];
  const from = (query.pageIndex - 1) * query.pageSize;
  const page = order.slice(from, from + query.pageSize);
  const unread = page.filter((c): c is number => typeof c === 'number');
  const more = unread.length > 0 ? rank(descriptor, await readDetails(db, descriptor, unread), phrase, false) : [];
  const byId = new Map(more.map((r) => [r.detail.ID, r]));
  const shown = new Set(ranked.map((r) => groupKey(r.detail)));
  const rows = page.flatMap((c) => {
    if (typeof c !== 'number') return [present(descriptor, c)];
    const r = byId.get(c);
    // A part of a long page already shown among the ranked is not shown twice.
    return r && !shown.has(groupKey(r.detail)) ? [present(descriptor, r)] : [];
  });
  return { rows, total, totalCapped };
}

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
  detail: Detail;
  hits: [number, number][];
  score: number;
}

/**
 * Best first: BM25 of the phrase in the page (its occurrences, against the page's length), a bonus
 * when the record's name holds the words, then the newer page. One per (record, source, file, page).
 */
function rank(descriptor: ResourceDescriptor, details: readonly Detail[], phrase: readonly string[], sort = true): Ranked[] {
  const nameField = descriptor.nameField;
  const best = new Map<string, Ranked>();
  for (const detail of details) {
    const hits = phraseHits(detail.TEXT, phrase);
    // A page whose text no longer holds the words (never expected) is not shown.
    if (hits.length === 0) continue;
    const tf = hits.length;
    let score = (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * detail.TEXT.length) / AVERAGE_CHARS));
    const name = nameField ? detail[nameField] : undefined;
    if (typeof name === 'string' && phraseHits(name, phrase).length > 0) score += NAME_BONUS;
    const r: Ranked = { detail, hits, score };
    const key = groupKey(detail);
    const seen = best.get(key);
    if (!seen || seen.score < score) best.set(key, r);
  }
  const out = [...best.values()];
  if (sort) out.sort((a, b) => b.score - a.score || b.detail.ID - a.detail.ID);
  return out;
}

function present(descriptor: ResourceDescriptor, { detail, hits }: Ranked): SearchResult {
  const out: SearchResult = { Id: detail.RECORD_ID, Source: detail.SOURCE as FullTextSource, ...snippetOf(detail.TEXT, hits) };
  for (const f of recordFields(descriptor)) out[f] = detail[f];
  if (detail.SOURCE === 'file') {
    out.FileName = detail.FILE_NAME;
    out.FileUrl = detail.FILE_URL;
    if (detail.PAGE > 0) out.Page = detail.PAGE;
  }
  return out;
}
