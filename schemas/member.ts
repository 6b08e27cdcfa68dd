import { defineResource } from './descriptor';
import { codeField, flagField, idField, requiredTextField, textField } from './fields';
import type { JSONSchema } from 'json-schema-to-ts';

/** A permission string: a comma-separated subset of 1,2,3,4,a. */
export const PERMISSION_STRING_PATTERN = '^([1234a](,[1234a])*)?$';


export const memberSchema = {
  type: 'object',
  title: '成员',
  properties: {
    Id: idField,
    AuCode: codeField('成员编码'),
    UserName: { type: 'string', title: '登录名', minLength: 2, maxLength: 32, pattern: '^[A-Za-z0-9_.-]+$' },
    AuName: requiredTextField('姓名', 50),
    OrganizationName: textField('单位', 100),
    IsAdmin: flagField('管理员'),
    IsDisabled: flagField('停用'),
    Modules: {
      type: 'object',
      title: '模块权限',
      // Keyed by the modules the entities declare (schemas/index.ts); the member calls refuse others.
      additionalProperties: { type: 'string', maxLength: 9, pattern: PERMISSION_STRING_PATTERN },
    },
    Password: { type: 'string', title: '密码', minLength: 6, maxLength: 128, writeOnly: true },
  },
  required: ['UserName', 'AuName'],
} as const satisfies JSONSchema;

export const memberResource = defineResource({
  resource: 'member',
  service: 'Ajax',
  schema: memberSchema,
  codeField: 'AuCode',
  calls: {
    list: 'GetMemberListInAdmin',
    one: 'GetSingleMemberInAdmin',
    create: 'AddMember',
    update: 'UpdateMember',
    delete: 'DelMember',
  },
  oneParam: 'Id',
  defaultOrder: 'ID ASC',
  module: 'admin',
  nameField: 'AuName',
  searchFields: ['UserName', 'AuName'],
  filters: [],
  pageSize: 15,
  dialog: { width: 600, title: '成员详情' },
  handWritten: ['list', 'one', 'create', 'update', 'delete'],
  screens: [{ label: '成员管理', component: 'member/MemberList', menu: [{ group: '系统管理', order: 50, icon: 'People' }] }],
  audit: true,
});
