// The name each upload was made with (FILE_NAME, migration 007). Keys never carry the client's file
// name (policies.ts newKey), and record fields keep only the URL (the wire format of VdUrl, ScImg…),
// so the name is kept beside the key: written when the upload is signed or started, read by
// GetFileNames for the screens and by `/files/<key>` for the download's Content-Disposition.
// Each row also keeps the upload's size, and FILE_USAGE the totals per kind (migration 009), both
// changed in one transaction.
import makeContentDisposition from 'content-disposition';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/tables';
import { parseUploadKey } from './policies';

/** Most URLs one GetFileNames call may name (a screen asks for the files it shows, once). */
export const MAX_NAMED_URLS = 100;

/** Adds a file (or takes one away: -1) to its kind's totals; a size of null is not known. */
async function adjustUsage(trx: Transaction<Database>, key: string, files: 1 | -1, size: number | null): Promise<void> {
  const kind = parseUploadKey(key)?.kind ?? key.split('/')[0]!;
  const bytes = size === null ? 0 : files * size;
  const unsized = size === null ? files : 0;
  await trx
    .insertInto('FILE_USAGE')
    .values({ KIND: kind, FILES: files, BYTES: bytes, UNSIZED: unsized })
    .onConflict((oc) =>
      oc.column('KIND').doUpdateSet({
        FILES: sql`${sql.ref('FILE_USAGE.FILES')} + ${files}`,
        BYTES: sql`${sql.ref('FILE_USAGE.BYTES')} + ${bytes}`,
        UNSIZED: sql`${sql.ref('FILE_USAGE.UNSIZED')} + ${unsized}`,
      }),
    )
    .execute();
}

/**
 * Records the name and size of a new upload (the name already cleaned by prepareUpload: no
 * directories, no control characters; the size the one its signature allows).
 */
export async function recordFileName(db: Kysely<Database>, key: string, name: string, size: number, now = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const result = await trx
      .insertInto('FILE_NAME')
      .values({ KEY: key, NAME: name, CREATED_AT: now.toISOString(), SIZE: size })
      .onConflict((oc) => oc.column('KEY').doNothing())
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0) > 0) await adjustUsage(trx, key, 1, size);
  });
}

/** Names of the keys that have one. */
export async function fileNamesOf(db: Kysely<Database>, keys: readonly string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await db.selectFrom('FILE_NAME').select(['KEY', 'NAME']).where('KEY', 'in', [...keys]).execute();
  return new Map(rows.map((r) => [r.KEY, r.NAME]));
}

export async function fileNameOf(db: Kysely<Database>, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('FILE_NAME').select('NAME').where('KEY', '=', key).executeTakeFirst();
  return row?.NAME;
}

/** Forgets a removed file: its name, and its place in its kind's totals. */
export async function forgetFileName(db: Kysely<Database>, key: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const gone = await trx.deleteFrom('FILE_NAME').where('KEY', '=', key).returning('SIZE').executeTakeFirst();
    if (gone) await adjustUsage(trx, key, -1, gone.SIZE === null ? null : Number(gone.SIZE));
  });
}

/**
 * `inline; filename="…"; filename*=UTF-8''…` (RFC 6266): the file still opens  in the browser (a PDF,
 * a video), and 另存为 or a download proposes its original name. The plain `filename` is an ASCII
 * stand-in for old clients. The `content-disposition` package (jshttp) writes it: the RFC's
 * encoding rules are generic and easy to get subtly wrong.
 */
export function contentDisposition(name: string): string {
  return makeContentDisposition(name, { type: 'inline' });
}
