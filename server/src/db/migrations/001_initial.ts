// Initial schema, written from the entity schemas (columns are the upper-snake form of the fields)
// and then frozen: later changes go in new migrations. Migrations never import app code.
import { sql, type Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on raw tables
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const pk = (table: string) =>
    db.schema
      .createTable(table)
      .ifNotExists()
      .addColumn('ID', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      );

  await db.schema
    .createTable('SETTING')
    .ifNotExists()
    .addColumn('NAME', 'text', (c) => c.primaryKey())
    .addColumn('VALUE', 'text', (c) => c.notNull())
    .execute();

  await pk('MEMBER')
    .addColumn('AU_CODE', 'text', (c) => c.notNull().unique())
    .addColumn('USER_NAME', 'text', (c) => c.notNull().unique())
    .addColumn('AU_NAME', 'text', (c) => c.notNull())
    .addColumn('ORGANIZATION_NAME', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('IS_ADMIN', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('IS_BUILTIN', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('MODULES', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('PASSWORD_HASH', 'text', (c) => c.notNull())
    .addColumn('UPDATE_TIME', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  await db.schema
    .createTable('SESSION')
    .ifNotExists()
    .addColumn('TOKEN_HASH', 'text', (c) => c.primaryKey())
    .addColumn('AU_CODE', 'text', (c) => c.notNull().references('MEMBER.AU_CODE').onDelete('cascade'))
    .addColumn('CREATED_AT', 'text', (c) => c.notNull())
    .addColumn('EXPIRES_AT', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('SESSION_AU_CODE').ifNotExists().on('SESSION').column('AU_CODE').execute();

  await db.schema
    .createTable('LOGIN_THROTTLE')
    .ifNotExists()
    .addColumn('THROTTLE_KEY', 'text', (c) => c.primaryKey())
    .addColumn('FAILS', 'integer', (c) => c.notNull())
    .addColumn('WINDOW_START', 'text', (c) => c.notNull())
    .execute();

  await pk('VIDEO_TYPE')
    .addColumn('VDT_CODE', 'text', (c) => c.notNull().unique())
    .addColumn('VDT_NAME', 'text', (c) => c.notNull())
    .addColumn('VDT_SORT', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('VIDEO_TYPE_SORT').ifNotExists().on('VIDEO_TYPE').columns(['VDT_SORT', 'ID']).execute();

  await pk('VIDEO')
    .addColumn('VD_CODE', 'text', (c) => c.notNull().unique())
    .addColumn('VDT_CODE', 'text', (c) => c.notNull().references('VIDEO_TYPE.VDT_CODE'))
    .addColumn('VD_NAME', 'text', (c) => c.notNull())
    .addColumn('VD_PER', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('VD_NUM', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('VD_TIME', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('VD_URL', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('VD_SORT', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('VD_ENCLOSURE', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('VD_FABULOUS', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('IS_TOP', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('UPDATE_TIME', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('CREATE_USER', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('CREATE_AU_CODE', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  // Default order IS_TOP DESC, VD_TIME DESC, ties by ID: one index per filter shape, scanned backwards.
  await db.schema
    .createIndex('VIDEO_TYPE_ORDER')
    .ifNotExists()
    .on('VIDEO')
    .columns(['VDT_CODE', 'IS_TOP', 'VD_TIME', 'ID'])
    .execute();
  await db.schema.createIndex('VIDEO_ORDER').ifNotExists().on('VIDEO').columns(['IS_TOP', 'VD_TIME', 'ID']).execute();

  await pk('VIDEO_MESSAGE')
    .addColumn('VD_CODE', 'text', (c) => c.notNull().references('VIDEO.VD_CODE').onDelete('cascade'))
    .addColumn('VM_NAME', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('VM_DES', 'text', (c) => c.notNull())
    .addColumn('VM_TIME', 'text', (c) => c.notNull())
    .addColumn('AU_CODE', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('AU_NAME', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ORGANIZATION_NAME', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createIndex('VIDEO_MESSAGE_ORDER')
    .ifNotExists()
    .on('VIDEO_MESSAGE')
    .columns(['VD_CODE', 'VM_TIME', 'ID'])
    .execute();

  await pk('USEWEB')
    .addColumn('UW_NAME', 'text', (c) => c.notNull())
    .addColumn('UW_URL', 'text', (c) => c.notNull())
    .addColumn('UW_TYPE', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('UW_SORT', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('USEWEB_SORT').ifNotExists().on('USEWEB').columns(['UW_SORT', 'ID']).execute();

  // /Xcx1/ (document catalogues) and /Xcx3/ (unified answers) keep separate tables.
  for (const prefix of ['DOC', 'TYKJ']) {
    const classify = `${prefix}_CLASSIFY`;
    const article = `${prefix}_ARTICLE`;
    await pk(classify)
      .addColumn('SC_CODE', 'text', (c) => c.notNull().unique())
      .addColumn('SC_FATHER_CODE', 'text', (c) => c.notNull().defaultTo('0'))
      .addColumn('SC_NAME', 'text', (c) => c.notNull())
      .addColumn('SC_IMG', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('SC_PAGEIMG', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('SC_SORT', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('SC_IS_FIRST', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('IS_SHOW', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('TYPE', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex(`${classify}_PARENT_ORDER`)
      .ifNotExists()
      .on(classify)
      .columns(['TYPE', 'SC_FATHER_CODE', 'SC_SORT', 'ID'])
      .execute();
    await db.schema.createIndex(`${classify}_TYPE_ORDER`).ifNotExists().on(classify).columns(['TYPE', 'SC_SORT', 'ID']).execute();
    await db.schema
      .createIndex(`${classify}_FATHER_ORDER`)
      .ifNotExists()
      .on(classify)
      .columns(['SC_FATHER_CODE', 'SC_SORT', 'ID'])
      .execute();
    await db.schema.createIndex(`${classify}_ORDER`).ifNotExists().on(classify).columns(['SC_SORT', 'ID']).execute();

    await pk(article)
      .addColumn('SA_CODE', 'text', (c) => c.notNull().unique())
      .addColumn('SC_CODE', 'text', (c) => c.notNull().references(`${classify}.SC_CODE`))
      .addColumn('SA_TYPE', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('SA_NAME', 'text', (c) => c.notNull())
      .addColumn('PUBLISH_TIME', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('SA_CODE_NAME', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('IS_COMMON', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('SA_SORT', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('SA_PROBLEM', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('SA_ANSWER', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('SA_PDF_URL', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('SA_PDF_CONTENT', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('SA_UPLOAD_URL', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('NI_DESCRIBE', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('TYPE', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('UPDATE_TIME', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('CREATE_USER', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    // Default order SA_SORT ASC, IS_COMMON DESC, PUBLISH_TIME DESC, ties by ID DESC.
    for (const [name, lead] of [
      ['CLASSIFY_ORDER', 'SC_CODE'],
      ['TYPE_ORDER', 'TYPE'],
    ] as const) {
      await sql`create index if not exists ${sql.id(`${article}_${name}`)} on ${sql.table(article)} (${sql.ref(lead)}, "SA_SORT" asc, "IS_COMMON" desc, "PUBLISH_TIME" desc, "ID" desc)`.execute(
        db,
      );
    }
    await sql`create index if not exists ${sql.id(`${article}_ORDER`)} on ${sql.table(article)} ("SA_SORT" asc, "IS_COMMON" desc, "PUBLISH_TIME" desc, "ID" desc)`.execute(
      db,
    );
  }
}
