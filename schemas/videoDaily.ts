// The videos' daily figures (视频每日统计): plays and likes per video per business day (TIME_ZONE),
// one row per video and day. The server writes them in the same transaction as the video's
// counters (UpdateVideoNumAdd, UpdateVideoFabulousAdd), so that a video's rows add up to its
// counters; no call writes them otherwise, and they go with their video. Whoever may see videos
// may read them (the start page's figures). No screen or menu entry of their own.
import { defineResource } from './descriptor';
import { counterField, dateField, idField } from './fields';
import type { JSONSchema } from 'json-schema-to-ts';

export const videoDailySchema = {
  type: 'object',
  title: '视频每日统计',
  properties: {
    Id: idField,
    VdCode: { type: 'string', title: '视频编码', maxLength: 64, readOnly: true },
    // The business day of the counts, 'YYYY-MM-DD'.
    Day: { ...dateField('日期'), readOnly: true },
    // Named as the video's counters they follow.
    VdNum: counterField('点击量'),
    VdFabulous: counterField('点赞数'),
  },
  required: ['VdCode', 'Day'],
} as const satisfies JSONSchema;

export const videoDailyResource = defineResource({
  resource: 'videoDaily',
  service: 'Ajax',
  schema: videoDailySchema,
  // Read only: the counters' calls write the rows.
  calls: { list: 'GetVideoDailyListInAdmin' },
  defaultOrder: 'DAY DESC',
  // Read by whoever may see videos (video or videoView, code 2); no module of its own.
  module: 'video',
  readModules: ['videoView'],
  searchFields: [],
  filters: ['VdCode'],
  pageSize: 15,
  dialog: { width: 600 },
  references: [{ field: 'VdCode', to: 'video', toField: 'VdCode', missing: '视频不存在', onDelete: 'cascade' }],
  // One row per video and day: the target of the counters' upsert.
  unique: [['VdCode', 'Day']],
  // The start page's figures of a period, read from the index alone: plays and likes per day, and
  // the most watched videos.
  indexes: [['Day', 'VdCode', 'VdNum', 'VdFabulous']],
});
