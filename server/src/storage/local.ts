// The `local` driver: files under <dataDir>/uploads, uploads received by this server through a
// short-lived HMAC-signed PUT URL (the route lives in plugins/storage.ts, the logic here).
// Uploads in parts follow the S3 protocol: each part goes to its own signed URL and is kept under
// <dataDir>/uploads/.tmp/mp/<uploadId>/<partNumber> until the parts are joined or dropped.
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, link, mkdir, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { ApiError, badRequest, conflict, forbidden, notFound, tooLarge } from '../errors';
import { diskFault } from '../http/faults';
import { MAGIC_HEAD_BYTES, matchesMagic } from './magic';
import { DEFAULT_PART_SIZE, RejectedUpload, bareETag, checkJoined } from './multipart';
import { keysAfterPrefixes } from './keys';
import { POLICIES, assertSafeKey, isSafeKey, parseUploadKey } from './policies';
import type { CompleteRequest, MultipartRef, PartRequest, SignRequest, StorageDriver, UploadedPart } from './types';

export const UPLOAD_PREFIX = '/upload/';
export const PART_PREFIX = '/upload-part/';
export const FILES_PREFIX = '/files/';
const INVALID_LINK = '上传链接无效或已过期，请重新上传';
const NO_UPLOAD = '上传任务不存在或已结束，请重新上传';
const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PART_FILE = /^[1-9]\d{0,4}$/;

export interface LocalStorageOptions {
  /** Lifetime of a signed upload URL; one hour unless a test needs otherwise. */
  ttlSeconds?: number;
  /** Size of every part of a multipart upload but the last. */
  partSize?: number;
}

/** Query string of a signed part URL, as received (strings, untrusted). */
export interface PartQuery {
  max?: unknown;
  exp?: unknown;
  sig?: unknown;
}

/** A part URL whose signature checked out. */
export interface VerifiedPart {
  uploadId: string;
  partNumber: number;
  /** Most bytes this part may have. */
  max: number;
}

const toBuffer = (data: Buffer | string): Buffer => (typeof data === 'string' ? Buffer.from(data) : data);

/**
 * Writes chunks to a new file, waiting for the disk when it falls behind, so that no more than a
 * chunk is held in memory. The file is closed on return; removing it on failure is the caller's job.
 */
async function writeChunks(file: string, chunks: AsyncIterable<Buffer>): Promise<void> {
  const out = createWriteStream(file, { flags: 'wx' });
  let writeError: Error | undefined;
  out.on('error', (err) => (writeError = err));
  try {
    for await (const chunk of chunks) {
      if (writeError) throw writeError;
      if (!out.write(chunk)) await once(out, 'drain');
    }
    if (writeError) throw writeError;
    out.end();
    // Wait until the data is on disk and the descriptor closed ('close' rejects on 'error').
    if (!out.closed) await once(out, 'close');
    if (writeError) throw writeError;
  } finally {
    if (!out.closed) {
      out.destroy();
      await once(out, 'close').catch(() => undefined);
    }
  }
}

