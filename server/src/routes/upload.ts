// SignUpload (docs/api.md, "Uploads"): checks the kind's limits, lets the server choose the key, and
// returns how the browser sends the bytes to storage.
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { ok } from '../http/envelope';
import { requireAnyCode } from '../plugins/permissions';
import { prepareUpload, UPLOAD_MODULES } from '../storage/policies';

/** What a browser says of the file it wants to upload (SignUpload and CreateMultipartUpload). */
export const uploadRequestSchema = {
  type: 'object',
  properties: {
    FileName: { type: 'string', minLength: 1, maxLength: 255 },
    Size: { type: 'integer', minimum: 1 },
    ContentType: { type: 'string', maxLength: 200 },
    Kind: { type: 'string', enum: ['video', 'handout', 'image'] },
  },
  required: ['FileName', 'Size', 'Kind'],
  additionalProperties: false,
} as const;

const uploadRoutes: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.post('/Ajax/SignUpload', { schema: { tags: ['上传'], summary: '申请上传', body: uploadRequestSchema } }, async (request) => {
    const { FileName, Size, ContentType, Kind } = request.body;
    const member = await requireAnyCode(request, UPLOAD_MODULES[Kind], ['1', '3']);
    const prepared = prepareUpload({ FileName, Size, ContentType: ContentType ?? '', Kind });
    // Counted against the daily quota (429 past it, nothing signed), and removed in a day unless a
    // record points at it by then.
    await app.files.reserveUpload(member, prepared);
    const signed = await app.storage.signUpload(prepared);
    return ok({ ...signed, FileUrl: app.storage.fileUrl(prepared.key), Title: prepared.title });
  });
};

export default uploadRoutes;
