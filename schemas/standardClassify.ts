import { defineResource } from './descriptor';
import { codeField, flagField, idField, optionalFileUrlField, requiredTextField, sortField, withHint } from './fields';
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
    ScSort: sortField('类型排序'),
    ScName: requiredTextField('类型名称', 100),
    IsShow: flagField('前台显示', 1),
    ScIsFirst: flagField('首栏'),
    ScImg: withHint(optionalFileUrlField('封面图标'), '建议尺寸 500*200'),
    ScPageimg: withHint(optionalFileUrlField('内页图标'), '建议尺寸 750*220'),
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
  // The parent and the page type are the screen's (the tree, the tab): neither a column nor an input.
  hidden: { list: ['ScFatherCode', 'IsShow', 'ScIsFirst', 'ScImg', 'ScPageimg', 'type'], form: ['ScFatherCode', 'type'] },
  nameField: 'ScName',
  searchFields: [],
  filters: ['ScFatherCode', 'type'],
  pageSize: 15,
  dialog: { width: 700, title: '分类详情' },
  files: { ScImg: 'image', ScPageimg: 'image' },
  // The type is fixed at creation: a child takes its parent's, a top-level classification its page's.
  fixedFields: ['type'],
  audit: true,
} as const;

/** Classifications form a tree under ROOT_CODE; a child has its parent's type and cannot leave it. */
const parentIn = (classify: string) =>
  ({
    field: 'ScFatherCode',
    to: classify,
    toField: 'ScCode',
    root: ROOT_CODE,
    missing: '上级分类不存在',
    onDelete: 'refuse',
    refused: '该分类下还有子分类，请先删除子分类',
    copy: { type: 'type' },
    copyMismatch: '不能移动到其他类型的分类下',
    cycle: '上级分类不能是该分类自身或其下级分类',
  }) as const;

/** Classifications of the document catalogues on /Xcx1/ (type = document type 0..3). */
export const classifyResource = defineResource({
  ...shared,
  resource: 'classify',
  label: '文章分类',
  service: 'Xcx1',
  table: 'DOC_CLASSIFY',
  module: 'article',
  readModules: ['classify'],
  modules: [{ key: 'classify' }],
  screens: [
    {
      path: '/Knowledge/Article/ClassifyManage/:type?',
      label: '分类管理',
      module: 'classify',
      component: 'classify/ClassifyManage',
      props: { service: 'article' },
      menu: [
        {
          group: '文章',
          order: 25,
          icon: 'AccountTree',
          to: '/Knowledge/Article/ClassifyManage/0',
          match: ['/Knowledge/Article/ClassifyManage', '/Knowledge/TYKJ/ClassifyManage'],
        },
      ],
    },
  ],
  references: [parentIn('classify')],
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
  screens: [
    { path: '/Knowledge/TYKJ/ClassifyManage', label: '分类管理', module: 'classify', component: 'classify/ClassifyManage', props: { service: 'tykj' } },
  ],
  references: [parentIn('tykjClassify')],
});
