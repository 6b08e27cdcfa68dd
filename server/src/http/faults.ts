// Faults of the services the server stands on (the database, the file store) told apart from bugs:
// the caller gets a 503 (or 507 for a full disk) it may retry, with a message that says what is
// wrong, instead of the 500 "internal error" that a bug gets. Nothing is stored when one happens.
import { ApiError } from '../errors';

export const DATABASE_UNAVAILABLE = '数据库暂时不可用，请稍后重试';
export const DATABASE_BUSY = '数据库繁忙，请稍后重试';
export const DATABASE_FULL = '数据库所在磁盘空间不足，数据未保存，请联系管理员';
export const STORAGE_UNAVAILABLE = '文件存储暂时不可用，文件未保存，请稍后重试';
export const STORAGE_FULL = '文件存储空间不足，文件未保存，请联系管理员';

/** Socket errors of a lost or refused connection. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
/** File-system errors of a store that is gone, read-only or failing (not of a bad request). */
const DISK_UNAVAILABLE_CODES = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOENT', 'ENOTDIR', 'EISDIR', 'EIO', 'EBUSY']);
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);

const codeOf = (err: unknown): string | undefined => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

export const isNetworkError = (err: unknown): boolean => NETWORK_CODES.has(codeOf(err) ?? '');

/**
 * A database fault, or undefined for anything else. PostgreSQL: SQLSTATE class 08 (connection
 * exception), 57P01-57P03 (shut down, crashed, starting up), and pg's own messages for a socket
 * closed under it; socket errors that reach the app's error handler come from the database too,
 * since the storage drivers turn theirs into ApiErrors first. SQLite: busy past busy_timeout, full.
 */
export function databaseFault(err: unknown): ApiError | undefined {
  const code = codeOf(err) ?? '';
  const message = err instanceof Error ? err.message : '';
  if (
    /^08/.test(code) ||
    ['57P01', '57P02', '57P03'].includes(code) ||
    NETWORK_CODES.has(code) ||
    /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed/i.test(message)
  ) {
    return new ApiError(503, DATABASE_UNAVAILABLE);
  }
  if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_') || code.startsWith('SQLITE_LOCKED')) return new ApiError(503, DATABASE_BUSY);
  if (code === 'SQLITE_FULL') return new ApiError(507, DATABASE_FULL);
  if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_READONLY') || code === 'SQLITE_CANTOPEN') {
    return new ApiError(503, DATABASE_UNAVAILABLE);
  }
  return undefined;
}

/** A local-disk failure while storing a file, in words; other errors are returned unchanged. */
export function diskFault(err: unknown): unknown {
  if (err instanceof ApiError) return err;
  const code = codeOf(err) ?? '';
  if (DISK_FULL_CODES.has(code)) return new ApiError(507, STORAGE_FULL);
  if (DISK_UNAVAILABLE_CODES.has(code)) return new ApiError(503, STORAGE_UNAVAILABLE);
  return err;
}

/**
 * An S3 failure that is the service's and not the request's: no answer at all (socket error,
 * timeout) or a 5xx after the SDK's own retries. Refusals (4xx: NotFound, NoSuchUpload…) are
 * returned unchanged for the driver to read.
 */
export function bucketFault(err: unknown): unknown {
  if (err instanceof ApiError) return err;
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  const status = e?.$metadata?.httpStatusCode;
  if ((status !== undefined && status >= 500) || (status === undefined && (isNetworkError(err) || e?.name === 'TimeoutError'))) {
    return new ApiError(503, STORAGE_UNAVAILABLE);
  }
  return err;
}