async function md5Of(file: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Query string of a signed upload URL, as received (strings, untrusted). */
export interface UploadQuery {
  size?: unknown;
  ct?: unknown;
  exp?: unknown;
  sig?: unknown;
}

export class LocalStorage implements StorageDriver {
  readonly name = 'local' as const;
  /** Root that /files/ serves. */
  readonly root: string;
  /** Partial uploads; a dot folder so the file server never shows it. */
  readonly tmpDir: string;
  /** Parts of multipart uploads, one folder per upload id. */
  readonly multipartDir: string;
  readonly partSize: number;
  private readonly ttlSeconds: number;

  constructor(
    dataDir: string,
    private readonly secret: Buffer,
    options: LocalStorageOptions = {},
  ) {
    this.root = path.join(path.resolve(dataDir), 'uploads');
    this.tmpDir = path.join(this.root, '.tmp');
    this.multipartDir = path.join(this.tmpDir, 'mp');
    this.ttlSeconds = options.ttlSeconds ?? 3600;
    this.partSize = options.partSize ?? DEFAULT_PART_SIZE;
  }

  async signUpload(req: SignRequest) {
    const exp = Math.floor(Date.now() / 1000) + this.ttlSeconds;
    const query = new URLSearchParams({
      size: String(req.size),
      ct: req.contentType,
      exp: String(exp),
      sig: this.sign(req.key, req.size, req.contentType, exp),
    });
    return {
      Method: 'PUT' as const,
      Url: `${UPLOAD_PREFIX}${req.key}?${query}`,
      Headers: { 'Content-Type': req.contentType },
      Fields: {},
    };
  }

  private sign(key: string, size: number, contentType: string, exp: number): string {
    // Newline-separated: none of the parts can contain one, so no two inputs share a message.
    return createHmac('sha256', this.secret).update(`upload\n${key}\n${size}\n${contentType}\n${exp}`).digest('base64url');
  }

  /** The signed request behind an upload URL; 403 when the signature is wrong or expired. */
  verifyUpload(key: string, query: UploadQuery): SignRequest {
    const { size, ct, exp, sig } = query;
    const parsed = parseUploadKey(key);
    if (
      !parsed ||
      typeof size !== 'string' || !/^[1-9]\d{0,15}$/.test(size) ||
      typeof exp !== 'string' || !/^\d{1,12}$/.test(exp) ||
      typeof ct !== 'string' || typeof sig !== 'string'
    ) {
      throw forbidden(INVALID_LINK);
    }
    const expected = Buffer.from(this.sign(key, Number(size), ct, Number(exp)));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw forbidden(INVALID_LINK);
    if (Number(exp) * 1000 < Date.now()) throw forbidden(INVALID_LINK);
    return { key, kind: parsed.kind, size: Number(size), contentType: ct };
  }

  /**
   * Streams an upload body to a temporary file and moves it into place only when it has exactly
   * the signed size and its first bytes match the extension. Never holds more than one chunk and
   * the magic-byte head in memory. Any failure removes the temporary file.
   * The body is read without destroying it, so the caller can still answer on the same socket.
   */
  async receive(signed: SignRequest, body: Readable, contentLength?: number): Promise<string> {
    const parsed = parseUploadKey(signed.key);
    if (!parsed) throw forbidden(INVALID_LINK);
    const policy = POLICIES[parsed.kind];
    const overSize = () => tooLarge(`文件大小超过申请上传时声明的大小（${signed.size}字节），请重新上传`);
    // Refuse before reading a byte when the client announces too much.
    if (contentLength !== undefined && contentLength > signed.size) throw overSize();

    await mkdir(this.tmpDir, { recursive: true }).catch((err: unknown) => {
      throw diskFault(err);
    });
    const tmp = path.join(this.tmpDir, `${randomUUID()}.part`);
    const checkMagic = (head: Buffer) => {
      if (!matchesMagic(parsed.ext, head)) throw badRequest(`文件内容与类型不符：${policy.wrongTypeMsg}`);
    };
    let received = 0;
    let head: Buffer | undefined = Buffer.alloc(0);
    async function* checked() {
      for await (const data of body.iterator({ destroyOnReturn: false })) {
        const chunk = toBuffer(data as Buffer | string);
        received += chunk.length;
        if (received > signed.size) throw overSize();
        if (head) {
          head = Buffer.concat([head, chunk.subarray(0, MAGIC_HEAD_BYTES - head.length)]);
          if (head.length >= MAGIC_HEAD_BYTES) {
            checkMagic(head);
            head = undefined;
          }
        }
        yield chunk;
      }
    }

    try {
      await writeChunks(tmp, checked());
      if (head) checkMagic(head);
      if (received !== signed.size) throw badRequest('文件不完整（大小与申请上传时不符），请重新上传');
      await this.moveIntoPlace(tmp, signed.key);
      return this.fileUrl(signed.key);
    } catch (err) {
      // A full, removed or read-only store: say so (nothing was stored under the key).
      throw diskFault(err);
    } finally {
      await rm(tmp, { force: true });
    }
  }

  // A signed URL may be replayed within its hour; a hard link refuses to replace a stored file
  // atomically, where rename would silently overwrite it.
  private async moveIntoPlace(tmp: string, key: string): Promise<void> {
    const dest = this.pathOf(key);
    await mkdir(path.dirname(dest), { recursive: true });
    try {
      await link(tmp, dest);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw conflict('该上传链接已使用，请重新上传');
      // Some file systems have no hard links: fall back to a checked rename.
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err;
      if (await this.exists(key)) throw conflict('该上传链接已使用，请重新上传');
      await rename(tmp, dest);
    }
  }

  // ---- Multipart uploads ----

  /** Folder of an upload's parts; refuses anything but an id this driver made. */
  private uploadDir(uploadId: string): string {
    if (!UPLOAD_ID.test(uploadId)) throw notFound(NO_UPLOAD);
    return path.join(this.multipartDir, uploadId);
  }

  /** The folder of an upload in progress; 404 once it was completed, aborted or cleaned up. */
  private async existingUploadDir(uploadId: string): Promise<string> {
    const dir = this.uploadDir(uploadId);
    const info = await stat(dir).catch(() => undefined);
    if (!info?.isDirectory()) throw notFound(NO_UPLOAD);
    return dir;
  }

  async createMultipartUpload(_req: SignRequest): Promise<string> {
    const uploadId = randomUUID();
    await mkdir(this.uploadDir(uploadId), { recursive: true }).catch((err: unknown) => {
      throw diskFault(err);
    });
    return uploadId;
  }

  private signPartUrl(uploadId: string, partNumber: number, max: number, exp: number): string {
    // A distinct first line, so that no part signature can pass as a whole-file upload signature.
    return createHmac('sha256', this.secret).update(`part\n${uploadId}\n${partNumber}\n${max}\n${exp}`).digest('base64url');
  }

  async signPart(req: PartRequest) {
    const exp = Math.floor(Date.now() / 1000) + this.ttlSeconds;
    const query = new URLSearchParams({
      max: String(req.size),
      exp: String(exp),
      sig: this.signPartUrl(req.uploadId, req.partNumber, req.size, exp),
    });
    return { Url: `${PART_PREFIX}${req.uploadId}/${req.partNumber}?${query}`, Headers: {} };
  }

  /** The part behind a part URL; 403 when the signature is wrong or expired. */
  verifyPart(uploadId: string, partNumber: string, query: PartQuery): VerifiedPart {
    const { max, exp, sig } = query;
    if (
      !UPLOAD_ID.test(uploadId) ||
      !PART_FILE.test(partNumber) ||
      Number(partNumber) > 10000 ||
      typeof max !== 'string' || !/^[1-9]\d{0,15}$/.test(max) ||
      typeof exp !== 'string' || !/^\d{1,12}$/.test(exp) ||
      typeof sig !== 'string'
    ) {
      throw forbidden(INVALID_LINK);
    }
    const expected = Buffer.from(this.signPartUrl(uploadId, Number(partNumber), Number(max), Number(exp)));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw forbidden(INVALID_LINK);
    if (Number(exp) * 1000 < Date.now()) throw forbidden(INVALID_LINK);
    return { uploadId, partNumber: Number(partNumber), max: Number(max) };
  }

  /**
   * Streams one part into the upload's folder and returns its ETag (the quoted MD5, as S3 does).
   * A retried part replaces the earlier one atomically; a part over its size is refused with 413.
   */
  async receivePart(part: VerifiedPart, body: Readable, contentLength?: number): Promise<string> {
    const overSize = () => tooLarge(`分片超过约定的大小（${part.max}字节），请重新上传`);
    if (contentLength !== undefined && contentLength > part.max) throw overSize();
    const dir = await this.existingUploadDir(part.uploadId);
    // Inside the upload's folder, so that an abort removes a part still arriving as well.
    const tmp = path.join(dir, `${part.partNumber}.${randomUUID()}.tmp`);
    const hash = createHash('md5');
    let received = 0;
    async function* checked() {
      for await (const data of body.iterator({ destroyOnReturn: false })) {
        const chunk = toBuffer(data as Buffer | string);
        received += chunk.length;
        if (received > part.max) throw overSize();
        hash.update(chunk);
        yield chunk;
      }
    }
    try {
      await writeChunks(tmp, checked());
      if (received === 0) throw badRequest('分片内容为空，请重新上传');
      // Fails with ENOENT when the upload was aborted meanwhile.
      await rename(tmp, path.join(dir, String(part.partNumber))).catch((err: NodeJS.ErrnoException) => {
        throw err.code === 'ENOENT' ? notFound(NO_UPLOAD) : err;
      });
      return `"${hash.digest('hex')}"`;
    } catch (err) {
      throw diskFault(err);
    } finally {
      await rm(tmp, { force: true });
    }
  }

  // Parts are at most the part size and few (50 for a 500 MB video): hashing them again on a resume
  // is cheaper than keeping ETag files consistent with parts that may be replaced.
  async listParts(ref: MultipartRef): Promise<UploadedPart[]> {
    const dir = await this.existingUploadDir(ref.uploadId);
    const names = (await readdir(dir)).filter((n) => PART_FILE.test(n));
    const parts: UploadedPart[] = [];
    for (const name of names) {
      const file = path.join(dir, name);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) continue;
      parts.push({ PartNumber: Number(name), Size: info.size, ETag: `"${await md5Of(file)}"` });
    }
    return parts.sort((a, b) => a.PartNumber - b.PartNumber);
  }

  /**
   * Checks the listed parts (total size, then the magic bytes at the start), joins them in order
   * into a temporary file while verifying each ETag, and moves the result into place. A size or
   * type mismatch drops the whole upload (RejectedUpload); a wrong ETag or a missing part leaves it
   * resumable, as on S3.
   */
  async completeMultipartUpload(req: CompleteRequest): Promise<void> {
    const dir = await this.existingUploadDir(req.uploadId);
    const files: string[] = [];
    let declaredByParts = 0;
    for (const part of req.parts) {
      const file = path.join(dir, String(part.PartNumber));
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) throw badRequest(`分片${part.PartNumber}尚未上传，请继续上传`);
      files.push(file);
      declaredByParts += info.size;
    }
    const reject = async (err: unknown) => {
      if (err instanceof RejectedUpload) await this.abortMultipartUpload(req);
      return err;
    };
    try {
      checkJoined(req.key, req.size, declaredByParts, await readHead(files, MAGIC_HEAD_BYTES));
    } catch (err) {
      throw await reject(err);
    }

    await mkdir(this.tmpDir, { recursive: true });
    const tmp = path.join(this.tmpDir, `${randomUUID()}.part`);
    let total = 0;
    const parts = req.parts;
    async function* joined() {
      for (const [i, file] of files.entries()) {
        const hash = createHash('md5');
        for await (const data of createReadStream(file, { highWaterMark: 1024 * 1024 })) {
          const chunk = data as Buffer;
          hash.update(chunk);
          total += chunk.length;
          yield chunk;
        }
        const part = parts[i]!;
        if (hash.digest('hex') !== bareETag(part.ETag)) {
          throw badRequest(`分片${part.PartNumber}的校验值不符，请重新上传该分片`);
        }
      }
    }
    try {
      await writeChunks(tmp, joined());
      // A part replaced while joining could change the total.
      if (total !== req.size) checkJoined(req.key, req.size, total, Buffer.alloc(0));
      await this.moveIntoPlace(tmp, req.key);
      await rm(dir, { recursive: true, force: true });
    } catch (err) {
      throw diskFault(await reject(err));
    } finally {
      await rm(tmp, { force: true });
    }
  }

  async abortMultipartUpload(ref: MultipartRef): Promise<void> {
    await rm(this.uploadDir(ref.uploadId), { recursive: true, force: true });
  }

  async mediaSource(key: string): Promise<string> {
    return this.pathOf(key);
  }

  fileUrl(key: string): string {
    return `${FILES_PREFIX}${key}`;
  }

  keyOf(url: string): string | undefined {
    if (!url.startsWith(FILES_PREFIX)) return undefined;
    const key = url.slice(FILES_PREFIX.length);
    return isSafeKey(key) ? key : undefined;
  }

  keysIn(text: string): string[] {
    return keysAfterPrefixes(text, [FILES_PREFIX]);
  }

  async *listKeys(prefix = ''): AsyncIterable<string> {
    // Dot folders (`.tmp`: uploads in progress) are never stored files.
    const walk = async function* (dir: string, rel: string): AsyncGenerator<string> {
      const entries = await readdir(dir, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return [];
        throw err;
      });
      for (const e of entries) {
        if (e.name.startsWith('.')) continue;
        const key = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) yield* walk(path.join(dir, e.name), key);
        else if (e.isFile() && isSafeKey(key)) yield key;
      }
    };
    // A prefix names a folder (`video/`); anything else finds nothing.
    const folder = prefix.replace(/\/+$/, '');
    if (folder !== '' && !isSafeKey(folder)) return;
    yield* walk(folder ? this.pathOf(folder) : this.root, folder);
  }

  /** Absolute path of a key; refuses keys that could leave the root. */
  pathOf(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async exists(key: string): Promise<boolean> {
    return (await this.sizeOf(key)) !== undefined;
  }

  async sizeOf(key: string): Promise<number | undefined> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? info.size : undefined;
    } catch (err) {
      if (err instanceof ApiError || (err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    try {
      await unlink(this.pathOf(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }

  // The content type is implied by the extension when served, so it is not stored.
  async putFile(key: string, filePath: string, _contentType: string): Promise<void> {
    const dest = this.pathOf(key);
    await mkdir(this.tmpDir, { recursive: true });
    await mkdir(path.dirname(dest), { recursive: true });
    // Copy then rename, so a reader never sees half a file.
    const tmp = path.join(this.tmpDir, `${randomUUID()}.part`);
    try {
      await copyFile(filePath, tmp);
      await rename(tmp, dest);
    } finally {
      await rm(tmp, { force: true });
    }
  }
}

/** The first `bytes` bytes of the files read one after another (the head of the joined file). */
async function readHead(files: string[], bytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for (const file of files) {
    if (length >= bytes) break;
    for await (const data of createReadStream(file, { start: 0, end: bytes - length - 1 })) {
      chunks.push(data as Buffer);
      length += (data as Buffer).length;
    }
  }
  return Buffer.concat(chunks).subarray(0, bytes);
}
