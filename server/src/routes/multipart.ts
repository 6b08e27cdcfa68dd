// Large uploads in parts: the five calls behind the hooks of Uppy's @uppy/aws-s3 in multipart mode
// (createMultipartUpload, signPart, listParts, completeMultipartUpload, abortMultipartUpload).
// The bytes go straight to storage (the bucket, or /upload-part/ on this server); the server keeps
// an UPLOAD row per upload it started, so that only its starter can sign, list, complete or abort
// it, and checks the joined file (exact declared size, magic bytes) before anyone may use it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import type { UploadKind } from '../../../schemas/types';
import type { UploadTable } from '../db/tables';
import { ApiError, badRequest, forbidden, notFound } from '../errors';
import { ok } from '../http/envelope';
import { makePoster } from '../media/poster';
import { requireAnyCode, requireMember } from '../plugins/permissions';
import { expectedPartSize, partCount, partSizeFor, RejectedUpload } from '../storage/multipart';
import { recordFileName } from '../storage/names';
import { prepareUpload, UPLOAD_MODULES } from '../storage/policies';
import { uploadRequestSchema } from './upload';
import type { MultipartRef } from '../storage/types';
import { writeRoute } from './crud';

type UploadRow = Selectable<UploadTable>;

const NO_UPLOAD = '上传任务不存在或已结束，请重新上传';
/** Rows older than this are abandoned uploads; signed part URLs live one hour. */
const STALE_UPLOAD_MS = 24 * 3600 * 1000;

const refProperties = {
  Key: { type: 'string', minLength: 1, maxLength: 512 },
  // S3 upload ids are opaque and may be long.
  UploadId: { type: 'string', minLength: 1, maxLength: 1024 },
} as const;
const partNumber = { type: 'integer', minimum: 1, maximum: 10000 } as const;

const refBody = { type: 'object', properties: refProperties, required: ['Key', 'UploadId'], additionalProperties: false } as const;

const signPartBody = {
  type: 'object',
  properties: { ...refProperties, PartNumber: partNumber },
  required: ['Key', 'UploadId', 'PartNumber'],
  additionalProperties: false,
} as const;

const completeBody = {
  type: 'object',
  properties: {
    ...refProperties,
    Parts: {
      type: 'array',
      minItems: 1,
      maxItems: 10000,
      items: {
        type: 'object',
        properties: { PartNumber: partNumber, ETag: { type: 'string', minLength: 1, maxLength: 200 } },
        required: ['PartNumber', 'ETag'],
        additionalProperties: false,
      },
    },
  },
  required: ['Key', 'UploadId', 'Parts'],
  additionalProperties: false,
} as const;

