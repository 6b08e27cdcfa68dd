// Fixtures of the migration generator's tests (server/src/db/schemaDiff.spec.ts on SQLite,
// tests/api/migrations.test.ts on PostgreSQL too): an extra entity, a field and a filter added to an
// existing one, and the generated migration loaded as a module the way the command's file would be.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JSONSchema } from 'json-schema-to-ts';
import type { ResourceDescriptor } from '../../schemas/descriptor';
import { flagField } from '../../schemas/fields';
import { noticeResource as fixtureNotice } from '../fixtures/notice';
import { RESOURCES } from '../../schemas/index';
import { nextMigrationName } from '../../server/src/db/generatedFiles';
import { MIGRATIONS, type MigrationModule } from '../../server/src/db/migrations/index';
import { diffSchema, migratedShape, renderMigration, type SchemaDiff } from '../../server/src/db/schemaDiff';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const base = fixtureNotice.schema.properties;

/** The docs' 通知公告 (tests/fixtures/notice.ts) with a filter, a nullable number and a write-only field. */
export const noticeSchema = {
  ...fixtureNotice.schema,
  properties: {
    Id: base.Id,
    NtCode: base.NtCode,
    NtTitle: base.NtTitle,
    NtBody: base.NtBody,
    NtDate: base.NtDate,
    NtCategory: { type: 'string', title: '栏目', maxLength: 64, default: 'general' },
    IsPinned: flagField('置顶'),
    NtSort: base.NtSort,
    NtScore: { type: ['number', 'null'], title: '评分' },
    NtPasscode: { type: 'string', title: '口令', writeOnly: true },
  },
} as const satisfies JSONSchema;

/** Named apart from the docs' `notice`, which tests/browser/extraEntity.test.ts adds for real. */
export const noticeResource = {
  ...fixtureNotice,
  resource: 'fixtureNotice',
  label: '测试公告',
  table: 'FIXTURE_NOTICE',
  schema: noticeSchema,
  calls: { list: 'GetFixtureNoticeListInAdmin', create: 'AddFixtureNotice', update: 'UpdateFixtureNotice', delete: 'DelFixtureNotice' },
  // Mixed directions: the index must hold them as they are.
  defaultOrder: 'IS_PINNED DESC, NT_SORT ASC',
  module: 'fixtureNotice',
  filters: ['NtCategory'],
  modules: [{ key: 'fixtureNotice', label: '测试公告' }],
  screens: [],
  createDefaults: {},
  audit: undefined,
} as unknown as ResourceDescriptor;

export const withNotice: readonly ResourceDescriptor[] = [...RESOURCES, noticeResource];

/** The video descriptor with three more fields, one of them a new filter. */
export const videoWithLevel: ResourceDescriptor = (() => {
  const video = RESOURCES.find((d) => d.resource === 'video')!;
  return {
    ...video,
    schema: {
      ...video.schema,
      properties: {
        ...video.schema.properties,
        VdLevel: { type: 'integer', title: '级别', minimum: 0, default: 1 },
        VdSubtitle: { type: 'string', title: '副标题', default: "无'" },
        VdRating: { type: ['number', 'null'], title: '评分' },
      },
    },
    filters: [...video.filters, 'VdLevel'],
  };
})();

export const withVideoLevel: readonly ResourceDescriptor[] = RESOURCES.map((d) => (d.resource === 'video' ? videoWithLevel : d));

/**
 * The migration the command would write for these descriptors after today's migrations, loaded
 * from a file as the command's would be (under .tmp/, where `kysely` resolves).
 */
export async function generatedMigration(
  descriptors: readonly ResourceDescriptor[],
  slug: string,
): Promise<{
  name: string;
  diff: SchemaDiff;
  source: string;
  file: string;
  module: MigrationModule;
  all: Record<string, MigrationModule>;
  cleanup(): void;
}> {
  const name = nextMigrationName(Object.keys(MIGRATIONS), slug);
  const diff = diffSchema(descriptors, await migratedShape(MIGRATIONS));
  const source = renderMigration(diff, name);
  fs.mkdirSync(path.join(REPO, '.tmp'), { recursive: true });
  const dir = fs.mkdtempSync(path.join(REPO, '.tmp', 'migration-'));
  const file = path.join(dir, `${name}.ts`);
  fs.writeFileSync(file, source);
  const module = (await import(file)) as MigrationModule;
  return { name, diff, source, file, module, all: { ...MIGRATIONS, [name]: module }, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A server-owned tally: one row per video and day (a pair declared `unique`), removed with its
 * video, read only. Its list under one video in day order is served by the unique pair alone.
 */
export const tallyResource = {
  resource: 'fixtureTally',
  label: '测试计数',
  service: 'Ajax',
  table: 'FIXTURE_TALLY',
  schema: {
    type: 'object',
    title: '测试计数',
    properties: {
      Id: { type: 'integer', title: 'ID', readOnly: true },
      VdCode: { type: 'string', title: '视频编码', maxLength: 64, readOnly: true },
      TlDay: { type: 'string', title: '日期', format: 'date', readOnly: true },
      TlCount: { type: 'integer', title: '次数', minimum: 0, readOnly: true },
    },
  },
  calls: { list: 'GetFixtureTallyListInAdmin' },
  defaultOrder: 'TL_DAY DESC',
  module: 'video',
  searchFields: [],
  filters: ['VdCode'],
  pageSize: 15,
  dialog: { width: 600, title: '测试计数' },
  references: [{ field: 'VdCode', to: 'video', toField: 'VdCode', missing: '视频不存在', onDelete: 'cascade' }],
  unique: [['VdCode', 'TlDay']],
} as unknown as ResourceDescriptor;

export const withTally: readonly ResourceDescriptor[] = [...RESOURCES, tallyResource];

/**
 * An entity whose documents are searched (`fullText`): the notice above on a table of its own, its
 * body indexed. On SQLite it needs an FTS5 table of its own (docs/fullText.md), which the generator writes.
 */
export const searchedNoticeResource = {
  ...noticeResource,
  resource: 'fixtureSearchedNotice',
  label: '测试检索公告',
  table: 'FIXTURE_SEARCHED_NOTICE',
  calls: { list: 'GetFixtureSearchedNoticeListInAdmin' },
  // The search's type filter: FT_PAGE.TYPE holds an integer (migration 011).
  filters: ['IsPinned'],
  fullText: { call: 'SearchFixtureSearchedNoticeFullText', richText: ['NtBody'], sources: { NtBody: 'content' } },
} as unknown as ResourceDescriptor;

export const withSearchedNotice: readonly ResourceDescriptor[] = [...RESOURCES, searchedNoticeResource];

/** The video descriptor declaring `fullText` (its handouts read): an existing table, with rows, gains an index. */
export const withSearchedVideo: readonly ResourceDescriptor[] = RESOURCES.map((d) =>
  d.resource === 'video' ? { ...d, fullText: { call: 'SearchFixtureVideoFullText', files: ['VdEnclosure'] } } : d,
);

/** The articles no longer declaring `fullText`: their index goes, 统一口径's stays. */
export const withoutArticleSearch: readonly ResourceDescriptor[] = RESOURCES.map((d) => (d.table === 'DOC_ARTICLE' ? { ...d, fullText: undefined } : d));
