import { defineResource } from './descriptor';
import {
  codeField,
  counterField,
  dateField,
  fileListField,
  fileUrlField,
  flagField,
  idField,
  requiredTextField,
  sortField,
  textField,
  timestampField,
} from './fields';
import type { JSONSchema } from 'json-schema-to-ts';

export const videoSchema = {
  type: 'object',
  title: '视频',
  properties: {
    Id: idField,
    VdCode: codeField('视频编码'),
    VdtCode: requiredTextField('视频分类', 64),
    VdName: requiredTextField('视频名称', 100),
    VdPer: textField('视频主讲人', 50),
    VdNum: counterField('点击量'),
    VdTime: dateField('视频时间'),
    VdUrl: fileUrlField('视频'),
    VdSort: sortField('排序'),
    VdEnclosure: fileListField('讲义'),
    VdFabulous: counterField('点赞数'),
    IsTop: flagField('是否置顶'),
    UpdateTime: timestampField('更新时间'),
    CreateUser: { type: 'string', title: '创建人', readOnly: true },
    CreateAuCode: { type: 'string', title: '创建人编码', readOnly: true },
  },
  required: ['VdtCode', 'VdName', 'VdUrl'],
} as const satisfies JSONSchema;

export const videoResource = defineResource({
  resource: 'video',
  label: '视频',
  service: 'Ajax',
  table: 'VIDEO',
  schema: videoSchema,
  codeField: 'VdCode',
  calls: {
    list: 'GetVideoListInAdmin',
    one: 'GetSingleVideoInAdmin',
    create: 'AddVideo',
    update: 'UpdateVideo',
    delete: 'DelVideo',
  },
  oneParam: 'Id',
  defaultOrder: 'IS_TOP DESC, VD_TIME DESC',
  module: 'video',
  readModules: ['videoView'],
  listColumns: [
    { field: 'VdName' },
    { field: 'VdPer' },
    { field: 'VdTime', render: 'date' },
    { field: 'IsTop', render: 'flag', flagLabels: ['置顶', '不置顶'] },
    { field: 'VdNum', render: 'number' },
  ],
  searchFields: ['VdName'],
  filters: ['VdtCode'],
  pageSize: 15,
  dialog: { width: 600, title: '详情' },
});
