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
  service: 'Ajax',
  schema: usewebSchema,
  calls: {
    list: 'GetUsewebListInAdmin',
    create: 'AddUseweb',
    update: 'UpdateUseweb',
    delete: 'DelUseweb',
  },
  defaultOrder: 'UW_SORT ASC',
  hidden: { list: ['UwType', 'UwSort'], form: ['UwType'] },
  nameField: 'UwName',
  searchFields: [],
  filters: [],
  pageSize: 15,
  dialog: { width: 600, title: '详情' },
  screens: [{ label: '常用网站管理', component: 'useweb/UsewebList', menu: [{ group: '常用网站', order: 40, icon: 'Language' }] }],
  createDefaults: { UwSort: 'last' },
  audit: true,
  homeCount: {},
});
