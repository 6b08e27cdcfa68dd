// List answers are bounded in bytes as well as in rows (docs/api.md, Lists). A video with more
// long comments than one answer holds, under a small LIST_MAX_BYTES: every list answer, whole
// (All=1) or paged, stays within it, and every comment is still reached, in order, through the
// calls the details page makes (the app's own dataProvider and detailsApi).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ALL_ROWS } from '../../schemas/lists';
import { videoCommentResource } from '../../schemas/videoComment';
import { parseOrderName } from '../../server/src/db/orderName';
import { listRows } from '../../server/src/db/repository';
import { legacyDataProvider } from '../../src/dataProvider/index';
import { fetchJson, type HttpClient } from '../../src/http/index';
import { detailsApi, type CommentRecord } from '../../src/resources/videoView/detailsSequence';
import { startServer, type Client, type TestServer } from '../helpers/server';

/** Small enough that two long comments fill an answer: the data stays well under a megabyte. */
const BUDGET = 32 * 1024;
const COMMENTS = 60;

let server: TestServer;
let admin: Client;
let vdCode = '';
/** The comments' markers, newest first (the list's order: VM_TIME DESC, then ID DESC). */
const markers: string[] = [];

/** Every third comment is short; the others about 12 KB of UTF-8. */
const bodyOf = (i: number) => `<p>评论${i}号：${(i % 3 === 0 ? '短' : '长评论内容，').repeat(i % 3 === 0 ? 10 : 600)}</p>`;
const markerOf = (text: string | undefined) => /评论(\d+)号/.exec(text ?? '')?.[0];

/** A call's answer as sent: its bytes and its envelope. */
async function raw(call: string, params: Record<string, unknown>) {
  const res = await fetch(`${server.url}${call}`, {
    method: 'POST',
    headers: { cookie: admin.cookie, 'content-type': 'application/json' },
    body: JSON.stringify(params),
  });
  const text = await res.text();
  return { status: res.status, bytes: Buffer.byteLength(text), body: JSON.parse(text) as { data: unknown[]; total: number } };
}

/** The app's HTTP client with the administrator's cookie, recording the bytes of every answer. */
function recordingClient(sizes: number[]): HttpClient {
  return async (url, options = {}) => {
    const headers = new Headers(options.headers);
    headers.set('cookie', admin.cookie);
    const res = await fetchJson(url, { ...options, headers });
    sizes.push(Buffer.byteLength(res.body));
    return res;
  };
}

beforeAll(async () => {
  server = await startServer({ LIST_MAX_BYTES: String(BUDGET) });
  admin = await server.admin();
  const type = await admin.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName: '长评论', VdtSort: 1 });
  const video = await admin.call<{ VdCode: string }>('/Ajax/AddVideo', {
    VdtCode: type.body.data.VdtCode,
    VdName: '评论很多的视频',
    VdUrl: 'https://media.example.com/a.mp4',
  });
  vdCode = video.body.data.VdCode;
  for (let i = 1; i <= COMMENTS; i++) {
    const res = await admin.call('/Ajax/AddVideoMessage', { VdCode: vdCode, VmDes: bodyOf(i) });
    expect(res.status).toBe(200);
    markers.unshift(`评论${i}号`);
  }
}, 180_000);

afterAll(() => server?.close());

