// Decorates the app with `storage` and, for local storage, receives signed uploads
// (PUT /upload/<key>), parts of multipart uploads (PUT /upload-part/<uploadId>/<partNumber>), and
// serves stored files with Range support (GET/HEAD /files/<key>). On S3, GET /files/<key> redirects
// to a short-lived presigned GET (S3_READ=private) or to the public URL. Files go to signed-in
// members only (401 otherwise), never into shared caches, under the name they were uploaded with
// (Content-Disposition, storage/names.ts).
//
// The routes below carry their own small error handler (the same envelope as every other call), so
// the plugin works in a bare app (tests) as well as under the app's global handler.
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { ApiError, notFound, unauthorized } from '../errors';
import { makePoster } from '../media/poster';
import { createStorage } from '../storage/index';
import { contentDisposition, fileNameOf } from '../storage/names';
import { isSafeKey } from '../storage/policies';
import { FILES_PREFIX, LocalStorage, PART_PREFIX, UPLOAD_PREFIX, type PartQuery, type UploadQuery } from '../storage/local';
import type { StorageDriver } from '../storage/types';

declare module 'fastify' {
  interface FastifyInstance {
    storage: StorageDriver;
  }
}

export interface StoragePluginOptions {
  config: Config;
  /** Signs local upload URLs; keep it stable across restarts so issued URLs stay valid. */
  secret: Buffer;
  /**
   * Who may read `/files/`: by default a request with a live session (the session plugin's
   * currentMember); without the session plugin nobody.
   */
  canRead?: (request: FastifyRequest) => Promise<boolean>;
}

/** A signed-in member, as the session plugin knows them; fails closed in an app without it. */
async function hasSession(request: FastifyRequest): Promise<boolean> {
  if (typeof request.currentMember !== 'function') return false;
  return (await request.currentMember()) !== null;
}

/**
 * Stored files are for members: kept in the browser's own cache only and checked again on each
 * use (ETag, so a 304 costs nothing), so that a logout or a removal takes effect at once.
 */
export const FILES_CACHE_CONTROL = 'private, no-cache';
/** A redirect to a presigned read may be reused a few minutes (the URL it names lives an hour or more). */
const REDIRECT_CACHE_CONTROL = 'private, max-age=300';

const STATUS_MESSAGES: Record<number, string> = {
  400: '请求格式不正确',
  401: '请先登录',
  403: '无权访问该文件',
  404: '文件不存在或已被删除',
  413: '文件过大',
  415: '不支持的请求格式',
  416: '请求的文件范围无效',
};

function sendError(error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) {
  const status =
    error instanceof ApiError
      ? error.status
      : error.statusCode && error.statusCode >= 400 && error.statusCode < 500
        ? error.statusCode
        : 500;
  if (status >= 500) request.log.error({ err: error }, 'storage route failed');
  const msg =
    error instanceof ApiError ? error.message : status >= 500 ? '服务器内部错误，请稍后重试' : (STATUS_MESSAGES[status] ?? '请求无法处理');
  // An upload refused half-way leaves the rest of its body unread: close the connection rather
  // than let Node read and discard up to 500 MB to keep it alive.
  if (!request.raw.complete) reply.header('connection', 'close');
  return reply
    .status(status)
    .send(error instanceof ApiError && error.errors ? { code: status, msg, errors: error.errors } : { code: status, msg });
}

/** Partial uploads older than this were left by a crash; uploads in progress are far younger. */
const STALE_TMP_MS = 24 * 3600 * 1000;

async function removeStaleTemporaryFiles(tmpDir: string): Promise<void> {
  const names = await readdir(tmpDir).catch(() => [] as string[]);
  const now = Date.now();
  for (const name of names) {
    const file = path.join(tmpDir, name);
    const info = await stat(file).catch(() => undefined);
    // Folders (the multipart one) are not partial uploads: removed below, by their own age.
    if (info?.isFile() && now - info.mtimeMs > STALE_TMP_MS) await rm(file, { force: true });
  }
}

/**
 * Multipart uploads untouched for a day were abandoned: each part written renames into the
 * upload's folder and so refreshes its mtime.
 */
async function removeStaleMultipartUploads(multipartDir: string): Promise<void> {
  const names = await readdir(multipartDir).catch(() => [] as string[]);
  const now = Date.now();
  for (const name of names) {
    const dir = path.join(multipartDir, name);
    const info = await stat(dir).catch(() => undefined);
    if (info && now - info.mtimeMs > STALE_TMP_MS) await rm(dir, { recursive: true, force: true });
  }
}

type CanRead = (request: FastifyRequest) => Promise<boolean>;
type NameOf = (key: string) => Promise<string | undefined>;

/** The name a file was uploaded with (storage/names.ts), offered by downloads; none in an app without a database. */
function nameLookup(app: FastifyInstance): NameOf {
  if (!app.hasDecorator('database')) return async () => undefined;
  return (key) => fileNameOf(app.database.db, key);
}

