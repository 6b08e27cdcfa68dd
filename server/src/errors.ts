// Errors a handler throws on purpose: an HTTP status and a Chinese message a person can act on.
// The app's error handler turns them into the failure envelope of docs/api.md.

export interface FieldError {
  field: string;
  msg: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (msg: string, errors?: FieldError[]) => new ApiError(400, msg, errors);
export const unauthorized = (msg = '请先登录') => new ApiError(401, msg);
export const forbidden = (msg = '无权限执行此操作') => new ApiError(403, msg);
export const notFound = (msg = '记录不存在或已被删除') => new ApiError(404, msg);
export const conflict = (msg: string) => new ApiError(409, msg);
export const tooLarge = (msg: string) => new ApiError(413, msg);

/**
 * A database constraint refused a write that the handler's own checks had allowed: another request
 * (on this or another server process) changed the rows in between, e.g. deleted the video a
 * comment was being added to. PostgreSQL codes and better-sqlite3's SQLITE_CONSTRAINT_* codes.
 */
export function constraintViolation(err: unknown): 'foreignKey' | 'unique' | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return 'foreignKey';
  if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return 'unique';
  return undefined;
}

export const MSG_CONCURRENT_CHANGE = '相关数据已被其他操作修改，请刷新后重试';
