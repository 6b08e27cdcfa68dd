import { defineResource } from './descriptor';
import {
  codeField,
  dateField,
  fileListField,
  flagField,
  idField,
  requiredTextField,
  richTextField,
  sortField,
  textField,
  timestampField,
  withLabels,
} from './fields';
import type { JSONSchema } from 'json-schema-to-ts';

export const standardArticleSchema = {
  type: 'object',
  title: '文章',
  properties: {
    Id: idField,
    SaCode: codeField('文章编码'),
    ScCode: requiredTextField('所属分类', 64),
    SaType: withLabels({ type: 'integer', title: '内容类型', enum: [0, 1], default: 0 }, { 0: '文件上传', 1: '在线编辑' }),
    SaName: requiredTextField('文章名称', 200),
    SaCodeName: textField('文号', 100),
    SaSort: sortField('排序'),
    PublishTime: dateField('发布时间'),
    IsCommon: flagField('是否置顶'),
    SaPdfUrl: fileListField('文件'),
    SaPdfContent: richTextField('内容'),
    SaProblem: richTextField('问题'),
    SaAnswer: richTextField('统一回答'),
    SaUploadUrl: textField('上传地址', 1000),
    NiDescribe: textField('描述', 1000),
    type: { type: 'integer', title: '文档类型', readOnly: true },
    UpdateTime: timestampField('更新时间'),
    CreateUser: { type: 'string', title: '创建人', readOnly: true },
  },
  required: ['ScCode', 'SaName'],
} as const satisfies JSONSchema;

const shared = {
  schema: standardArticleSchema,
  codeField: 'SaCode',
  calls: {
    list: 'GetStandardArticleListInAdmin',
    one: 'GetStandardArticleInfoInAdmin',
    create: 'AddStandardArticleInAdmin',
    update: 'UpdateStandardArticleInAdmin',
    delete: 'DelStandardArticleInAdmin',
  },
  oneParam: 'Code',
  defaultOrder: 'SA_SORT ASC, IS_COMMON DESC, PUBLISH_TIME DESC',
  pageSize: 15,
  nameField: 'SaName',
  files: { SaPdfUrl: 'handout' },
  links: ['SaUploadUrl'],
  createDefaults: { PublishTime: 'today' },
  audit: true,
} as const;

/** The full-text search call of both catalogues (each on its own service). */
const SEARCH_CALL = 'SearchStandardArticleFullTextInAdmin';

/** The article document types (a catalogue's `type`): 标准图集, 法律法规, 造价刊物, 公司通用文档. */
export const ARTICLE_TYPES = ['标准图集', '法律法规', '造价刊物', '公司通用文档'] as const;
const ARTICLE_TYPE_ICONS = ['CollectionsBookmark', 'Gavel', 'MenuBook', 'Description'] as const;

/** An article belongs to a classification of its own service and takes that classification's type. */
const classifiedIn = (classify: string) =>
  ({
    field: 'ScCode',
    to: classify,
    toField: 'ScCode',
    missing: '所属分类不存在',
    missingHint: '请选择所属分类',
    onDelete: 'refuse',
    refused: '该分类下还有文章，请先删除或移走文章',
    copy: { type: 'type' },
  }) as const;

/** Not a column: the classification is the tree's, the type the page's; bodies and files show in 查看. */
const notListed = ['ScCode', 'SaType', 'SaUploadUrl', 'NiDescribe', 'SaPdfUrl', 'type', 'UpdateTime', 'CreateUser'] as const;
/** Not an input: the classification is the tree's; the legacy link and description are kept as they are. */
const notEdited = ['ScCode', 'SaUploadUrl', 'NiDescribe'] as const;

/** Document catalogues (标准图集, 法律法规, 造价刊物, 公司通用文档) on /Xcx1/. */
export const articleResource = defineResource({
  ...shared,
  resource: 'article',
  service: 'Xcx1',
  table: 'DOC_ARTICLE',
  searchFields: ['SaName', 'SaCodeName'],
  filters: ['ScCode', 'type'],
  dialog: { width: 900, title: '文章目录详情' },
  // A document is a file or an edited body; 问题 and 统一回答 are the unified answers'.
  hidden: { list: notListed, form: [...notEdited, 'SaProblem', 'SaAnswer'] },
  screens: [
    {
      path: '/Knowledge/Article/Catalogue',
      label: '文章目录',
      component: 'article/ArticleCatalogue',
      menu: ARTICLE_TYPES.map((label, type) => ({
        group: '文章',
        order: 20 + type,
        icon: ARTICLE_TYPE_ICONS[type]!,
        label,
        to: `/Knowledge/Article/Catalogue?type=${type}`,
      })),
    },
    {
      path: '/Knowledge/Article/Manage',
      label: '文章目录管理',
      component: 'article/ArticleManage',
      menu: [{ group: '文章', order: 24, icon: 'FolderOpen', to: '/Knowledge/Article/Manage?type=0', match: ['/Knowledge/Article/Manage'] }],
    },
    // The state of the index of the documents' contents (these catalogues' and 统一口径's), for administrators.
    {
      path: '/fullTextIndex',
      label: '全文索引',
      module: 'admin',
      component: 'fullText/FullTextIndexState',
      menu: [{ group: '系统管理', order: 52, icon: 'ManageSearch' }],
    },
  ],
  references: [classifiedIn('classify')],
  homeCount: { by: 'type' },
  // 全文: the words inside the uploaded files and the edited body.
  fullText: { call: SEARCH_CALL, files: ['SaPdfUrl'], richText: ['SaPdfContent'], sources: { SaPdfContent: 'content' } },
});

/** Unified answers (统一口径) on /Xcx3/. */
export const tykjArticleResource = defineResource({
  ...shared,
  resource: 'tykjArticle',
  label: '统一口径',
  service: 'Xcx3',
  table: 'TYKJ_ARTICLE',
  module: 'tykj',
  searchFields: ['SaName'],
  filters: ['ScCode', 'type'],
  dialog: { width: 900 },
  // An answer is a 问题 and its 统一回答, edited online.
  hidden: { list: [...notListed, 'SaCodeName', 'IsCommon'], form: [...notEdited, 'SaType', 'SaCodeName', 'IsCommon', 'SaPdfUrl', 'SaPdfContent'] },
  modules: [{ key: 'tykj' }],
  screens: [
    { path: '/Knowledge/TYKJ', component: 'tykj/TykjView', menu: [{ group: '统一口径', order: 30, icon: 'QuestionAnswer' }] },
    {
      path: '/Knowledge/TYKJ/Manage',
      label: '统一口径管理',
      component: 'tykj/TykjManage',
      menu: [{ group: '统一口径', order: 31, icon: 'FolderOpen' }],
    },
  ],
  references: [classifiedIn('tykjClassify')],
  homeCount: {},
  // 全文: the words of the 问题 and the 统一回答.
  fullText: { call: SEARCH_CALL, richText: ['SaProblem', 'SaAnswer'], sources: { SaProblem: 'problem', SaAnswer: 'answer' } },
});
