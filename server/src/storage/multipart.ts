// Rules shared by both drivers for uploads in parts: the part size, how many parts a declared size
// needs, and the check of the joined file (exact size, magic bytes) after completion.
import { ApiError } from '../errors';
import { matchesMagic } from './magic';
import { POLICIES, parseUploadKey } from './policies';

const KiB = 1024;
const MiB = 1024 * KiB;

/** S3 refuses parts under 5 MiB (except the last); 10 MiB keeps a 500 MB video under 50 parts. */
export const DEFAULT_PART_SIZE = 10 * MiB;
export const MIN_S3_PART_SIZE = 5 * MiB;
/** Smallest size UPLOAD_PART_SIZE accepts: small parts are for tests (local driver, s3rver). */
const MIN_PART_SIZE = 64 * KiB;
const MAX_PART_SIZE = 512 * MiB;
export const MAX_PARTS = 10000;

/** UPLOAD_PART_SIZE in bytes (default 10 MiB); a wrong value fails at start, not at first upload. */
export function partSizeFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.UPLOAD_PART_SIZE;
  if (raw === undefined || raw === '') return DEFAULT_PART_SIZE;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < MIN_PART_SIZE || value > MAX_PART_SIZE) {
    throw new Error(`UPLOAD_PART_SIZE must be a byte count from ${MIN_PART_SIZE} to ${MAX_PART_SIZE}, got ${raw}`);
  }
  return value;
}

/** Part size of one upload: the configured size, raised when the file would need over 10000 parts. */
export function partSizeFor(size: number, configured: number): number {
  return Math.max(configured, Math.ceil(size / MAX_PARTS));
}

export function partCount(size: number, partSize: number): number {
  return Math.max(1, Math.ceil(size / partSize));
}

/** Exact size of part `n` (1-based): full parts, then what is left for the last one. */
export function expectedPartSize(size: number, partSize: number, n: number): number {
  return n < partCount(size, partSize) ? partSize : size - (partCount(size, partSize) - 1) * partSize;
}

/**
 * A completion refused after the bytes were joined: the driver has already removed everything
 * (object, parts), so the caller forgets the upload too. Other errors leave it resumable.
 */
export class RejectedUpload extends ApiError {
  constructor(message: string) {
    super(400, message);
    this.name = 'RejectedUpload';
  }
}

/** Checks a joined file; throws RejectedUpload with the message the client shows. */
export function checkJoined(key: string, declared: number, actual: number, head: Buffer): void {
  if (actual !== declared) {
    throw new RejectedUpload(`文件大小与声明不符（声明${declared}字节，收到${actual}字节），请重新上传`);
  }
  const parsed = parseUploadKey(key);
  if (!parsed || !matchesMagic(parsed.ext, head)) {
    const hint = parsed ? `：${POLICIES[parsed.kind].wrongTypeMsg}` : '';
    throw new RejectedUpload(`文件内容与类型不符${hint}`);
  }
}

/** S3 and Uppy quote ETags; compare them without quotes. */
export function bareETag(etag: string): string {
  return etag.replace(/"/g, '');
}
