import { defineResource } from './descriptor';
import { codeField, flagField, idField, optionalFileUrlField, requiredTextField, sortField } from './fields';
import type { JSONSchema } from 'json-schema-to-ts';

/** Code of the root of every classification tree. */
export const ROOT_CODE = '0';

export const standardClassifySchema = {
  type: 'object',
  title: '分类',
  properties: {
    Id: idField,
    ScCode: codeField('分类编码'),
    ScFatherCode: { type: 'string', title: '上级分类', maxLength: 64, minLength: 1, default: ROOT_CODE },
    ScName: requiredTextField('类型名称', 100),
    ScImg: optionalFileUrlField('封面图标'),
    ScPageimg: optionalFileUrlField('内页图标'),
    ScSort: sortField('类型排序'),
    ScIsFirst: flagField('首栏'),
    IsShow: flagField('前台显示', 1),
    type: { type: 'integer', title: '页面类型', minimum: 0, maximum: 99, default: 0 },
  },
  required: ['ScName'],
} as const satisfies JSONSchema;

const shared = {
  schema: standardClassifySchema,
  codeField: 'ScCode',
  calls: {
    list: 'GetStandardClassifyListInAdmin',
    create: 'CreateStandardClassifyInAdmin',
    update: 'UpdateStandardClassifyInAdmin',
    delete: 'DeleteStandardClassifyInAdmin',
  },
  defaultOrder: 'SC_SORT ASC',
  writeModule: 'classify',
  listColumns: [{ field: 'ScSort' }, { field: 'ScName' }],
  searchFields: [],
  filters: ['ScFatherCode', 'type'],
  pageSize: 15,
  dialog: { width: 700, title: '分类详情' },
} as const;

/** Classifications of the document catalogues on /Xcx1/ (type = document type 0..3). */
export const classifyResource = defineResource({
  ...shared,
  resource: 'classify',
  label: '文章分类',
  service: 'Xcx1',
  table: 'DOC_CLASSIFY',
  module: 'article',
  readModules: ['classify'],
});

/** Classifications of the unified answers on /Xcx3/. */
export const tykjClassifyResource = defineResource({
  ...shared,
  resource: 'tykjClassify',
  label: '统一口径分类',
  service: 'Xcx3',
  table: 'TYKJ_CLASSIFY',
  module: 'tykj',
  readModules: ['classify'],
});
