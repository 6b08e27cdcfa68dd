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
  withHint,
  withRequiredMessage,
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
    VdTime: dateField('视频时间'),
    IsTop: flagField('是否置顶', 0, ['置顶', '不置顶']),
    VdNum: counterField('点击量'),
    VdUrl: withRequiredMessage(fileUrlField('视频'), '请上传视频!'),
    VdEnclosure: withHint(fileListField('讲义'), '可上传多个讲义文件（PDF、Office 文档、压缩包）'),
    VdSort: sortField('排序'),
    VdFabulous: counterField('点赞数'),
    UpdateTime: timestampField('更新时间'),
    CreateUser: { type: 'string', title: '创建人', readOnly: true },
    CreateAuCode: { type: 'string', title: '创建人编码', readOnly: true },
  },
  required: ['VdtCode', 'VdName', 'VdUrl'],
} as const satisfies JSONSchema;

export const videoResource = defineResource({
  resource: 'video',
  service: 'Ajax',
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
  readModules: ['videoView'],
  // The category is the screen's tab; the rest is the server's, or shown on the details page.
  hidden: {
    list: ['VdtCode', 'VdUrl', 'VdEnclosure', 'VdSort', 'VdFabulous', 'UpdateTime', 'CreateUser', 'CreateAuCode'],
    form: ['VdSort'],
  },
  nameField: 'VdName',
  searchFields: ['VdName'],
  filters: ['VdtCode'],
  pageSize: 15,
  dialog: { width: 600, title: '详情' },
  modules: [{ key: 'videoView' }],
  screens: [
    { label: '视频学习编辑', component: 'video/VideoList', menu: [{ group: '视频', order: 10, icon: 'VideoLibrary' }] },
    {
      path: '/Knowledge/VideoView',
      label: '在线视频',
      module: 'videoView',
      component: 'videoView/VideoViewList',
      menu: [{ group: '视频', order: 11, icon: 'OndemandVideo', match: ['/Knowledge/VideoView'] }],
    },
    { path: '/Knowledge/VideoView/Details', label: '视频详情', module: 'videoView', component: 'videoView/VideoDetails' },
  ],
  files: { VdUrl: 'video', VdEnclosure: 'handout' },
  references: [
    { field: 'VdtCode', to: 'videoType', toField: 'VdtCode', missing: '视频分类不存在', onDelete: 'refuse', refused: '该视频分类下还有视频，请先删除或移走视频' },
  ],
  createDefaults: { VdTime: 'today' },
  ownership: { field: 'CreateAuCode', actions: ['edit', 'delete'] },
  audit: true,
  homeCount: { by: 'VdtCode' },
});
