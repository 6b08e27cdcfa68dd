// 批量删除 (server/src/routes/bulkDelete.ts): the rules of one deletion, row by row — the delete
// code for the whole call, ownership, "still in use", cascades, files and one audit entry per row —
// over a selection of ids or every row matching the list's filters; in bounded transactions, so a
// batch that fails loses none of the deletions already made, and the answer says what happened.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_DELETE_BATCH, MAX_BULK_DELETE, type BulkDeleteResult } from '../../schemas/bulkDelete';
import type { SignedUpload } from '../../schemas/types';
import { mp4Bytes } from '../helpers/bytes';
import { startServer, type Client, type TestServer } from '../helpers/server';

let server: TestServer;
let admin: Client;

const ALL_CODES = '1,2,3,4';
const NOT_OWNER = '只能修改或删除自己创建的记录';

beforeAll(async () => {
  server = await startServer();
  admin = await server.admin();
});
afterAll(() => server?.close());

async function addCategory(client: Client, VdtName: string) {
  const res = await client.call<{ Id: number; VdtCode: string }>('/Ajax/AddVideoType', { VdtName, VdtSort: 1 });
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data;
}

async function addVideo(client: Client, VdtCode: string, VdName: string, extra: Record<string, unknown> = {}) {
  const res = await client.call<{ Id: number; VdUrl: string }>('/Ajax/AddVideo', { VdtCode, VdName, VdUrl: 'https://example.com/v.mp4', ...extra });
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data;
}

async function addWebsites(prefix: string, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 1; i <= n; i++) {
    const res = await admin.call<{ Id: number }>('/Ajax/AddUseweb', { UwName: `${prefix}${i}`, UwUrl: 'https://example.com' });
    expect(res.status, res.body.msg).toBe(200);
    ids.push(res.body.data.Id);
  }
  return ids;
}

const bulk = (client: Client, call: string, body: Record<string, unknown>) => client.call<BulkDeleteResult>(call, body);

async function videoIds(VdtCode: string): Promise<number[]> {
  const res = await admin.call<{ Id: number }[]>('/Ajax/GetVideoListInAdmin', { VdtCode, All: 1 });
  return res.body.data.map((v) => v.Id).sort((a, b) => a - b);
}

async function deletions(Resource: string): Promise<{ RecordId: number; RecordName: string }[]> {
  const res = await admin.call<{ RecordId: number; RecordName: string }[]>('/Ajax/GetAuditLogListInAdmin', { Resource, Action: 'delete', All: 1 });
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data;
}

