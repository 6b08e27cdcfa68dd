// Schemas and migrations agree (else `npm run db:generate` is due), and the generator's migrations
// do what they say on SQLite: a new entity's table, columns and indexes; fields added to a table
// with rows, which keep their data. PostgreSQL: tests/api/migrations.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { ESLint } from 'eslint';
import { CompiledQuery, Kysely, sql, SqliteDialect } from 'kysely';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../../schemas/index';
import { toColumn, type ResourceDescriptor } from '../../../schemas/descriptor';
import {
  noticeResource,
  searchedNoticeResource,
  tallyResource,
  videoWithLevel,
  withNotice,
  withoutArticleSearch,
  withSearchedNotice,
  withSearchedVideo,
  withTally,
  withVideoLevel,
  generatedMigration,
} from '../../../tests/helpers/schemaFixtures';
import { searchFullText } from '../fullText/search';
import { insertPages } from '../fullText/store';
import { runMigrations, type Db } from './database';
import { entityFiles, migrationNames, nextMigrationName, renderEntities, renderRegistry } from './generatedFiles';
import { MIGRATIONS } from './migrations/index';
import { parseOrderName } from './orderName';
import { listQueries } from './repository';
import { rebuildCounts } from './rowCounts';
import {
  describeDiff,
  diffSchema,
  indexedShapes,
  introspect,
  isEmpty,
  migratedShape,
  renderMigration,
  requiredTables,
  serves,
  type DatabaseShape,
  type TableInfo,
} from './schemaDiff';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const RUN = 'run `npm run db:generate`';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- raw tables
type RawDb = Kysely<any>;
const memoryDb = (): RawDb => new Kysely({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('schemas and migrations agree', () => {
  it('schemas/entities.ts lists every entity file', () => {
    const written = fs.readFileSync(path.join(REPO, 'schemas/entities.ts'), 'utf8');
    expect(written, `schemas/entities.ts is stale: ${RUN}`).toBe(renderEntities(entityFiles(path.join(REPO, 'schemas'))));
  });

  it('the migration registry lists every migration file, under its recorded name', () => {
    const dir = path.join(REPO, 'server/src/db/migrations');
    const names = migrationNames(dir);
    expect(fs.readFileSync(path.join(dir, 'index.ts'), 'utf8'), `migrations/index.ts is stale: ${RUN}`).toBe(renderRegistry(names));
    expect(Object.keys(MIGRATIONS)).toEqual(names);
    // Names existing databases have recorded in Kysely's migration table.
    expect(names.slice(0, 6)).toEqual(['001_initial', '002_uploads', '003_row_counts', '004_audit_log', '005_member_disabled', '006_file_lifecycle']);
  });

  it('a database migrated from scratch has what every descriptor needs', async () => {
    const diff = diffSchema(RESOURCES, await migratedShape(MIGRATIONS));
    expect(describeDiff(diff), `schemas and migrations disagree: ${RUN}`).toEqual([]);
  });
});

describe('the generator, given an extra entity', () => {
  it('plans its table, unique code and indexes, and nothing for the others', async () => {
    const diff = diffSchema(withNotice, await migratedShape(MIGRATIONS));
    expect(diff.createTables.map((t) => t.table)).toEqual(['FIXTURE_NOTICE']);
    expect(diff.createTables[0]!.columns.map((c) => c.name)).toEqual([
      'NT_CODE',
      'NT_TITLE',
      'NT_BODY',
      'NT_DATE',
      'NT_CATEGORY',
      'IS_PINNED',
      'NT_SORT',
      'NT_SCORE',
    ]);
    expect(diff.createIndexes.map((i) => [i.name, i.columns.map((c) => (c.desc ? `${c.name} desc` : c.name)).join(', ')])).toEqual([
      ['FIXTURE_NOTICE_ORDER', 'IS_PINNED desc, NT_SORT, ID'],
      ['FIXTURE_NOTICE_NT_CATEGORY_ORDER', 'NT_CATEGORY, IS_PINNED desc, NT_SORT, ID'],
    ]);
    expect(diff.addColumns).toEqual([]);
    expect(diff.recounts).toEqual([]);
  });

  it('writes a migration that creates them after 001..006, after which nothing differs', async () => {
    const generated = await generatedMigration(withNotice, 'fixture_notice');
    cleanups.push(generated.cleanup);
    expect(generated.source).not.toMatch(/from '\.\.?\//); // self-contained: frozen once written
    expect(generated.source).toMatch(/\.ifNotExists\(\)/);
    const db = memoryDb();
    cleanups.push(() => db.destroy());
    await runMigrations(db, 'sqlite', generated.all);
    const shape = await introspect(db, 'sqlite');
    expect(describeDiff(diffSchema(withNotice, shape))).toEqual([]);

    const notice = shape.get('FIXTURE_NOTICE')!;
    expect(Object.fromEntries(notice.columns)).toEqual({
      ID: 'INTEGER',
      NT_CODE: 'TEXT',
      NT_TITLE: 'TEXT',
      NT_BODY: 'TEXT',
      NT_DATE: 'TEXT',
      NT_CATEGORY: 'TEXT',
      IS_PINNED: 'INTEGER',
      NT_SORT: 'INTEGER',
      NT_SCORE: 'double precision',
    });
    expect(notice.primaryKey).toEqual(['ID']);
    expect(notice.indexes.find((i) => i.unique && i.columns.length === 1 && i.columns[0]!.name === 'NT_CODE')).toBeDefined();
    expect(notice.indexes.find((i) => i.name === 'FIXTURE_NOTICE_ORDER')?.columns).toEqual([
      { name: 'IS_PINNED', desc: true },
      { name: 'NT_SORT', desc: false },
      { name: 'ID', desc: false },
    ]);

    // Defaults from the schema, or 0 / '' / null.
    await db.insertInto('FIXTURE_NOTICE').values({ NT_CODE: 'n1', NT_TITLE: '公告' }).execute();
    expect(await db.selectFrom('FIXTURE_NOTICE').selectAll().executeTakeFirst()).toEqual({
      ID: 1,
      NT_CODE: 'n1',
      NT_TITLE: '公告',
      NT_BODY: '',
      NT_DATE: '',
      NT_CATEGORY: 'general',
      IS_PINNED: 0,
      NT_SORT: 0,
      NT_SCORE: null,
    });
    await expect(db.insertInto('FIXTURE_NOTICE').values({ NT_CODE: 'n1', NT_TITLE: '重复' }).execute()).rejects.toThrow(/UNIQUE/);

    // The server's own list queries read the new indexes in order.
    const database = { db, dialect: 'sqlite' } as unknown as Db;
    const shapes: Record<string, string>[] = [{}, { NtCategory: 'general' }];
    for (const equals of shapes) {
      const { rows } = listQueries(database, noticeResource, {
        equals,
        contains: {},
        order: parseOrderName(undefined, noticeResource),
        page: { index: 2, size: 15 },
        limit: 15,
      });
      const compiled = rows.compile();
      const plan = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
      const detail = plan.rows.map((r) => r.detail).join('\n');
      expect(detail, JSON.stringify(equals)).toMatch(/USING (COVERING )?INDEX FIXTURE_NOTICE_/);
      expect(detail).not.toMatch(/TEMP B-TREE/);
    }

    // Running it again changes nothing (ifNotExists everywhere).
    await generated.module.up(db, 'sqlite');
    expect(await db.selectFrom('FIXTURE_NOTICE').select('NT_CODE').execute()).toEqual([{ NT_CODE: 'n1' }]);
  });

  it.each([
    ['a new table', withNotice, 'fixture_notice'],
    ['new columns on a table with rows', withVideoLevel, 'video_level'],
    ['a new table with fields unique together', withTally, 'fixture_tally'],
    ['a new table whose documents are searched', withSearchedNotice, 'fixture_searched_notice'],
    ['a table whose documents are no longer searched', withoutArticleSearch, 'no_article_search'],
  ] as const)('writes a file that type-checks and lints clean, as it will be kept: %s', async (_case, descriptors, slug) => {
    const generated = await generatedMigration(descriptors, slug);
    cleanups.push(generated.cleanup);
    const program = ts.createProgram([generated.file], {
      strict: true,
      noEmit: true,
      noUncheckedIndexedAccess: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      skipLibCheck: true,
      types: [],
    });
    const errors = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(errors).toEqual([]);
    const [result] = await new ESLint({ cwd: REPO }).lintText(generated.source, {
      filePath: path.join(REPO, `server/src/db/migrations/${generated.name}.ts`),
    });
    expect(result!.messages.map((m) => `${m.line}: ${m.message}`)).toEqual([]);
  });
});

describe('the generator, given entities that gain or lose `fullText`', () => {
  /** An FTS5 table's definition as SQLite keeps it, its name left out. */
  const definition = async (db: RawDb, table: string) =>
    (await sql<{ sql: string }>`select sql from sqlite_master where name = ${table}`.execute(db)).rows[0]?.sql.replace(table, 'T');

  it('plans an FTS5 table for an entity that declares it, and nothing for the two of 011', async () => {
    const diff = diffSchema(withSearchedNotice, await migratedShape(MIGRATIONS));
    expect(diff.createFullText).toEqual([{ table: 'FIXTURE_SEARCHED_NOTICE', resources: ['fixtureSearchedNotice'] }]);
    expect(diff.dropFullText).toEqual([]);
    expect(describeDiff(diff)).toContain('new full-text index FIXTURE_SEARCHED_NOTICE_FTS (FTS5, SQLite) for fixtureSearchedNotice; its records queued for the indexer');
    // PostgreSQL's index is FT_PAGE's tsvector, one for every table: nothing to plan there.
    expect(diffSchema(withSearchedNotice, await migratedShape(MIGRATIONS), 'postgres').createFullText).toEqual([]);
  });

  it("writes a migration that makes its FTS5 table as 011 made the articles', and a search finds its records", async () => {
    const generated = await generatedMigration(withSearchedNotice, 'fixture_searched_notice');
    cleanups.push(generated.cleanup);
    const db = memoryDb();
    cleanups.push(() => db.destroy());
    await runMigrations(db, 'sqlite', generated.all);
    expect(describeDiff(diffSchema(withSearchedNotice, await introspect(db, 'sqlite')))).toEqual([]);
    expect(await definition(db, 'FIXTURE_SEARCHED_NOTICE_FTS')).toBe(await definition(db, 'DOC_ARTICLE_FTS'));

    await db.insertInto('FIXTURE_SEARCHED_NOTICE').values({ NT_CODE: 'n1', NT_TITLE: '造价通知', IS_PINNED: 1 }).execute();
    await db.insertInto('FIXTURE_SEARCHED_NOTICE').values({ NT_CODE: 'n2', NT_TITLE: '其他通知' }).execute();
    const pages = (text: string) => [{ source: 'content', fileName: '', fileUrl: '', page: 0, text }];
    await insertPages(db, 'sqlite', searchedNoticeResource, { Id: 1, IsPinned: 1 }, 1, pages('建设工程造价由分部分项工程费组成'), { type: 1, category: null });
    await insertPages(db, 'sqlite', searchedNoticeResource, { Id: 2, IsPinned: 0 }, 2, pages('本通知与工程无关'), { type: 0, category: null });
    const database = { db, dialect: 'sqlite' } as unknown as Db;
    const found = async (text: string, type?: number) =>
      (await searchFullText(database, searchedNoticeResource, { text, ...(type === undefined ? {} : { type }), pageIndex: 1, pageSize: 20 })).rows.map((r) => [r.Id, r.NtTitle, r.Source]);
    expect(await found('程造价')).toEqual([[1, '造价通知', 'content']]);
    expect(await found('工程')).toHaveLength(2);
    expect(await found('工程', 0)).toEqual([[2, '其他通知', 'content']]);
  });

  it('queues the records of an existing table that gains it', async () => {
    const db = memoryDb();
    cleanups.push(() => db.destroy());
    await runMigrations(db, 'sqlite', MIGRATIONS);
    await db.insertInto('VIDEO_TYPE').values({ VDT_CODE: 't1', VDT_NAME: '一' }).execute();
    await db.insertInto('VIDEO').values({ VD_CODE: 'v1', VDT_CODE: 't1', VD_NAME: '甲' }).execute();
    await db.insertInto('VIDEO').values({ VD_CODE: 'v2', VDT_CODE: 't1', VD_NAME: '乙' }).execute();
    const generated = await generatedMigration(withSearchedVideo, 'video_search');
    cleanups.push(generated.cleanup);
    expect(describeDiff(generated.diff)).toEqual(['new full-text index VIDEO_FTS (FTS5, SQLite) for video; its records queued for the indexer']);
    await runMigrations(db, 'sqlite', generated.all);
    expect(describeDiff(diffSchema(withSearchedVideo, await introspect(db, 'sqlite')))).toEqual([]);
    expect(await db.selectFrom('FT_JOB').select(['TBL', 'RECORD_ID', 'STATE']).orderBy('RECORD_ID').execute()).toEqual([
      { TBL: 'VIDEO', RECORD_ID: 1, STATE: 'waiting' },
      { TBL: 'VIDEO', RECORD_ID: 2, STATE: 'waiting' },
    ]);
    // Again: nothing changes, no record queued twice.
    await generated.module.up(db, 'sqlite');
    expect(await db.selectFrom('FT_JOB').select('RECORD_ID').execute()).toHaveLength(2);
  });

  it('drops the index of a table whose entity no longer declares it, with its pages and queue, and keeps the others', async () => {
    const db = memoryDb();
    cleanups.push(() => db.destroy());
    await runMigrations(db, 'sqlite', MIGRATIONS);
    const article = RESOURCES.find((d) => d.table === 'DOC_ARTICLE')!;
    const tykj = RESOURCES.find((d) => d.table === 'TYKJ_ARTICLE')!;
    const page = [{ source: 'content', fileName: '', fileUrl: '', page: 0, text: '工程造价' }];
    await insertPages(db, 'sqlite', article, { Id: 1 }, 1, page, { type: 0, category: null });
    await insertPages(db, 'sqlite', tykj, { Id: 1 }, 1, page, { type: 0, category: null });
    await db.insertInto('FT_JOB').values({ TBL: 'DOC_ARTICLE', RECORD_ID: 2, DUE_AT: '2026-01-01T00:00:00.000Z' }).execute();

    const generated = await generatedMigration(withoutArticleSearch, 'no_article_search');
    cleanups.push(generated.cleanup);
    expect(generated.diff.dropFullText).toEqual(['DOC_ARTICLE']);
    expect(describeDiff(generated.diff)).toEqual(['drop the full-text index of DOC_ARTICLE (DOC_ARTICLE_FTS, its pages and queue): no entity of it declares fullText']);
    await runMigrations(db, 'sqlite', generated.all);
    const shape = await introspect(db, 'sqlite');
    expect(describeDiff(diffSchema(withoutArticleSearch, shape))).toEqual([]);
    expect(shape.has('DOC_ARTICLE_FTS')).toBe(false);
    expect(shape.get('TYKJ_ARTICLE_FTS')?.module).toBe('fts5');
    expect(await db.selectFrom('FT_PAGE').select('TBL').execute()).toEqual([{ TBL: 'TYKJ_ARTICLE' }]);
    expect(await db.selectFrom('FT_JOB').select('TBL').execute()).toEqual([]);
    // Taken back: the generator plans the index again.
    expect(diffSchema(RESOURCES, shape).createFullText).toEqual([{ table: 'DOC_ARTICLE', resources: ['article'] }]);
  });
});

describe('the generator, given fields declared unique together', () => {
  it('plans a unique index on them, which also serves the lists under the first in the order of the second', async () => {
    const diff = diffSchema(withTally, await migratedShape(MIGRATIONS));
    expect(diff.createTables.map((t) => t.table)).toEqual(['FIXTURE_TALLY']);
    expect(diff.createIndexes.map((i) => [i.name, i.unique === true, i.columns.map((c) => c.name).join(', ')])).toEqual([
      ['FIXTURE_TALLY_VD_CODE_TL_DAY_UNIQUE', true, 'VD_CODE, TL_DAY'],
    ]);
    expect(describeDiff(diff)).toContain(
      'new unique index FIXTURE_TALLY_VD_CODE_TL_DAY_UNIQUE on FIXTURE_TALLY (VD_CODE, TL_DAY) for fixtureTally: one row per VdCode, TlDay',
    );
  });

  it('writes a migration whose table keeps one row per pair, adds to it in place, and lists from the pair', async () => {
    const generated = await generatedMigration(withTally, 'fixture_tally');
    cleanups.push(generated.cleanup);
    const db = memoryDb();
    cleanups.push(() => db.destroy());
    await runMigrations(db, 'sqlite', generated.all);
    const shape = await introspect(db, 'sqlite');
    expect(describeDiff(diffSchema(withTally, shape))).toEqual([]);
    expect(shape.get('FIXTURE_TALLY')!.indexes.find((i) => i.name === 'FIXTURE_TALLY_VD_CODE_TL_DAY_UNIQUE')).toEqual({
      name: 'FIXTURE_TALLY_VD_CODE_TL_DAY_UNIQUE',
      unique: true,
      columns: [
        { name: 'VD_CODE', desc: false },
        { name: 'TL_DAY', desc: false },
      ],
    });

    await db.insertInto('FIXTURE_TALLY').values({ VD_CODE: 'v1', TL_DAY: '2026-01-01', TL_COUNT: 1 }).execute();
    await expect(db.insertInto('FIXTURE_TALLY').values({ VD_CODE: 'v1', TL_DAY: '2026-01-01', TL_COUNT: 1 }).execute()).rejects.toThrow(/UNIQUE/);
    await db.insertInto('FIXTURE_TALLY').values([{ VD_CODE: 'v1', TL_DAY: '2026-01-02', TL_COUNT: 1 }, { VD_CODE: 'v2', TL_DAY: '2026-01-01', TL_COUNT: 1 }]).execute();
    // The pair is the target of an upsert: the day's row grows in place.
    await db
      .insertInto('FIXTURE_TALLY')
      .values({ VD_CODE: 'v1', TL_DAY: '2026-01-01', TL_COUNT: 1 })
      .onConflict((oc) => oc.columns(['VD_CODE', 'TL_DAY']).doUpdateSet({ TL_COUNT: sql`${sql.ref('FIXTURE_TALLY.TL_COUNT')} + 1` }))
      .execute();
    expect(await db.selectFrom('FIXTURE_TALLY').select(['VD_CODE', 'TL_DAY', 'TL_COUNT']).orderBy('ID').execute()).toEqual([
      { VD_CODE: 'v1', TL_DAY: '2026-01-01', TL_COUNT: 2 },
      { VD_CODE: 'v1', TL_DAY: '2026-01-02', TL_COUNT: 1 },
      { VD_CODE: 'v2', TL_DAY: '2026-01-01', TL_COUNT: 1 },
    ]);

    const { rows } = listQueries({ db, dialect: 'sqlite' } as unknown as Db, tallyResource, {
      equals: { VdCode: 'v1' },
      contains: {},
      order: parseOrderName(undefined, tallyResource),
      page: { index: 1, size: 15 },
      limit: 15,
    });
    const compiled = rows.compile();
    const plan = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
    const detail = plan.rows.map((r) => r.detail).join('\n');
    expect(detail).toMatch(/USING (COVERING )?INDEX FIXTURE_TALLY_VD_CODE_TL_DAY_UNIQUE/);
    expect(detail).not.toMatch(/TEMP B-TREE/);
  });

  it('refuses to make a pair unique on a table that exists without it: its rows may repeat a pair', async () => {
    const generated = await generatedMigration(withTally, 'fixture_tally');
    cleanups.push(generated.cleanup);
    const shape = new Map(await migratedShape(generated.all));
    const tally = shape.get('FIXTURE_TALLY')!;
    shape.set('FIXTURE_TALLY', { ...tally, indexes: tally.indexes.filter((i) => !i.unique || i.columns.length !== 2) });
    const diff = diffSchema(withTally, shape);
    expect(diff.problems).toEqual([
      'FIXTURE_TALLY: VdCode, TlDay are declared unique together but not unique in the table (existing duplicates must be resolved by hand)',
    ]);
    expect(() => renderMigration(diff, '099_x')).toThrow(/cannot generate/);
  });
});

describe('the generator, given new fields and a new filter on a table with rows', () => {
  it('adds the columns with defaults, keeps every row as it was, indexes the filter and recounts the totals', async () => {
    const db = memoryDb();
    cleanups.push(() => db.destroy());
    await runMigrations(db, 'sqlite', MIGRATIONS);
    await db
      .insertInto('VIDEO_TYPE')
      .values([
        { VDT_CODE: 't1', VDT_NAME: '一' },
        { VDT_CODE: 't2', VDT_NAME: '二' },
      ])
      .execute();
    await db
      .insertInto('VIDEO')
      .values([
        // One shape per row: SQLite has no DEFAULT in a multi-row insert.
        { VD_CODE: 'v1', VDT_CODE: 't1', VD_NAME: '甲', VD_TIME: '2025-01-01', IS_TOP: 1, VD_URL: '/files/v/a.mp4', VD_ENCLOSURE: '[]' },
        { VD_CODE: 'v2', VDT_CODE: 't1', VD_NAME: '乙', VD_TIME: '2025-02-01', IS_TOP: 0, VD_URL: '/files/v/b.mp4', VD_ENCLOSURE: '[]' },
        { VD_CODE: 'v3', VDT_CODE: 't2', VD_NAME: '丙', VD_TIME: '2025-03-01', IS_TOP: 0, VD_URL: '', VD_ENCLOSURE: '[{"name":"x"}]' },
      ])
      .execute();
    const video = RESOURCES.find((d) => d.resource === 'video')!;
    await rebuildCounts(db, video);
    const before = await db.selectFrom('VIDEO').selectAll().orderBy('ID').execute();

    const generated = await generatedMigration(withVideoLevel, 'video_level');
    cleanups.push(generated.cleanup);
    expect(describeDiff(generated.diff)).toEqual([
      'new column VIDEO.VD_LEVEL integer not null default 1 (VdLevel)',
      `new column VIDEO.VD_SUBTITLE text not null default "无'" (VdSubtitle)`,
      'new column VIDEO.VD_RATING double precision (VdRating)',
      'new index VIDEO_VD_LEVEL_ORDER on VIDEO (VD_LEVEL, IS_TOP, VD_TIME, ID) for video by VdLevel',
      'new index VIDEO_VDT_CODE_VD_LEVEL_ORDER on VIDEO (VDT_CODE, VD_LEVEL, IS_TOP, VD_TIME, ID) for video by VdtCode, VdLevel',
      'totals of VIDEO (ROW_COUNT) counted again for its filters',
    ]);
    expect(generated.source).toMatch(/alterTable\('VIDEO'\)\.addColumn\('VD_LEVEL'/);
    expect(generated.source).not.toMatch(/drop|createTable|update /i);

    await runMigrations(db, 'sqlite', generated.all);
    const after = await db.selectFrom('VIDEO').selectAll().orderBy('ID').execute();
    expect(after).toEqual(before.map((row) => ({ ...row, VD_LEVEL: 1, VD_SUBTITLE: "无'", VD_RATING: null })));
    expect(describeDiff(diffSchema(withVideoLevel, await introspect(db, 'sqlite')))).toEqual([]);

    // The totals are those the repository keeps for the new filter sets.
    const counts = () => db.selectFrom('ROW_COUNT').selectAll().where('TABLE_NAME', '=', 'VIDEO').orderBy('FILTER_KEY').execute();
    const migrated = await counts();
    expect(migrated.find((r) => r.FILTER_KEY === 'VDT_CODE=t1|VD_LEVEL=1')?.ROW_COUNT).toBe(2);
    await rebuildCounts(db, videoWithLevel);
    expect(migrated).toEqual(await counts());
  });
});

describe('the comparison', () => {
  const base = RESOURCES.find((d) => d.resource === 'video')!;
  const descriptor = (over: Partial<ResourceDescriptor>): ResourceDescriptor => ({ ...base, references: [], ...over });

  it('indexes the filter shapes the lists use', () => {
    // Every subset of the filters of a counted resource.
    expect(indexedShapes(descriptor({ filters: ['VdtCode', 'VdPer'] }))).toEqual([[], ['VdtCode'], ['VdPer'], ['VdtCode', 'VdPer']]);
    // A few-valued filter (an enum) adds nothing to an index.
    expect(indexedShapes(descriptor({ filters: ['VdtCode', 'IsTop'] }))).toEqual([[], ['VdtCode']]);
    // Administrators' lists: each filter alone.
    expect(indexedShapes(descriptor({ module: 'admin', filters: ['VdtCode', 'VdPer'] }))).toEqual([[], ['VdtCode'], ['VdPer']]);
    // Records deleted with their parent are listed under one parent.
    const cascade = { field: 'VdtCode', to: 'videoType', toField: 'VdtCode', missing: '-', onDelete: 'cascade' } as const;
    expect(indexedShapes(descriptor({ filters: ['VdtCode', 'VdPer'], references: [cascade] }))).toEqual([['VdtCode'], ['VdtCode', 'VdPer']]);
    // A filter copied from the record another filter references follows from it, unless the reference has a root.
    const copying = { ...cascade, onDelete: 'refuse', copy: { VdtName: 'VdPer' } } as const;
    expect(indexedShapes(descriptor({ filters: ['VdtCode', 'VdPer'], references: [copying] }))).toEqual([[], ['VdtCode'], ['VdPer']]);
    expect(indexedShapes(descriptor({ filters: ['VdtCode', 'VdPer'], references: [{ ...copying, root: '0' }] }))).toHaveLength(4);
  });

  it('gives each sortable column an index of its own under every filter shape', () => {
    const d = descriptor({ filters: ['VdtCode'], sortable: ['VdNum'] });
    const [spec] = requiredTables([d]);
    const sorted = spec!.indexes.filter((i) => i.purpose.endsWith('sorted by VdNum'));
    expect(sorted.map((i) => [i.lead, i.order.map((o) => `${o.name}${o.desc ? ' desc' : ''}`)])).toEqual([
      [[], ['VD_NUM', 'ID']],
      [[toColumn('VdtCode')], ['VD_NUM', 'ID']],
    ]);
    expect(requiredTables([descriptor({ filters: ['VdtCode'] })])[0]!.indexes.some((i) => i.purpose.includes('sorted by'))).toBe(false);
  });

  it('accepts an index whose lead columns come in any order and whose order runs either way', () => {
    const need = { lead: ['A', 'B'], order: [{ name: 'X', desc: true }, { name: 'ID', desc: false }], purpose: 'test' };
    const index = (...columns: [string, boolean][]) => ({ name: 'I', unique: false, columns: columns.map(([name, desc]) => ({ name, desc })) });
    expect(serves(index(['B', false], ['A', false], ['X', true], ['ID', false]), need)).toBe(true);
    expect(serves(index(['A', false], ['B', false], ['X', false], ['ID', true], ['Z', false]), need)).toBe(true);
    expect(serves(index(['A', false], ['B', false], ['X', false], ['ID', false]), need)).toBe(false);
    expect(serves(index(['A', false], ['X', true], ['B', false], ['ID', false]), need)).toBe(false);
    expect(serves(index(['A', false], ['B', false], ['X', true]), need)).toBe(false);
  });

  it('takes an index unique on the lead and the first columns of the order as serving it: no two rows tie past them', () => {
    const need = { lead: ['A'], order: [{ name: 'X', desc: true }, { name: 'ID', desc: true }], purpose: 'test' };
    const index = (unique: boolean, ...names: string[]) => ({ name: 'I', unique, columns: names.map((name) => ({ name, desc: false })) });
    expect(serves(index(true, 'A', 'X'), need)).toBe(true);
    expect(serves(index(false, 'A', 'X'), need)).toBe(false);
    expect(serves(index(true, 'X', 'A'), need)).toBe(false);
    // At most one row for the lead: any order is kept.
    expect(serves(index(true, 'A'), need)).toBe(true);
    // NULLs never conflict: a nullable column of the order may tie.
    expect(serves(index(true, 'A', 'X'), need, new Set(['X']))).toBe(false);
  });

  const table = (over: Partial<TableInfo>): TableInfo => ({ name: 'VIDEO', columns: new Map(), primaryKey: ['ID'], indexes: [], ...over });

  it('names a new index apart from every existing index and table', () => {
    const columns = new Map(Object.keys(base.schema.properties).map((f) => [toColumn(f), f === 'Id' ? 'INTEGER' : 'TEXT']));
    const shape: DatabaseShape = new Map([
      ['VIDEO', table({ columns, indexes: [{ name: 'VIDEO_VD_CODE', unique: true, columns: [{ name: 'VD_CODE', desc: false }] }] })],
      // A table holding the name the first index would take.
      ['VIDEO_ORDER', table({ name: 'VIDEO_ORDER' })],
    ]);
    const diff = diffSchema([base], shape);
    expect(diff.createIndexes.map((i) => i.name)).toEqual(['VIDEO_ORDER_2', 'VIDEO_VDT_CODE_ORDER']);
  });

  it('refuses what only a hand-written migration can do, and writes nothing then', async () => {
    const shape = new Map(await migratedShape(MIGRATIONS));
    const video = shape.get('VIDEO')!;
    const columns = new Map(video.columns);
    columns.delete('VD_CODE');
    shape.set('VIDEO', { ...video, columns, indexes: video.indexes.filter((i) => !i.columns.some((c) => c.name === 'VD_CODE')) });
    shape.set('USEWEB', { ...shape.get('USEWEB')!, primaryKey: [] });
    const diff = diffSchema(RESOURCES, shape);
    expect(diff.problems).toEqual([
      'USEWEB: needs an integer primary key ID (a table rebuild: write that migration by hand)',
      'VIDEO: the code field VdCode (VD_CODE) is missing; existing rows need distinct codes before it can be unique (write that migration by hand)',
    ]);
    expect(diff.addColumns).toEqual([]);
    expect(isEmpty(diff)).toBe(false);
    expect(() => renderMigration(diff, '007_x')).toThrow(/cannot generate/);
  });

  it('numbers the next migration after the last', () => {
    expect(nextMigrationName(Object.keys(MIGRATIONS), 'Notice board')).toBe(`${String(Object.keys(MIGRATIONS).length + 1).padStart(3, '0')}_notice_board`);
    expect(nextMigrationName(['001_a', '012_b'], 'x')).toBe('013_x');
    expect(() => nextMigrationName([], '--')).toThrow();
  });

  it('lists as entities only the files of schemas/ that declare one', () => {
    const files = entityFiles(path.join(REPO, 'schemas'));
    expect(files).toEqual([...files].sort());
    for (const f of ['descriptor', 'fields', 'index', 'entities', 'permissions']) expect(files).not.toContain(f);
    expect(new Set(RESOURCES.map((d) => d.table)).size).toBeGreaterThan(0);
  });
});
