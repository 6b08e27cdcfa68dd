import { defineResource } from './descriptor';
import { idField, requiredTextField, richTextField, textField, timestampField } from './fields';
import type { JSONSchema } from 'json-schema-to-ts';

export const videoCommentSchema = {
  type: 'object',
  title: '视频评论',
  properties: {
    Id: idField,
    VdCode: requiredTextField('视频编码', 64),
    VmName: textField('标题', 100),
    VmDes: { ...richTextField('评论内容'), minLength: 1 },
    VmTime: timestampField('评论时间'),
    AuCode: { type: 'string', title: '作者编码', readOnly: true },
    AuName: { type: 'string', title: '作者', readOnly: true },
    OrganizationName: { type: 'string', title: '单位', readOnly: true },
  },
  required: ['VdCode', 'VmDes'],
} as const satisfies JSONSchema;

export const videoCommentResource = defineResource({
  resource: 'videoComment',
  service: 'Ajax',
  table: 'VIDEO_MESSAGE',
  schema: videoCommentSchema,
  calls: {
    list: 'GetVideoMessageListInAdmin',
    create: 'AddVideoMessage',
    delete: 'DelVideoMessage',
  },
  defaultOrder: 'VM_TIME DESC',
  module: 'videoView',
  readModules: ['video'],
  // Comments show on the video's details page (src/resources/videoView), not in a generated table.
  hidden: { list: ['VdCode', 'AuCode'] },
  nameField: 'VmDes',
  searchFields: [],
  filters: ['VdCode'],
  pageSize: 15,
  dialog: { width: 600, title: '发表评论' },
  handWritten: ['create', 'delete'],
  references: [{ field: 'VdCode', to: 'video', toField: 'VdCode', missing: '视频不存在', onDelete: 'cascade' }],
  ownership: { field: 'AuCode', actions: ['delete'], byOwnerWithView: true },
  audit: true,
  // The start page's latest comments, of every video.
  indexes: [['VmTime', 'Id']],
});
