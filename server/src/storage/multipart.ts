// Rules shared by both drivers for uploads in parts: the part size, how many parts a declared size
// needs, and the check of the joined file (exact size, magic bytes) after completion.
import { ApiError } from '../errors';
import { matchesMagic } from './magic';
import { POLICIES, parseUploadKey } from './policies';

const KiB = 1024;
const MiB = 1024 * KiB;

// The default part size is a setting's default (config.ts, UPLOAD_PART_SIZE).
export { DEFAULT_PART_SIZE } from '../config';
export const MIN_S3_PART_SIZE = 5 * MiB;
export const MAX_PARTS = 10000;

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
