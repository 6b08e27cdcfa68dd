// Hand-written video calls: play and like counters, each counted in the video's daily figures too,
// and comments (authored by the session's member, sanitised, deletable by their author or an
// administrator).
import type { FastifyInstance } from 'fastify';
import { dayIn } from '../../../schemas/businessTime';
import { modulesFor } from '../../../schemas/permissions';
import { videoResource } from '../../../schemas/video';
import { videoCommentResource } from '../../../schemas/videoComment';
import { videoDailyResource } from '../../../schemas/videoDaily';
import { findRow, insertRow, deleteRow } from '../db/repository';
import { badRequest, constraintViolation, notFound } from '../errors';
import { clientGone } from '../http/clientGone';
import { MSG_PUBLISHED, ok } from '../http/envelope';
import { requireAccess, requireAnyCode, requireOwnership } from '../plugins/permissions';
import { RichTextRefused, richTextIsEmpty, sanitizeRichTexts } from '../richText';
import { writeRoute } from './crud';
import { idBodySchema, writeBodySchema } from './requestSchemas';

/** Whoever may see videos (on the study or the online screens) counts plays and likes. */
const VIEW_MODULES = modulesFor(videoResource, 'list');

export default async function videoRoutes(app: FastifyInstance) {
  const tags = [videoResource.label];

  for (const [call, field, summary] of [
    ['UpdateVideoNumAdd', 'VdNum', '播放量加一'],
    ['UpdateVideoFabulousAdd', 'VdFabulous', '点赞'],
  ] as const) {
    writeRoute(app, `/Ajax/${call}`, idBodySchema, { tags, summary }, async (request, body) => {
      await requireAnyCode(request, VIEW_MODULES, ['2']);
      // Not in the audit log: a play or a like is a viewer's use of a video, not a change by staff.
      // Counted on the business day's row of the video as well, in the same transaction, gathered
      // with the other counts of the moment (db/counterBatch.ts).
      const daily = { descriptor: videoDailyResource, day: dayIn(app.config.timeZone) };
      const value = await app.counters.increment(videoResource, Number(body.Id), field, daily);
      if (value === undefined) throw notFound('视频不存在或已被删除');
      return ok(value);
    }, { queuesNoIndexing: true });
  }

  const commentTags = [videoCommentResource.label];
  writeRoute(app, '/Ajax/AddVideoMessage', writeBodySchema(videoCommentResource, 'create'), { tags: commentTags, summary: '发表评论' }, async (request, body, reply) => {
    const member = await requireAccess(request, videoCommentResource, 'create');
    if (!(await findRow(app.database, videoResource, 'VdCode', String(body.VdCode)))) throw notFound('视频不存在或已被删除');
    // In the member's queue: 429/503 past its caps, dropped (nothing stored) if the client goes first.
    const [html = ''] = await sanitizeRichTexts([String(body.VmDes)], { member: member.AU_CODE, signal: clientGone(reply) });
    if (html instanceof RichTextRefused) throw badRequest(html.message, [{ field: 'VmDes', msg: html.message }]);
    if (richTextIsEmpty(html)) throw badRequest('评论内容不能为空', [{ field: 'VmDes', msg: '评论内容不能为空' }]);
    const row = await insertRow(app.database, videoCommentResource, {
      VdCode: body.VdCode,
      VmName: typeof body.VmName === 'string' ? body.VmName : '',
      VmDes: html,
      VmTime: new Date().toISOString(),
      AuCode: member.AU_CODE,
      AuName: member.AU_NAME,
      OrganizationName: member.ORGANIZATION_NAME,
    }, member).catch((err: unknown) => {
      // The video was deleted (by another request) after the check above.
      throw constraintViolation(err) === 'foreignKey' ? notFound('视频不存在或已被删除') : err;
    });
    return ok(row, MSG_PUBLISHED);
  });

  writeRoute(app, '/Ajax/DelVideoMessage', idBodySchema, { tags: commentTags, summary: '删除评论' }, async (request, body) => {
    // Its author's to delete, with sight of the comments (the descriptor's `ownership`).
    const member = await requireAccess(request, videoCommentResource, 'delete');
    const existing = await findRow(app.database, videoCommentResource, 'Id', Number(body.Id));
    if (!existing) throw notFound('评论不存在或已被删除');
    requireOwnership(member, videoCommentResource, 'delete', existing, '只能删除自己发表的评论');
    // Rich text may link to stored files: one the comment was the last to link to goes with it.
    const files = app.files.track(videoCommentResource);
    if (!(await deleteRow(app.database, videoCommentResource, Number(body.Id), member, files.hook))) throw notFound('评论不存在或已被删除');
    await files.settle();
    return ok(existing);
  });
}
