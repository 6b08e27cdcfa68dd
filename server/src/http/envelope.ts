// The success envelope of docs/api.md.
export const MSG_OK = '操作成功!';
export const MSG_DELETED = '删除成功!';
export const MSG_PUBLISHED = '发布成功!';

export function ok<T>(data: T, msg = MSG_OK, total?: number) {
  return total === undefined ? { code: 0 as const, msg, data } : { code: 0 as const, msg, data, total };
}

/**
 * A list answer's JSON: `ok(rows, MSG_OK, total)` with its rows in order for as long as the whole
 * stays within `maxBytes`, and at least the first row (a row is never cut: the field limits keep
 * one far below the server's limit). `total` still counts every matching row, so a client that
 * got fewer rows than it asked for can tell, and asks for the rest (docs/api.md, Lists).
 */
export function listAnswer(rows: readonly unknown[], total: number, maxBytes: number): string {
  const head = `{"code":0,"msg":${JSON.stringify(MSG_OK)},"data":[`;
  const tail = `],"total":${total}}`;
  let bytes = Buffer.byteLength(head) + Buffer.byteLength(tail);
  const parts: string[] = [];
  for (const row of rows) {
    const json = JSON.stringify(row);
    const size = Buffer.byteLength(json) + (parts.length > 0 ? 1 : 0);
    if (parts.length > 0 && bytes + size > maxBytes) break;
    parts.push(json);
    bytes += size;
  }
  return `${head}${parts.join(',')}${tail}`;
}
