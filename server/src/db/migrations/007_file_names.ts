// The name each upload was made with (docs/api.md, "Uploads"): keys are `<kind>/<yyyy>/<mm>/<uuid>.<ext>`
// and record fields hold only the URL, so screens ask for the names of the URLs they show
// (GetFileNames) and downloads offer them (Content-Disposition). One row per upload, written when
// it is signed or started; removed with the file. Starts empty: files stored before show by their
// key's last segment. Migrations never import app code.
import type { Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on raw tables
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('FILE_NAME')
    .ifNotExists()
    .addColumn('KEY', 'text', (c) => c.primaryKey())
    // At most 255 characters, without directories or control characters (storage/policies.ts cleanTitle).
    .addColumn('NAME', 'text', (c) => c.notNull())
    .addColumn('CREATED_AT', 'text', (c) => c.notNull())
    .execute();
}
