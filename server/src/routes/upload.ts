// SignUpload (docs/api.md, "Uploads"): checks the kind's limits, lets the server choose the key, and
// returns how the browser sends the bytes to storage. GetFileNames: the names stored files were
// uploaded with, for the screens that show a record's file URLs.
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { ok } from '../http/envelope';
import { requireAnyCode, requireMember } from '../plugins/permissions';
import { fileNamesOf, MAX_NAMED_URLS, recordFileName } from '../storage/names';
import { prepareUpload, UPLOAD_MODULES } from '../storage/policies';
import { readRoute } from './crud';

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

const fileNamesBody = {
  type: 'object',
  properties: {
    // The longest URL a file field holds (schemas/fields.ts).
    Urls: { type: 'array', minItems: 1, maxItems: MAX_NAMED_URLS, items: { type: 'string', minLength: 1, maxLength: 1000 } },
  },
  required: ['Urls'],
  additionalProperties: false,
} as const;

const uploadRoutes: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.post('/Ajax/SignUpload', { schema: { tags: ['上传'], summary: '申请上传', body: uploadRequestSchema } }, async (request) => {
    const { FileName, Size, ContentType, Kind } = request.body;
    const member = await requireAnyCode(request, UPLOAD_MODULES[Kind], ['1', '3']);
    const prepared = prepareUpload({ FileName, Size, ContentType: ContentType ?? '', Kind });
    // Counted against the daily quota (429 past it, nothing signed), and removed in a day (its name
    // with it) unless a record points at it by then.
    await app.files.reserveUpload(member, prepared);
    await recordFileName(app.database.db, prepared.key, prepared.title, prepared.size);
    const signed = await app.storage.signUpload(prepared);
    return ok({ ...signed, FileUrl: app.storage.fileUrl(prepared.key), Title: prepared.title });
  });

  // Any member: a URL is only known to whoever may read the record holding it, and keys are unguessable.
  // A read call: GET (?Urls=…&Urls=…) or POST, like the other Get calls.
  readRoute(app, '/Ajax/GetFileNames', fileNamesBody, { tags: ['上传'], summary: '文件的原始文件名' }, async (request, params) => {
    await requireMember(request);
    const { Urls } = params as { Urls: string[] };
    const keyed = Urls.flatMap((Url) => {
      const key = app.storage.keyOf(Url);
      return key ? [{ Url, key }] : [];
    });
    const names = await fileNamesOf(app.database.db, [...new Set(keyed.map((k) => k.key))]);
    return ok(keyed.flatMap(({ Url, key }) => (names.has(key) ? [{ Url, Name: names.get(key)! }] : [])));
  });
};

export default uploadRoutes;
