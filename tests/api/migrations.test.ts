// The migrations on the API pass's database: PostgreSQL when TEST_DATABASE_URL is set (the second
// pass of scripts/test.sh), else SQLite. A database migrated from scratch has what the descriptors
// need (else `npm run db:generate` is due), and a generated migration, run after the existing ones,
// creates a new entity's table and indexes, and adds fields to a table with rows keeping its data;
// the daily figures' migration brings their table to a database that has rows; a new entity that
// declares `fullText` is searched after its generated migration (on PostgreSQL, which needs nothing
// per table, as on SQLite, which needs its FTS5 table).
import { randomBytes } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../schemas/index';
import { runMigrations, type DialectName } from '../../server/src/db/database';
import { MIGRATIONS } from '../../server/src/db/migrations/index';
import { rebuildCounts } from '../../server/src/db/rowCounts';
import { describeDiff, diffSchema, introspect } from '../../server/src/db/schemaDiff';
import type { Db } from '../../server/src/db/database';
import { searchFullText } from '../../server/src/fullText/search';
import { insertPages } from '../../server/src/fullText/store';
import { generatedMigration, searchedNoticeResource, videoWithLevel, withNotice, withSearchedNotice, withVideoLevel } from '../helpers/schemaFixtures';

const pgUrl = process.env.TEST_DATABASE_URL;
const dialect: DialectName = pgUrl ? 'postgres' : 'sqlite';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- raw tables
type RawDb = Kysely<any>;

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  // Last opened, first closed: a pool before its database is dropped.
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A statement on the cluster's administrative database. */
async function onCluster(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** An empty database of the pass's dialect (on PostgreSQL, a database of its own; the app is not needed). */
async function emptyDatabase(): Promise<RawDb> {
  let db: RawDb;
  if (pgUrl) {
    const name = `m_${randomBytes(6).toString('hex')}`;
    await onCluster(pgUrl, `create database ${name}`);
    cleanups.push(() => onCluster(pgUrl, `drop database if exists ${name} with (force)`));
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url.toString(), max: 2 }) }) });
  } else {
    db = new Kysely({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
  }
  cleanups.push(() => db.destroy());
  return db;
}

describe(`migrations on ${dialect}`, () => {
  it('a database migrated from scratch has what every descriptor needs', async () => {
    const db = await emptyDatabase();
    await runMigrations(db, dialect, MIGRATIONS);
    const diff = diffSchema(RESOURCES, await introspect(db, dialect), dialect);
    expect(describeDiff(diff), 'schemas and migrations disagree: run `npm run db:generate`').toEqual([]);
  });

  it("a generated migration creates a new entity's table, columns and indexes, after which nothing differs", async () => {
    const generated = await generatedMigration(withNotice, 'fixture_notice');
    cleanups.push(generated.cleanup);
    const db = await emptyDatabase();
    await runMigrations(db, dialect, generated.all);
    const shape = await introspect(db, dialect);
    expect(describeDiff(diffSchema(withNotice, shape, dialect))).toEqual([]);
    const notice = shape.get('FIXTURE_NOTICE')!;
    expect([...notice.columns.keys()].sort()).toEqual(
      ['ID', 'IS_PINNED', 'NT_BODY', 'NT_CATEGORY', 'NT_CODE', 'NT_DATE', 'NT_SCORE', 'NT_SORT', 'NT_TITLE'],
    );
    expect(notice.primaryKey).toEqual(['ID']);
    expect(notice.indexes.find((i) => i.name === 'FIXTURE_NOTICE_NT_CATEGORY_ORDER')?.columns).toEqual([
      { name: 'NT_CATEGORY', desc: false },
      { name: 'IS_PINNED', desc: true },
      { name: 'NT_SORT', desc: false },
      { name: 'ID', desc: false },
    ]);

    await db.insertInto('FIXTURE_NOTICE').values({ NT_CODE: 'n1', NT_TITLE: '公告' }).execute();
    await db.insertInto('FIXTURE_NOTICE').values({ NT_CODE: 'n2', NT_TITLE: '公告二', NT_SCORE: 4.5 }).execute();
    expect(await db.selectFrom('FIXTURE_NOTICE').selectAll().orderBy('ID').execute()).toEqual([
      { ID: 1, NT_CODE: 'n1', NT_TITLE: '公告', NT_BODY: '', NT_DATE: '', NT_CATEGORY: 'general', IS_PINNED: 0, NT_SORT: 0, NT_SCORE: null },
      { ID: 2, NT_CODE: 'n2', NT_TITLE: '公告二', NT_BODY: '', NT_DATE: '', NT_CATEGORY: 'general', IS_PINNED: 0, NT_SORT: 0, NT_SCORE: 4.5 },
    ]);
    await expect(db.insertInto('FIXTURE_NOTICE').values({ NT_CODE: 'n1', NT_TITLE: '重复' }).execute()).rejects.toThrow(/unique/i);
    // Again: nothing changes.
    await generated.module.up(db, dialect);
    expect(await db.selectFrom('FIXTURE_NOTICE').select('NT_CODE').orderBy('ID').execute()).toEqual([{ NT_CODE: 'n1' }, { NT_CODE: 'n2' }]);
  });

  it('a generated migration gives a new entity that declares fullText what its search needs, after which nothing differs', async () => {
    const generated = await generatedMigration(withSearchedNotice, 'fixture_searched_notice');
    cleanups.push(generated.cleanup);
    const db = await emptyDatabase();
    await runMigrations(db, dialect, generated.all);
    expect(describeDiff(diffSchema(withSearchedNotice, await introspect(db, dialect), dialect))).toEqual([]);
    await db.insertInto('FIXTURE_SEARCHED_NOTICE').values({ NT_CODE: 'n1', NT_TITLE: '造价通知' }).execute();
    await db.insertInto('FIXTURE_SEARCHED_NOTICE').values({ NT_CODE: 'n2', NT_TITLE: '其他通知' }).execute();
    const page = (text: string) => [{ source: 'content', fileName: '', fileUrl: '', page: 0, text }];
    await insertPages(db, dialect, searchedNoticeResource, { Id: 1, IsPinned: 1 }, 1, page('建设工程造价由分部分项工程费组成'), { type: 1, category: null });
    await insertPages(db, dialect, searchedNoticeResource, { Id: 2, IsPinned: 0 }, 2, page('本通知与工程无关'), { type: 0, category: null });
    const database = { db, dialect } as unknown as Db;
    const found = async (text: string, type?: number) =>
      (await searchFullText(database, searchedNoticeResource, { text, ...(type === undefined ? {} : { type }), pageIndex: 1, pageSize: 20 })).rows.map((r) => [r.Id, r.NtTitle]);
    expect(await found('程造价')).toEqual([[1, '造价通知']]);
    expect((await found('工程')).map(([id]) => id).sort()).toEqual([1, 2]);
    expect(await found('工程', 0)).toEqual([[2, '其他通知']]);
  });

  it("the daily figures' table comes to a database with rows, keeping every row as it was", async () => {
    const db = await emptyDatabase();
    const daily = Object.keys(MIGRATIONS).find((name) => name.endsWith('_video_daily'));
    expect(daily, 'the migration of the daily figures').toBeDefined();
    // The database as it was before that migration, with videos, counts and comments.
    await runMigrations(db, dialect, Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < daily!)));
    expect((await introspect(db, dialect)).has('VIDEO_DAILY')).toBe(false);
    await db.insertInto('VIDEO_TYPE').values({ VDT_CODE: 't1', VDT_NAME: '一' }).execute();
    await db.insertInto('VIDEO').values({ VD_CODE: 'v1', VDT_CODE: 't1', VD_NAME: '甲', VD_TIME: '2025-01-01', VD_NUM: 7, VD_FABULOUS: 3 }).execute();
    await db.insertInto('VIDEO').values({ VD_CODE: 'v2', VDT_CODE: 't1', VD_NAME: '乙', VD_NUM: 0 }).execute();
    await db.insertInto('VIDEO_MESSAGE').values({ VD_CODE: 'v1', VM_DES: '<p>好</p>', VM_TIME: '2025-01-02T00:00:00.000Z' }).execute();
    await rebuildCounts(db, RESOURCES.find((d) => d.resource === 'video')!);
    const tables = ['VIDEO_TYPE', 'VIDEO', 'VIDEO_MESSAGE', 'ROW_COUNT', 'MEMBER'];
    const snapshot = async () => Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await db.selectFrom(t).selectAll().orderBy(t === 'ROW_COUNT' ? 'FILTER_KEY' : 'ID').execute()])));
    const before = await snapshot();

    await runMigrations(db, dialect, MIGRATIONS);
    expect(await snapshot()).toEqual(before);
    const shape = await introspect(db, dialect);
    expect(describeDiff(diffSchema(RESOURCES, shape, dialect))).toEqual([]);
    expect([...shape.get('VIDEO_DAILY')!.columns.keys()].sort()).toEqual(['DAY', 'ID', 'VD_CODE', 'VD_FABULOUS', 'VD_NUM']);
    expect(await db.selectFrom('VIDEO_DAILY').selectAll().execute()).toEqual([]);
    // One row per video and day, held by the database itself.
    await db.insertInto('VIDEO_DAILY').values({ VD_CODE: 'v1', DAY: '2026-01-01', VD_NUM: 1 }).execute();
    await db.insertInto('VIDEO_DAILY').values({ VD_CODE: 'v1', DAY: '2026-01-02', VD_NUM: 1 }).execute();
    await expect(db.insertInto('VIDEO_DAILY').values({ VD_CODE: 'v1', DAY: '2026-01-01', VD_FABULOUS: 1 }).execute()).rejects.toThrow(/unique/i);
  });

  it('a generated migration adds fields and a filter to a table with rows, keeping every row as it was', async () => {
    const db = await emptyDatabase();
    await runMigrations(db, dialect, MIGRATIONS);
    await db.insertInto('VIDEO_TYPE').values({ VDT_CODE: 't1', VDT_NAME: '一' }).execute();
    await db.insertInto('VIDEO_TYPE').values({ VDT_CODE: 't2', VDT_NAME: '二' }).execute();
    await db.insertInto('VIDEO').values({ VD_CODE: 'v1', VDT_CODE: 't1', VD_NAME: '甲', VD_TIME: '2025-01-01', IS_TOP: 1, VD_NUM: 7 }).execute();
    await db.insertInto('VIDEO').values({ VD_CODE: 'v2', VDT_CODE: 't1', VD_NAME: '乙', VD_URL: '/files/v/a.mp4' }).execute();
    await db.insertInto('VIDEO').values({ VD_CODE: 'v3', VDT_CODE: 't2', VD_NAME: '丙', VD_ENCLOSURE: '[{"name":"x"}]' }).execute();
    await rebuildCounts(db, RESOURCES.find((d) => d.resource === 'video')!);
    const before = await db.selectFrom('VIDEO').selectAll().orderBy('ID').execute();

    const generated = await generatedMigration(withVideoLevel, 'video_level');
    cleanups.push(generated.cleanup);
    await runMigrations(db, dialect, generated.all);
    expect(await db.selectFrom('VIDEO').selectAll().orderBy('ID').execute()).toEqual(
      before.map((row) => ({ ...row, VD_LEVEL: 1, VD_SUBTITLE: "无'", VD_RATING: null })),
    );
    expect(describeDiff(diffSchema(withVideoLevel, await introspect(db, dialect), dialect))).toEqual([]);

    const counts = async () =>
      (await db.selectFrom('ROW_COUNT').select(['FILTER_KEY', 'ROW_COUNT']).where('TABLE_NAME', '=', 'VIDEO').orderBy('FILTER_KEY').execute()).map(
        (r) => [r.FILTER_KEY, Number(r.ROW_COUNT)],
      );
    const migrated = await counts();
    expect(migrated).toContainEqual(['VDT_CODE=t1|VD_LEVEL=1', 2]);
    await rebuildCounts(db, videoWithLevel);
    expect(migrated).toEqual(await counts());
  });
});
