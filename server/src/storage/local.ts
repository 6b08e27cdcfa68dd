// The `local` driver: files under <dataDir>/uploads, uploads received by this server through a
// short-lived HMAC-signed PUT URL (the route lives in plugins/storage.ts, the logic here).
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { copyFile, link, mkdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { ApiError, badRequest, conflict, forbidden, tooLarge } from '../errors';
import { MAGIC_HEAD_BYTES, matchesMagic } from './magic';
import { POLICIES, assertSafeKey, isSafeKey, parseUploadKey } from './policies';
import type { SignRequest, StorageDriver } from './types';

export const UPLOAD_PREFIX = '/upload/';
export const FILES_PREFIX = '/files/';
const INVALID_LINK = '上传链接无效或已过期，请重新上传';

export interface LocalStorageOptions {
  /** Lifetime of a signed upload URL; one hour unless a test needs otherwise. */
  ttlSeconds?: number;
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
  private readonly ttlSeconds: number;

  constructor(
    dataDir: string,
    private readonly secret: Buffer,
    options: LocalStorageOptions = {},
  ) {
    this.root = path.join(path.resolve(dataDir), 'uploads');
    this.tmpDir = path.join(this.root, '.tmp');
    this.ttlSeconds = options.ttlSeconds ?? 3600;
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

    await mkdir(this.tmpDir, { recursive: true });
    const tmp = path.join(this.tmpDir, `${randomUUID()}.part`);
    const out = createWriteStream(tmp, { flags: 'wx' });
    let writeError: Error | undefined;
    out.on('error', (err) => (writeError = err));
    const checkMagic = (head: Buffer) => {
      if (!matchesMagic(parsed.ext, head)) throw badRequest(`文件内容与类型不符：${policy.wrongTypeMsg}`);
    };

    try {
      let received = 0;
      let head: Buffer | undefined = Buffer.alloc(0);
      for await (const data of body.iterator({ destroyOnReturn: false })) {
        const chunk: Buffer = typeof data === 'string' ? Buffer.from(data) : data;
        received += chunk.length;
        if (received > signed.size) throw overSize();
        if (head) {
          head = Buffer.concat([head, chunk.subarray(0, MAGIC_HEAD_BYTES - head.length)]);
          if (head.length >= MAGIC_HEAD_BYTES) {
            checkMagic(head);
            head = undefined;
          }
        }
        if (writeError) throw writeError;
        if (!out.write(chunk)) await once(out, 'drain');
      }
      if (head) checkMagic(head);
      if (received !== signed.size) throw badRequest('文件不完整（大小与申请上传时不符），请重新上传');
      if (writeError) throw writeError;
      out.end();
      // Wait until the data is on disk and the descriptor closed ('close' rejects on 'error').
      if (!out.closed) await once(out, 'close');
      if (writeError) throw writeError;
      await this.moveIntoPlace(tmp, signed.key);
      return this.fileUrl(signed.key);
    } finally {
      if (!out.closed) {
        out.destroy();
        await once(out, 'close').catch(() => undefined);
      }
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

  fileUrl(key: string): string {
    return `${FILES_PREFIX}${key}`;
  }

  keyOf(url: string): string | undefined {
    if (!url.startsWith(FILES_PREFIX)) return undefined;
    const key = url.slice(FILES_PREFIX.length);
    return isSafeKey(key) ? key : undefined;
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
