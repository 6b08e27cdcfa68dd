import { defineResource } from './descriptor';
import { codeField, idField, requiredTextField, sortField } from './fields';
import type { JSONSchema } from 'json-schema-to-ts';

export const videoTypeSchema = {
  type: 'object',
  title: '视频分类',
  properties: {
    Id: idField,
    VdtCode: codeField('分类编码'),
    VdtName: requiredTextField('名称', 50),
    VdtSort: sortField('排序'),
  },
  required: ['VdtName'],
} as const satisfies JSONSchema;

export const videoTypeResource = defineResource({
  resource: 'videoType',
  service: 'Ajax',
  schema: videoTypeSchema,
  codeField: 'VdtCode',
  calls: {
    list: 'GetVideoTypeListInAdmin',
    create: 'AddVideoType',
    update: 'UpdateVideoType',
    delete: 'DelVideoType',
  },
  defaultOrder: 'VDT_SORT ASC',
  readModules: ['video', 'videoView'],
  nameField: 'VdtName',
  searchFields: [],
  filters: [],
  pageSize: 15,
  dialog: { width: 500, title: '详情' },
  screens: [{ menu: [{ group: '视频', order: 12, icon: 'Category' }] }],
  audit: true,
});