describe('批量删除', () => {
  it('refuses the whole call without the delete code, deleting nothing', async () => {
    const { VdtCode } = await addCategory(admin, '无删除权限');
    const video = await addVideo(admin, VdtCode, '留下');
    const member = await server.member({ video: '1,2,3' });
    for (const body of [{ Ids: [video.Id] }, { All: 1, VdtCode }]) {
      const res = await bulk(member, '/Ajax/DelVideoBatch', body);
      expect(res.status).toBe(403);
    }
    expect(await videoIds(VdtCode)).toEqual([video.Id]);
    expect((await bulk(server.client(), '/Ajax/DelVideoBatch', { Ids: [video.Id] })).status).toBe(401);
  });

  it("deletes a member's own rows and reports others' as refused, and rows already gone", async () => {
    const { VdtCode } = await addCategory(admin, '所有权');
    const member = await server.member({ video: ALL_CODES, videoType: '2' });
    const own1 = await addVideo(member, VdtCode, '自己的1');
    const own2 = await addVideo(member, VdtCode, '自己的2');
    const others = await addVideo(admin, VdtCode, '别人的');
    const missing = 2_000_000_000;
    const res = await bulk(member, '/Ajax/DelVideoBatch', { Ids: [own1.Id, others.Id, own2.Id, missing] });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data.Deleted).toBe(2);
    expect(res.body.data.Failed).toEqual([
      { Id: others.Id, Name: '别人的', Reason: NOT_OWNER },
      { Id: missing, Name: null, Reason: '视频不存在或已被删除' },
    ]);
    expect(res.body.msg).toBe('已删除2条，2条未删除');
    expect(await videoIds(VdtCode)).toEqual([others.Id]);
  });

  it('reports a category still holding videos and deletes the others', async () => {
    const used = await addCategory(admin, '有视频的分类');
    const free1 = await addCategory(admin, '空分类1');
    const free2 = await addCategory(admin, '空分类2');
    await addVideo(admin, used.VdtCode, '占用');
    const res = await bulk(admin, '/Ajax/DelVideoTypeBatch', { Ids: [free1.Id, used.Id, free2.Id] });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data).toEqual({
      Deleted: 2,
      Failed: [{ Id: used.Id, Name: '有视频的分类', Reason: '该视频分类下还有视频，请先删除或移走视频' }],
    });
    const left = await admin.call<{ Id: number }[]>('/Ajax/GetVideoTypeListInAdmin', { All: 1 });
    const ids = left.body.data.map((c) => c.Id);
    expect(ids).toContain(used.Id);
    expect(ids).not.toContain(free1.Id);
    expect(ids).not.toContain(free2.Id);
  });

  it('deletes a classification together with its child classification selected with it', async () => {
    const parent = await admin.call<{ Id: number; ScCode: string }>('/Xcx1/CreateStandardClassifyInAdmin', { ScName: '上级', type: 1 });
    expect(parent.status, parent.body.msg).toBe(200);
    const child = await admin.call<{ Id: number }>('/Xcx1/CreateStandardClassifyInAdmin', { ScName: '下级', ScFatherCode: parent.body.data.ScCode });
    expect(child.status, child.body.msg).toBe(200);
    const res = await bulk(admin, '/Xcx1/DeleteStandardClassifyInAdminBatch', { Ids: [parent.body.data.Id, child.body.data.Id] });
    expect(res.body.data).toEqual({ Deleted: 2, Failed: [] });
  });

  it('deletes every row matching the filter and search, and no other', async () => {
    const here = await addCategory(admin, '筛选删除');
    const there = await addCategory(admin, '筛选保留');
    const matching = [await addVideo(admin, here.VdtCode, '批量甲1'), await addVideo(admin, here.VdtCode, '批量甲2'), await addVideo(admin, here.VdtCode, '批量甲3')];
    const kept = [await addVideo(admin, here.VdtCode, '其他'), await addVideo(admin, there.VdtCode, '批量甲4')];
    const res = await bulk(admin, '/Ajax/DelVideoBatch', { All: 1, VdtCode: here.VdtCode, VdName: '批量甲' });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data).toEqual({ Deleted: 3, Failed: [] });
    expect(res.body.msg).toBe('已删除3条');
    expect(await videoIds(here.VdtCode)).toEqual([kept[0]!.Id]);
    expect(await videoIds(there.VdtCode)).toEqual([kept[1]!.Id]);
    // Each deletion has its own entry in the audit log, as a single deletion has.
    const logged = await deletions('video');
    for (const video of matching) expect(logged.filter((e) => e.RecordId === video.Id)).toHaveLength(1);
  });

  it('refuses what it cannot bound: ids past the limit, ids and All together, neither', async () => {
    const tooMany = Array.from({ length: MAX_BULK_DELETE + 1 }, (_, i) => i + 1);
    expect((await bulk(admin, '/Ajax/DelUsewebBatch', { Ids: tooMany })).status).toBe(400);
    expect((await bulk(admin, '/Ajax/DelUsewebBatch', { Ids: [1], All: 1 })).status).toBe(400);
    expect((await bulk(admin, '/Ajax/DelUsewebBatch', {})).status).toBe(400);
    expect((await bulk(admin, '/Ajax/DelUsewebBatch', { Ids: [] })).status).toBe(400);
  });

  it('removes the files of the deleted rows, as a single delete does', async () => {
    const { VdtCode } = await addCategory(admin, '文件');
    const bytes = mp4Bytes(4096);
    const signed = await admin.call<SignedUpload>('/Ajax/SignUpload', { FileName: '课程.mp4', Size: bytes.length, Kind: 'video', ContentType: 'video/mp4' });
    expect(signed.status, signed.body.msg).toBe(200);
    const url = signed.body.data.Url.startsWith('/') ? server.url + signed.body.data.Url : signed.body.data.Url;
    expect((await fetch(url, { method: 'PUT', headers: signed.body.data.Headers, body: new Uint8Array(bytes) })).status).toBe(200);
    const key = server.app.storage.keyOf(signed.body.data.FileUrl)!;
    const video = await addVideo(admin, VdtCode, '带文件', { VdUrl: signed.body.data.FileUrl });
    expect(await server.app.storage.exists(key)).toBe(true);
    const res = await bulk(admin, '/Ajax/DelVideoBatch', { Ids: [video.Id] });
    expect(res.body.data).toEqual({ Deleted: 1, Failed: [] });
    expect(await server.app.storage.exists(key)).toBe(false);
  });

  it(`deletes ${BULK_DELETE_BATCH} rows to a transaction`, async () => {
    const ids = await addWebsites('分批', 2 * BULK_DELETE_BATCH + Math.ceil(BULK_DELETE_BATCH / 2));
    const db = server.app.database.db;
    const transaction = db.transaction.bind(db);
    let transactions = 0;
    db.transaction = () => {
      transactions++;
      return transaction();
    };
    try {
      const res = await bulk(admin, '/Ajax/DelUsewebBatch', { Ids: ids });
      expect(res.body.data).toEqual({ Deleted: ids.length, Failed: [] });
    } finally {
      db.transaction = transaction;
    }
    expect(transactions).toBe(3);
    const logged = new Set((await deletions('useweb')).map((e) => e.RecordId));
    for (const id of ids) expect(logged.has(id)).toBe(true);
  });

  it('keeps the deletions made before a batch fails, deletes the rest of that batch, and reports the row that failed', async () => {
    const ids = await addWebsites('故障前', 2 * BULK_DELETE_BATCH + Math.ceil(BULK_DELETE_BATCH / 2));
    // A row in the middle of the second batch refuses to go: that batch fails midway.
    const failing = ids[BULK_DELETE_BATCH + Math.floor(BULK_DELETE_BATCH / 2)]!;
    const db = server.app.database.db;
    const updated = await admin.call('/Ajax/UpdateUseweb', { Id: failing, UwName: '故障' });
    expect(updated.status, updated.body.msg).toBe(200);
    if (server.dialect === 'postgres') {
      await sql
        .raw(
          `create function bulk_fail() returns trigger as $$ begin if old."UW_NAME" = '故障' then raise exception 'injected'; end if; return old; end $$ language plpgsql;
           create trigger bulk_fail before delete on "USEWEB" for each row execute function bulk_fail();`,
        )
        .execute(db);
    } else {
      await sql.raw(`create trigger bulk_fail before delete on USEWEB when old.UW_NAME = '故障' begin select raise(abort, 'injected'); end`).execute(db);
    }
    try {
      const res = await bulk(admin, '/Ajax/DelUsewebBatch', { Ids: ids });
      expect(res.status, res.body.msg).toBe(200);
      expect(res.body.data).toEqual({ Deleted: ids.length - 1, Failed: [{ Id: failing, Name: '故障', Reason: '删除失败，请稍后重试' }] });
    } finally {
      await sql.raw('drop trigger bulk_fail' + (server.dialect === 'postgres' ? ' on "USEWEB"' : '')).execute(db);
    }
    const left = await admin.call<{ Id: number }[]>('/Ajax/GetUsewebListInAdmin', { All: 1 });
    const leftIds = new Set(left.body.data.map((w) => w.Id));
    expect(ids.filter((id) => leftIds.has(id))).toEqual([failing]);
    const logged = new Set((await deletions('useweb')).map((e) => e.RecordId));
    expect(ids.filter((id) => logged.has(id))).toHaveLength(ids.length - 1);
    expect(logged.has(failing)).toBe(false);
  });
});