describe('a list answer is bounded in bytes', () => {
  it(`stops adding rows at LIST_MAX_BYTES (${BUDGET}), whole or paged, with the full total and the first rows in order`, async () => {
    const stored = (await raw('/Ajax/GetVideoMessageListInAdmin', { VdCode: vdCode, pageIndex: 1, pageSize: 1 })).body.total;
    expect(stored).toBe(COMMENTS);
    for (const params of [{ All: 1 }, { pageIndex: 1, pageSize: 15 }, { pageIndex: 1, pageSize: 100 }, { pageIndex: 3, pageSize: 15 }]) {
      const { status, bytes, body } = await raw('/Ajax/GetVideoMessageListInAdmin', { VdCode: vdCode, ...params });
      expect(status).toBe(200);
      expect(bytes, JSON.stringify(params)).toBeLessThanOrEqual(BUDGET);
      expect(body.total).toBe(COMMENTS);
      // Cut short, never empty: at least one row, the rows that come first.
      expect(body.data.length).toBeGreaterThan(0);
      expect(body.data.length).toBeLessThan('All' in params ? COMMENTS : params.pageSize);
      const first = 'All' in params ? 0 : (params.pageIndex - 1) * params.pageSize;
      const got = (body.data as CommentRecord[]).map((c) => markerOf(c.VmDes));
      expect(got).toEqual(markers.slice(first, first + got.length));
    }
  });

  it('reads no more rows than the answer can hold: their sizes come first', async () => {
    const query = { equals: { VdCode: vdCode }, contains: {}, order: parseOrderName(undefined, videoCommentResource), limit: MAX_ALL_ROWS };
    expect((await listRows(server.app.database, videoCommentResource, query)).rows).toHaveLength(COMMENTS);
    const { rows, total } = await listRows(server.app.database, videoCommentResource, { ...query, maxBytes: BUDGET });
    expect(total).toBe(COMMENTS);
    const sent = (await raw('/Ajax/GetVideoMessageListInAdmin', { VdCode: vdCode, All: 1 })).body.data.length;
    // The stored sizes leave out JSON's escapes: a row more than the answer holds, at most.
    expect(rows.length).toBeGreaterThanOrEqual(sent);
    expect(rows.length).toBeLessThanOrEqual(sent + 1);
  });

  it('keeps the GET answer within the budget too', async () => {
    const res = await fetch(`${server.url}/Ajax/GetVideoMessageListInAdmin?All=1&VdCode=${vdCode}`, { headers: { cookie: admin.cookie } });
    expect(Buffer.byteLength(await res.text())).toBeLessThanOrEqual(BUDGET);
  });

  it('bounds the hand-written lists (audit log, members) as well', async () => {
    const log = await raw('/Ajax/GetAuditLogListInAdmin', { All: 1 });
    expect(log.bytes).toBeLessThanOrEqual(BUDGET);
    expect(log.body.data.length).toBeGreaterThan(0);
    const members = await raw('/Ajax/GetMemberListInAdmin', { All: 1 });
    expect(members.bytes).toBeLessThanOrEqual(BUDGET);
  });
});

describe('every row is still reached', () => {
  it('through the details page: its pages of comments, each answer within the budget', async () => {
    const sizes: number[] = [];
    const api = detailsApi(legacyDataProvider(server.url, recordingClient(sizes)));
    const seen: string[] = [];
    for (let page = 1; seen.length < COMMENTS; page++) {
      const { comments, total } = await api.getComments(vdCode, page);
      expect(total).toBe(COMMENTS);
      expect(comments.length).toBeGreaterThan(0);
      seen.push(...comments.map((c) => markerOf(c.VmDes)!));
    }
    expect(seen).toEqual(markers);
    // More answers than pages: the pages were cut and completed by further calls.
    expect(sizes.length).toBeGreaterThan(Math.ceil(COMMENTS / 15));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(BUDGET);
  });

  it('through a whole-list call (All=1) of the app, completed by pages', async () => {
    const sizes: number[] = [];
    const provider = legacyDataProvider(server.url, recordingClient(sizes));
    const { data, total } = await provider.getList<CommentRecord>('videoComment', {
      filter: { All: 1, VdCode: vdCode },
      pagination: { page: 1, perPage: 1000 },
      sort: { field: 'id', order: 'ASC' },
    });
    expect(total).toBe(COMMENTS);
    expect(data.map((c) => markerOf(c.VmDes))).toEqual(markers);
    expect(sizes.length).toBeGreaterThan(1);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(BUDGET);
  });

  it('through a whole-list call of the audit log', async () => {
    const sizes: number[] = [];
    const provider = legacyDataProvider(server.url, recordingClient(sizes));
    const { data } = await provider.getList('auditLog', { filter: { All: 1 }, pagination: { page: 1, perPage: 1000 }, sort: { field: 'id', order: 'ASC' } });
    const { total } = (await raw('/Ajax/GetAuditLogListInAdmin', { pageIndex: 1, pageSize: 1 })).body;
    expect(data).toHaveLength(total);
    expect(new Set(data.map((e) => e.id)).size).toBe(total);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(BUDGET);
  });
});
