// Fixtures of the migration generator's tests (server/src/db/schemaDiff.spec.ts on SQLite,
// tests/api/migrations.test.ts on PostgreSQL too): an extra entity, a field and a filter added to an
// existing one, and the generated migration loaded as a module the way the command's file would be.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JSONSchema } from 'json-schema-to-ts';
import { defineResource, type ResourceDescriptor } from '../../schemas/descriptor';
import { codeField, dateField, flagField, idField, requiredTextField, richTextField, sortField } from '../../schemas/fields';
import { RESOURCES } from '../../schemas/index';
import { nextMigrationName } from '../../server/src/db/generatedFiles';
import { MIGRATIONS, type MigrationModule } from '../../server/src/db/migrations/index';
import { diffSchema, migratedShape, renderMigration, type SchemaDiff } from '../../server/src/db/schemaDiff';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const noticeSchema = {
  type: 'object',
  title: '通知公告',
  properties: {
    Id: idField,
    NtCode: codeField('公告编码'),
    NtTitle: requiredTextField('标题', 100),
    NtBody: richTextField('正文'),
    NtDate: dateField('发布日期'),
    NtCategory: { type: 'string', title: '栏目', maxLength: 64, default: 'general' },
    IsPinned: flagField('置顶'),
    NtSort: sortField('排序'),
    NtScore: { type: ['number', 'null'], title: '评分' },
    NtPasscode: { type: 'string', title: '口令', writeOnly: true },
  },
  required: ['NtTitle'],
} as const satisfies JSONSchema;

/**
 * 通知公告: a title, a rich-text body, a date, a pinned flag, a sort number and one filter. Named
 * apart from any real entity (a real `notice` is the docs' example of adding one).
 */
export const noticeResource = defineResource({
  resource: 'fixtureNotice',
  label: '测试公告',
  service: 'Ajax',
  table: 'FIXTURE_NOTICE',
  schema: noticeSchema,
  codeField: 'NtCode',
  calls: { list: 'GetFixtureNoticeListInAdmin', create: 'AddFixtureNotice', update: 'UpdateFixtureNotice', delete: 'DelFixtureNotice' },
  // Mixed directions: the index must hold them as they are.
  defaultOrder: 'IS_PINNED DESC, NT_SORT ASC',
  module: 'fixtureNotice',
  listColumns: [{ field: 'NtTitle' }, { field: 'NtDate', render: 'date' }],
  searchFields: ['NtTitle'],
  filters: ['NtCategory'],
  pageSize: 15,
  dialog: { width: 700, title: '公告详情' },
  modules: [{ key: 'fixtureNotice', label: '测试公告' }],
}) as unknown as ResourceDescriptor;

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
