// The success envelope of docs/api.md.
export const MSG_OK = '操作成功!';
export const MSG_DELETED = '删除成功!';
export const MSG_PUBLISHED = '发布成功!';

export function ok<T>(data: T, msg = MSG_OK, total?: number) {
  return total === undefined ? { code: 0 as const, msg, data } : { code: 0 as const, msg, data, total };
}