export default async function multipartRoutes(app: FastifyInstance) {
  const tags = ['上传'];
  const { db } = app.database;
  const forget = (uploadId: string) => db.deleteFrom('UPLOAD').where('UPLOAD_ID', '=', uploadId).execute();

  /** The caller's own upload in progress, with upload rights still held on its kind. */
  async function ownUpload(request: FastifyRequest, body: Record<string, unknown>): Promise<{ row: UploadRow; ref: MultipartRef }> {
    const member = await requireMember(request);
    const uploadId = String(body.UploadId);
    const row = await db.selectFrom('UPLOAD').selectAll().where('UPLOAD_ID', '=', uploadId).executeTakeFirst();
    if (!row || row.KEY !== body.Key) throw notFound(NO_UPLOAD);
    if (row.AU_CODE !== member.AU_CODE) throw forbidden('只能继续或取消自己发起的上传');
    await requireAnyCode(request, UPLOAD_MODULES[row.KIND as UploadKind] ?? [], ['1', '3']);
    return { row, ref: { key: row.KEY, uploadId: row.UPLOAD_ID } };
  }

  writeRoute(app, '/Ajax/CreateMultipartUpload', uploadRequestSchema, { tags, summary: '开始分片上传' }, async (request, body) => {
    const Kind = body.Kind as UploadKind;
    const member = await requireAnyCode(request, UPLOAD_MODULES[Kind], ['1', '3']);
    const prepared = prepareUpload({ FileName: body.FileName, Size: body.Size, ContentType: body.ContentType ?? '', Kind });
    const partSize = partSizeFor(prepared.size, app.storage.partSize);
    // The daily quota first: past it (429) nothing is started in storage.
    await app.files.reserveUpload(member, prepared);
    // Removed with the key when the upload never completes (files/lifecycle.ts).
    await recordFileName(db, prepared.key, prepared.title, prepared.size);
    const uploadId = await app.storage.createMultipartUpload(prepared).catch(async (err: unknown) => {
      await app.files.releaseUpload(prepared.key).catch(() => undefined);
      throw err;
    });
    try {
      await db
        .insertInto('UPLOAD')
        .values({
          UPLOAD_ID: uploadId,
          KEY: prepared.key,
          KIND: prepared.kind,
          TITLE: prepared.title,
          SIZE: prepared.size,
          PART_SIZE: partSize,
          CONTENT_TYPE: prepared.contentType,
          AU_CODE: member.AU_CODE,
          CREATED_AT: new Date().toISOString(),
        })
        .execute();
    } catch (err) {
      // Unrecorded, the upload could never be completed or aborted: drop it now.
      await app.storage.abortMultipartUpload({ key: prepared.key, uploadId }).catch(() => undefined);
      throw err;
    }
    return ok({
      UploadId: uploadId,
      Key: prepared.key,
      FileUrl: app.storage.fileUrl(prepared.key),
      Title: prepared.title,
      PartSize: partSize,
    });
  });

  writeRoute(app, '/Ajax/SignUploadPart', signPartBody, { tags, summary: '签名一个分片' }, async (request, body) => {
    const { row, ref } = await ownUpload(request, body);
    const n = Number(body.PartNumber);
    const count = partCount(row.SIZE, row.PART_SIZE);
    if (n > count) {
      throw badRequest(`分片序号超出范围：该文件共${count}个分片`, [{ field: 'PartNumber', msg: `须为1到${count}` }]);
    }
    const signed = await app.storage.signPart({ ...ref, partNumber: n, size: expectedPartSize(row.SIZE, row.PART_SIZE, n) });
    return ok(signed);
  });

  writeRoute(app, '/Ajax/ListUploadParts', refBody, { tags, summary: '已上传的分片' }, async (request, body) => {
    const { ref } = await ownUpload(request, body);
    return ok(await app.storage.listParts(ref));
  });

  writeRoute(app, '/Ajax/CompleteMultipartUpload', completeBody, { tags, summary: '完成分片上传' }, async (request, body) => {
    const { row, ref } = await ownUpload(request, body);
    const parts = body.Parts as { PartNumber: number; ETag: string }[];
    const count = partCount(row.SIZE, row.PART_SIZE);
    for (const [i, part] of parts.entries()) {
      if (part.PartNumber > count) throw badRequest(`分片序号超出范围：该文件共${count}个分片`);
      if (i > 0 && part.PartNumber <= parts[i - 1]!.PartNumber) throw badRequest('分片列表须按序号升序排列且不重复');
    }
    try {
      await app.storage.completeMultipartUpload({ ...ref, parts, size: row.SIZE });
    } catch (err) {
      // Refused after joining (nothing stored) or unknown to storage: the upload is over.
      if (err instanceof RejectedUpload || (err instanceof ApiError && err.status === 404)) await forget(row.UPLOAD_ID);
      throw err;
    }
    await forget(row.UPLOAD_ID);
    const PosterUrl =
      row.KIND === 'video'
        ? await makePoster(app.storage, row.KEY, { onError: (err) => request.log.warn({ err }, 'poster failed') })
        : undefined;
    return ok({ FileUrl: app.storage.fileUrl(row.KEY), Title: row.TITLE, ...(PosterUrl ? { PosterUrl } : {}) });
  });

  writeRoute(app, '/Ajax/AbortMultipartUpload', refBody, { tags, summary: '取消分片上传' }, async (request, body) => {
    const { row, ref } = await ownUpload(request, body);
    await app.storage.abortMultipartUpload(ref);
    await forget(row.UPLOAD_ID);
    return ok(null, '已取消上传');
  });

  // Uploads abandoned for a day (browser closed for good): drop their parts and rows at start, in
  // one process of a cluster (config.housekeeping).
  app.addHook('onReady', async () => {
    if (!app.config.housekeeping) return;
    const cutoff = new Date(Date.now() - STALE_UPLOAD_MS).toISOString();
    const stale = await db.selectFrom('UPLOAD').select(['UPLOAD_ID', 'KEY']).where('CREATED_AT', '<', cutoff).execute();
    for (const r of stale) {
      await app.storage
        .abortMultipartUpload({ key: r.KEY, uploadId: r.UPLOAD_ID })
        .catch((err: unknown) => app.log.warn({ err }, 'abort of a stale multipart upload failed'));
      await forget(r.UPLOAD_ID);
    }
  });
}