async function localRoutes(scope: FastifyInstance, { storage, canRead, nameOf }: { storage: LocalStorage; canRead: CanRead; nameOf: NameOf }) {
  scope.setErrorHandler(sendError);

  // Upload: its own context, so the '*' parser below does not change body parsing elsewhere.
  await scope.register(async (upload) => {
    // Leave the body unread: the handler streams request.raw to disk itself. Fastify's own
    // parsers (JSON, text/plain) would buffer it, so they are removed here.
    upload.removeAllContentTypeParsers();
    upload.addContentTypeParser('*', (_request, _payload, done) => done(null));

    upload.put<{ Params: { '*': string }; Querystring: UploadQuery }>(`${UPLOAD_PREFIX}*`, async (request) => {
      const signed = storage.verifyUpload(request.params['*'], request.query);
      const header = request.headers['content-length'];
      const contentLength = header === undefined ? undefined : Number(header);
      const FileUrl = await storage.receive(signed, request.raw, contentLength);
      // Videos get their poster before the answer, so the card shows it at once (ffmpeg takes a
      // few hundred ms for one frame; without ffmpeg nothing is made).
      const PosterUrl =
        signed.kind === 'video'
          ? await makePoster(storage, signed.key, { onError: (err) => request.log.warn({ err }, 'poster failed') })
          : undefined;
      return { code: 0, msg: '上传成功', data: PosterUrl ? { FileUrl, PosterUrl } : { FileUrl } };
    });

    // One part of a multipart upload; the ETag header (quoted MD5) is what the client lists at
    // completion, exactly as S3 answers an UploadPart.
    upload.put<{ Params: { uploadId: string; partNumber: string }; Querystring: PartQuery }>(
      `${PART_PREFIX}:uploadId/:partNumber`,
      async (request, reply) => {
        const part = storage.verifyPart(request.params.uploadId, request.params.partNumber, request.query);
        const header = request.headers['content-length'];
        const contentLength = header === undefined ? undefined : Number(header);
        const ETag = await storage.receivePart(part, request.raw, contentLength);
        reply.header('etag', ETag);
        return { code: 0, msg: '上传成功', data: { ETag } };
      },
    );
  });

  // Download: stored files with Range (206), ETag and Last-Modified from @fastify/static.
  await scope.register(async (files) => {
    // Members only: checked before the file is looked up, so a stranger learns nothing, not even
    // whether a key exists.
    files.addHook('onRequest', async (request) => {
      if (!(await canRead(request))) throw unauthorized();
    });
    // Uploaded files are served from our origin: never let a browser sniff them into HTML, and
    // run anything it still renders in a sandbox without script or network access.
    files.addHook('onSend', async (request, reply, payload) => {
      reply.header('x-content-type-options', 'nosniff');
      reply.header('content-security-policy', "default-src 'none'; sandbox");
      if (reply.statusCode === 200 || reply.statusCode === 206) {
        const key = request.url.split('?')[0]!.slice(FILES_PREFIX.length);
        const name = isSafeKey(key) ? await nameOf(key) : undefined;
        if (name) reply.header('content-disposition', contentDisposition(name));
      }
      return payload;
    });
    await files.register(fastifyStatic, {
      root: storage.root,
      prefix: FILES_PREFIX,
      decorateReply: false,
      list: false,
      index: false,
      redirect: false,
      // `.tmp` holds partial uploads.
      dotfiles: 'deny',
      // Not public, not immutable: a file goes with its record, and only members may read it.
      cacheControl: false,
      setHeaders: (res) => res.setHeader('cache-control', FILES_CACHE_CONTROL),
    });
  });
}

/** S3: `/files/<key>` checks the session, then sends the browser to the bucket (Range requests follow). */
async function redirectRoutes(scope: FastifyInstance, { storage, canRead, nameOf }: { storage: StorageDriver; canRead: CanRead; nameOf: NameOf }) {
  scope.setErrorHandler(sendError);
  scope.addHook('onRequest', async (request) => {
    if (!(await canRead(request))) throw unauthorized();
  });
  // GET, and HEAD with it (Fastify's automatic HEAD route).
  scope.get<{ Params: { '*': string } }>(`${FILES_PREFIX}*`, async (request, reply) => {
    const key = request.params['*'];
    if (!isSafeKey(key) || !storage.readLocation) throw notFound(STATUS_MESSAGES[404]);
    const location = await storage.readLocation(key, await nameOf(key));
    reply.header('cache-control', REDIRECT_CACHE_CONTROL);
    return reply.redirect(location, 302);
  });
}

async function storagePlugin(app: FastifyInstance, opts: StoragePluginOptions) {
  const storage = await createStorage(opts.config, opts.secret);
  app.decorate('storage', storage);
  const canRead = opts.canRead ?? hasSession;
  if (storage instanceof LocalStorage) {
    await mkdir(storage.tmpDir, { recursive: true });
    // One process of a cluster removes what crashed uploads left (config.housekeeping).
    if (opts.config.housekeeping) {
      await removeStaleTemporaryFiles(storage.tmpDir);
      await removeStaleMultipartUploads(storage.multipartDir);
    }
    await app.register(localRoutes, { storage, canRead, nameOf: nameLookup(app) });
  } else {
    await app.register(redirectRoutes, { storage, canRead, nameOf: nameLookup(app) });
  }
}

export default fp(storagePlugin, { name: 'storage', fastify: '5.x' });
