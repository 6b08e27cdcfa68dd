// The name each upload was made with (FILE_NAME, migration 007). Keys never carry the client's file
// name (policies.ts newKey), and record fields keep only the URL (the wire format of VdUrl, ScImg…),
// so the name is kept beside the key: written when the upload is signed or started, read by
// GetFileNames for the screens and by `/files/<key>` for the download's Content-Disposition.
import makeContentDisposition from 'content-disposition';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables';

/** Most URLs one GetFileNames call may name (a screen asks for the files it shows, once). */
export const MAX_NAMED_URLS = 100;

/** Records the name of a new upload (already cleaned by prepareUpload: no directories, no control characters). */
export async function recordFileName(db: Kysely<Database>, key: string, name: string, now = new Date()): Promise<void> {
  await db
    .insertInto('FILE_NAME')
    .values({ KEY: key, NAME: name, CREATED_AT: now.toISOString() })
    .onConflict((oc) => oc.column('KEY').doNothing())
    .execute();
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

export async function forgetFileName(db: Kysely<Database>, key: string): Promise<void> {
  await db.deleteFrom('FILE_NAME').where('KEY', '=', key).execute();
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
