import { defineResource } from './descriptor';
import { httpUrlField, idField, requiredTextField, sortField } from './fields';
import type { JSONSchema } from 'json-schema-to-ts';

export const usewebSchema = {
  type: 'object',
  title: '常用网站',
  properties: {
    Id: idField,
    UwName: requiredTextField('网站名称', 100),
    UwUrl: httpUrlField('网站链接'),
    UwType: { type: 'integer', title: '类型', minimum: 0, maximum: 1000, default: 0 },
    UwSort: sortField('排序'),
  },
  required: ['UwName', 'UwUrl'],
} as const satisfies JSONSchema;

export const usewebResource = defineResource({
  resource: 'useweb',
  label: '常用网站',
  service: 'Ajax',
  table: 'USEWEB',
  schema: usewebSchema,
  calls: {
    list: 'GetUsewebListInAdmin',
    create: 'AddUseweb',
    update: 'UpdateUseweb',
    delete: 'DelUseweb',
  },
  defaultOrder: 'UW_SORT ASC',
  module: 'useweb',
  listColumns: [{ field: 'UwName' }, { field: 'UwUrl', render: 'link' }],
  searchFields: [],
  filters: [],
  pageSize: 15,
  dialog: { width: 600, title: '详情' },
  modules: [{ key: 'useweb', label: '常用网站管理' }],
  screens: [
    { path: '/useweb', label: '常用网站管理', module: 'useweb', component: 'useweb/UsewebList', menu: [{ group: '常用网站', order: 40, icon: 'Language' }] },
  ],
  createDefaults: { UwSort: 'last' },
  audit: { nameField: 'UwName' },
});
