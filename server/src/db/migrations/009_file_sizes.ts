// The storage the files take, by kind (the start page's 存储占用): FILE_NAME (007) keeps each
// upload's size, the one its signature allows (storage refuses a body of another size), and
// FILE_USAGE keeps the totals per kind (video, handout, image), adjusted in the same transaction
// as each FILE_NAME row written or removed (server/src/storage/names.ts), so reading them is one
// short scan whatever the number of files. Files stored before this migration have no known size:
// they are counted in FILES and UNSIZED, their bytes are not. Migrations never import app code.
import { sql, type Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on raw tables
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const has =
    (dialect === 'postgres'
      ? await sql`select 1 from information_schema.columns where table_schema = current_schema() and table_name = 'FILE_NAME' and column_name = 'SIZE'`.execute(db)
      : await sql`select 1 from pragma_table_info('FILE_NAME') where name = 'SIZE'`.execute(db)
    ).rows.length > 0;
  // Null: not known (stored before).
  if (!has) await db.schema.alterTable('FILE_NAME').addColumn('SIZE', 'bigint').execute();
  await db.schema
    .createTable('FILE_USAGE')
    .ifNotExists()
    .addColumn('KIND', 'text', (c) => c.primaryKey())
    .addColumn('FILES', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('BYTES', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('UNSIZED', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  // A key is `<kind>/<yyyy>/<mm>/<uuid>.<ext>`.
  const kind = dialect === 'postgres' ? sql`split_part("KEY", '/', 1)` : sql`substr("KEY", 1, instr("KEY", '/') - 1)`;
  await sql`delete from "FILE_USAGE"`.execute(db);
  await sql`insert into "FILE_USAGE" ("KIND", "FILES", "BYTES", "UNSIZED")
    select ${kind}, count(*), coalesce(sum("SIZE"), 0), count(*) - count("SIZE") from "FILE_NAME" group by ${kind}`.execute(db);
}
