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
} from './fields';
import type { JSONSchema } from 'json-schema-to-ts';

export const standardArticleSchema = {
  type: 'object',
  title: '文章',
  properties: {
    Id: idField,
    SaCode: codeField('文章编码'),
    ScCode: requiredTextField('所属分类', 64),
    SaType: { type: 'integer', title: '内容类型', enum: [0, 1], default: 0 },
    SaName: requiredTextField('文章名称', 200),
    PublishTime: dateField('发布时间'),
    SaCodeName: textField('文号', 100),
    IsCommon: flagField('是否置顶'),
    SaSort: sortField('排序'),
    SaProblem: richTextField('问题'),
    SaAnswer: richTextField('统一回答'),
    SaPdfUrl: fileListField('文件'),
    SaPdfContent: richTextField('内容'),
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
  dialog: { width: 900, title: '文章目录详情' },
} as const;

/** Document catalogues (标准图集, 法律法规, 造价刊物, 公司通用文档) on /Xcx1/. */
export const articleResource = defineResource({
  ...shared,
  resource: 'article',
  label: '文章',
  service: 'Xcx1',
  table: 'DOC_ARTICLE',
  module: 'article',
  listColumns: [
    { field: 'SaSort' },
    { field: 'SaName' },
    { field: 'SaCodeName' },
    { field: 'IsCommon', render: 'flag', flagLabels: ['是', '否'] },
    { field: 'PublishTime', render: 'date' },
  ],
  searchFields: ['SaName', 'SaCodeName'],
  filters: ['ScCode', 'type'],
});

/** Unified answers (统一口径) on /Xcx3/. */
export const tykjArticleResource = defineResource({
  ...shared,
  resource: 'tykjArticle',
  label: '统一口径',
  service: 'Xcx3',
  table: 'TYKJ_ARTICLE',
  module: 'tykj',
  listColumns: [{ field: 'SaSort' }, { field: 'SaName' }, { field: 'PublishTime', render: 'date' }],
  searchFields: ['SaName'],
  filters: ['ScCode', 'type'],
});
