// 012_full_text_norm, written by hand: FT_PAGE.NORM, a page's tokens as one string in which a phrase
// is a substring (server/src/fullText/tokens.ts, normText): the search checks and counts a phrase on
// it in the database (strpos/instr, replace) instead of reading the page's tsvector or its text.
// On PostgreSQL NORM stays in the row (STORAGE MAIN) and the text, read only for the results shown,
// goes out of it first (EXTERNAL), so that walking the newest pages reads no TOAST.
// Pages written before have an empty NORM: the search still finds them by the index (on PostgreSQL
// by their tsvector), and every record with pages is queued to be read again, which fills it.
// Migrations never import app code.
import { sql, type Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on raw tables
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('FT_PAGE').addColumn('NORM', 'text', (c) => c.notNull().defaultTo('')).execute();
  if (dialect === 'postgres') {
    await sql`alter table "FT_PAGE" alter column "NORM" set storage main, alter column "TEXT" set storage external`.execute(db);
  }
  const now = new Date().toISOString();
  await sql`
    insert into "FT_JOB" ("TBL", "RECORD_ID", "STATE", "VERSION", "TRIES", "DUE_AT")
    select distinct "TBL", "RECORD_ID", 'waiting', 1, 0, ${now} from "FT_PAGE" where true
    on conflict ("TBL", "RECORD_ID") do nothing`.execute(db);
}
