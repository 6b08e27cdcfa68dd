// Exact row counts per list filter (ROW_COUNT), so that a list's total is one indexed read instead
// of counting up to a million rows on every request. Backfilled here from the rows already stored;
// the repository keeps them up to date in the same transaction as every write. Frozen like 001.
import { sql, type Kysely } from 'kysely';

/** Tables and the filter column sets their lists are counted by (mirrors the descriptors' filters). */
const COUNTED: Record<string, string[][]> = {
  VIDEO_TYPE: [[]],
  VIDEO: [[], ['VDT_CODE']],
  VIDEO_MESSAGE: [[], ['VD_CODE']],
  USEWEB: [[]],
  DOC_ARTICLE: [[], ['SC_CODE'], ['TYPE'], ['SC_CODE', 'TYPE']],
  TYKJ_ARTICLE: [[], ['SC_CODE'], ['TYPE'], ['SC_CODE', 'TYPE']],
  DOC_CLASSIFY: [[], ['SC_FATHER_CODE'], ['TYPE'], ['SC_FATHER_CODE', 'TYPE']],
  TYKJ_CLASSIFY: [[], ['SC_FATHER_CODE'], ['TYPE'], ['SC_FATHER_CODE', 'TYPE']],
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on raw tables
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ROW_COUNT')
    .ifNotExists()
    .addColumn('TABLE_NAME', 'text', (c) => c.notNull())
    .addColumn('FILTER_KEY', 'text', (c) => c.notNull())
    .addColumn('ROW_COUNT', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('ROW_COUNT_PK', ['TABLE_NAME', 'FILTER_KEY'])
    .execute();
  for (const [table, sets] of Object.entries(COUNTED)) {
    for (const columns of sets) {
      // The key is `COL=value|COL=value` in column order, '' for the whole table.
      const key =
        columns.length === 0
          ? sql`''`
          : sql.join(
              columns.map((c, i) => sql`${sql.lit(`${i > 0 ? '|' : ''}${c}=`)} || cast(${sql.ref(c)} as text)`),
              sql` || `,
            );
      const groupBy = columns.length === 0 ? sql`` : sql`group by ${sql.join(columns.map((c) => sql.ref(c)))}`;
      await sql`insert into ${sql.table('ROW_COUNT')} (${sql.ref('TABLE_NAME')}, ${sql.ref('FILTER_KEY')}, ${sql.ref('ROW_COUNT')})
        select ${table}, ${key}, count(*) from ${sql.table(table)} ${groupBy}`.execute(db);
    }
  }
}
