import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Client, type TestServer } from '../helpers/server';

let server: TestServer;
let admin: Client;
let typeA: { VdtCode: string; Id: number };
let typeB: { VdtCode: string; Id: number };

const video = (VdtCode: string, extra: Record<string, unknown> = {}) => ({
  VdtCode,
  VdName: '测试视频',
  VdPer: '王工',
  VdTime: '2026-01-01',
  VdUrl: 'https://media.example.com/a.mp4',
  VdEnclosure: '[]',
  IsTop: 0,
  ...extra,
});

beforeAll(async () => {
  server = await startServer();
  admin = await server.admin();
  typeA = (await admin.call<typeof typeA>('/Ajax/AddVideoType', { VdtName: '类型A', VdtSort: 2 })).body.data;
  typeB = (await admin.call<typeof typeB>('/Ajax/AddVideoType', { VdtName: '类型B', VdtSort: 1 })).body.data;
});
afterAll(() => server?.close());

describe('video types', () => {
  it('lists by VDT_SORT ASC with All=1 and pages with a total', async () => {
    const all = await admin.call<{ VdtName: string }[]>('/Ajax/GetVideoTypeListInAdmin', { All: 1, OrderName: 'VDT_SORT ASC' });
    expect(all.status).toBe(200);
    expect(all.body.code).toBe(0);
    expect(all.body.data.map((t) => t.VdtName)).toEqual(['类型B', '类型A']);
    const page = await admin.call<unknown[]>('/Ajax/GetVideoTypeListInAdmin', { pageIndex: 2, pageSize: 1 });
    expect(page.body.total).toBe(2);
    expect(page.body.data).toHaveLength(1);
  });

  it('adds with a server code and updates by Id', async () => {
    const added = await admin.call<{ Id: number; VdtCode: string; VdtName: string }>('/Ajax/AddVideoType', {
      VdtName: '临时',
      VdtSort: 9,
      VdtCode: 'client-chosen',
    });
    expect(added.body.msg).toBe('操作成功!');
    expect(added.body.data.VdtCode).not.toBe('client-chosen');
    expect(added.body.data.VdtCode).toMatch(/^[0-9a-f]{32}$/);
    const updated = await admin.call<{ VdtName: string; VdtSort: number }>('/Ajax/UpdateVideoType', {
      Id: added.body.data.Id,
      VdtName: '临时2',
    });
    expect(updated.body.data).toMatchObject({ VdtName: '临时2', VdtSort: 9 });
    const deleted = await admin.call('/Ajax/DelVideoType', { Id: added.body.data.Id });
    expect(deleted.body.msg).toBe('删除成功!');
  });

  it('refuses a missing name with a field error', async () => {
    const res = await admin.call('/Ajax/AddVideoType', { VdtSort: 1 });
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field: 'VdtName', msg: '必填' });
  });

  it('refuses to delete a category that still holds videos (409) and keeps it', async () => {
    const type = (await admin.call<{ Id: number; VdtCode: string }>('/Ajax/AddVideoType', { VdtName: '有视频', VdtSort: 5 })).body.data;
    await admin.call('/Ajax/AddVideo', video(type.VdtCode));
    const res = await admin.call('/Ajax/DelVideoType', { Id: type.Id });
    expect(res.status).toBe(409);
    expect(res.body.msg).toContain('还有视频');
    const all = await admin.call<{ Id: number }[]>('/Ajax/GetVideoTypeListInAdmin', { All: 1 });
    expect(all.body.data.some((t) => t.Id === type.Id)).toBe(true);
  });

  it('answers 404 for an unknown Id', async () => {
    expect((await admin.call('/Ajax/UpdateVideoType', { Id: 999999, VdtName: 'x' })).status).toBe(404);
    expect((await admin.call('/Ajax/DelVideoType', { Id: 999999 })).status).toBe(404);
  });
});

describe('videos', () => {
  it('requires an uploaded video, refusing with 请上传视频! on VdUrl', async () => {
    const { VdUrl: _omit, ...noUrl } = video(typeA.VdtCode);
    const res = await admin.call('/Ajax/AddVideo', noUrl);
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field: 'VdUrl', msg: '请上传视频!' });
  });

  it('refuses an unknown category, a bad date, a non-http link and a bad handout list', async () => {
    expect((await admin.call('/Ajax/AddVideo', video('nope'))).body.errors?.[0]?.field).toBe('VdtCode');
    expect((await admin.call('/Ajax/AddVideo', video(typeA.VdtCode, { VdTime: '2026/01/01' }))).body.errors?.[0]?.field).toBe('VdTime');
    expect((await admin.call('/Ajax/AddVideo', video(typeA.VdtCode, { VdUrl: 'javascript:alert(1)' }))).status).toBe(400);
    const badList = await admin.call('/Ajax/AddVideo', video(typeA.VdtCode, { VdEnclosure: '{"name":1}' }));
    expect(badList.status).toBe(400);
    expect(badList.body.errors?.[0]?.field).toBe('VdEnclosure');
  });

  it('ignores fields the server owns', async () => {
    const res = await admin.call<Record<string, unknown>>(
      '/Ajax/AddVideo',
      video(typeA.VdtCode, { VdNum: 999, VdFabulous: 999, CreateUser: '别人', CreateAuCode: 'x', VdCode: 'mine', Id: 777 }),
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ VdNum: 0, VdFabulous: 0, CreateUser: '管理员' });
    expect(res.body.data.VdCode).not.toBe('mine');
    expect(res.body.data.Id).not.toBe(777);
  });

  it('orders by IS_TOP DESC, VD_TIME DESC within the category and pages deterministically', async () => {
    const type = (await admin.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName: '排序', VdtSort: 3 })).body.data;
    for (let i = 0; i < 12; i++) {
      // Many ties on purpose: same date, same pinned flag.
      await admin.call('/Ajax/AddVideo', video(type.VdtCode, { VdName: `v${i}`, VdTime: i < 3 ? '2026-03-01' : '2026-02-01', IsTop: i === 5 ? 1 : 0 }));
    }
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await admin.call<{ VdName: string }[]>('/Ajax/GetVideoListInAdmin', {
        VdtCode: type.VdtCode,
        OrderName: 'IS_TOP DESC, VD_TIME DESC',
        pageIndex: page,
        pageSize: 5,
      });
      expect(res.body.total).toBe(12);
      seen.push(...res.body.data.map((v) => v.VdName));
    }
    expect(seen).toHaveLength(12);
    expect(new Set(seen).size).toBe(12);
    expect(seen[0]).toBe('v5');
    expect(seen.slice(1, 4).sort()).toEqual(['v0', 'v1', 'v2']);
  });

  it('searches VdName as case-insensitive "contains", with wildcards taken literally', async () => {
    const type = (await admin.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName: '搜索', VdtSort: 4 })).body.data;
    for (const name of ['Revit 建模', 'revit进阶', '广联达 100%', '广联达 1000']) {
      await admin.call('/Ajax/AddVideo', video(type.VdtCode, { VdName: name }));
    }
    const byCase = await admin.call<{ VdName: string }[]>('/Ajax/GetVideoListInAdmin', { VdtCode: type.VdtCode, VdName: 'REVIT' });
    expect(byCase.body.data.map((v) => v.VdName).sort()).toEqual(['Revit 建模', 'revit进阶']);
    const percent = await admin.call<{ VdName: string }[]>('/Ajax/GetVideoListInAdmin', { VdtCode: type.VdtCode, VdName: '100%' });
    expect(percent.body.data.map((v) => v.VdName)).toEqual(['广联达 100%']);
    const viaGet = await admin.get<{ VdName: string }[]>('/Ajax/GetVideoListInAdmin', { VdtCode: type.VdtCode, VdName: '广联达' });
    expect(viaGet.status).toBe(200);
    expect(viaGet.body.total).toBe(2);
  });

  it('reads one video by Id and answers 404 for an unknown one', async () => {
    const added = (await admin.call<{ Id: number }>('/Ajax/AddVideo', video(typeA.VdtCode, { VdName: '单个' }))).body.data;
    const one = await admin.get<{ VdName: string }>('/Ajax/GetSingleVideoInAdmin', { Id: added.Id });
    expect(one.body.data.VdName).toBe('单个');
    expect((await admin.call('/Ajax/GetSingleVideoInAdmin', { Id: 424242 })).status).toBe(404);
  });

  it('merges an update onto the stored video and keeps the counters', async () => {
    const added = (await admin.call<{ Id: number }>('/Ajax/AddVideo', video(typeA.VdtCode))).body.data;
    await admin.call('/Ajax/UpdateVideoNumAdd', { Id: added.Id });
    const updated = await admin.call<Record<string, unknown>>('/Ajax/UpdateVideo', { Id: added.Id, IsTop: 1, VdNum: 0 });
    expect(updated.body.data).toMatchObject({ IsTop: 1, VdName: '测试视频', VdNum: 1 });
    expect((await admin.call('/Ajax/UpdateVideo', { Id: added.Id, VdName: '' })).status).toBe(400);
  });

  it('reads a malformed stored handout list as an empty list', async () => {
    const added = (await admin.call<{ Id: number }>('/Ajax/AddVideo', video(typeA.VdtCode))).body.data;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- write a broken value as legacy data would have it
    await (server.app.database.db as any).updateTable('VIDEO').set({ VD_ENCLOSURE: '{broken' }).where('ID', '=', added.Id).execute();
    const one = await admin.call<{ VdEnclosure: string }>('/Ajax/GetSingleVideoInAdmin', { Id: added.Id });
    expect(one.body.data.VdEnclosure).toBe('[]');
  });

  it('increments the play count and returns the new value; 404 for an unknown video', async () => {
    const added = (await admin.call<{ Id: number }>('/Ajax/AddVideo', video(typeA.VdtCode))).body.data;
    expect((await admin.call<number>('/Ajax/UpdateVideoNumAdd', { Id: added.Id })).body.data).toBe(1);
    expect((await admin.call<number>('/Ajax/UpdateVideoNumAdd', { Id: added.Id })).body.data).toBe(2);
    expect((await admin.call('/Ajax/UpdateVideoNumAdd', { Id: 987654 })).status).toBe(404);
  });

  it('adds exactly 100 likes for 100 parallel likes', async () => {
    const added = (await admin.call<{ Id: number }>('/Ajax/AddVideo', video(typeA.VdtCode))).body.data;
    const results = await Promise.all(Array.from({ length: 100 }, () => admin.call<number>('/Ajax/UpdateVideoFabulousAdd', { Id: added.Id })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(new Set(results.map((r) => r.body.data)).size).toBe(100);
    const one = await admin.call<{ VdFabulous: number }>('/Ajax/GetSingleVideoInAdmin', { Id: added.Id });
    expect(one.body.data.VdFabulous).toBe(100);
  });

  it('deletes a video with its comments', async () => {
    const added = (await admin.call<{ Id: number; VdCode: string }>('/Ajax/AddVideo', video(typeB.VdtCode))).body.data;
    await admin.call('/Ajax/AddVideoMessage', { VdCode: added.VdCode, VmDes: '<p>好</p>' });
    const res = await admin.call('/Ajax/DelVideo', { Id: added.Id });
    expect(res.body.msg).toBe('删除成功!');
    const comments = await admin.call<unknown[]>('/Ajax/GetVideoMessageListInAdmin', { All: 1, VdCode: added.VdCode });
    expect(comments.body.data).toEqual([]);
  });
});

describe('comments', () => {
  it('publishes a sanitised comment as the logged-in member, newest first', async () => {
    const v = (await admin.call<{ VdCode: string }>('/Ajax/AddVideo', video(typeA.VdtCode))).body.data;
    const first = await admin.call<Record<string, unknown>>('/Ajax/AddVideoMessage', {
      VdCode: v.VdCode,
      VmName: '',
      VmDes: '<p>很好<img src=x onerror=alert(1)><script>alert(2)</script></p>',
      AuName: '冒充',
      AuCode: 'fake',
    });
    expect(first.body.msg).toBe('发布成功!');
    expect(first.body.data.AuName).toBe('管理员');
    expect(first.body.data.VmDes).not.toMatch(/onerror|script/i);
    expect(first.body.data.VmDes).toContain('很好');
    await new Promise((r) => setTimeout(r, 5));
    await admin.call('/Ajax/AddVideoMessage', { VdCode: v.VdCode, VmDes: '<p>第二条</p>' });
    const list = await admin.call<{ VmDes: string }[]>('/Ajax/GetVideoMessageListInAdmin', {
      All: 1,
      VdCode: v.VdCode,
      OrderName: 'VM_TIME DESC',
    });
    expect(list.body.data.map((c) => c.VmDes)).toEqual(['<p>第二条</p>', first.body.data.VmDes]);
  });

  it('refuses an empty comment and a comment on an unknown video', async () => {
    const v = (await admin.call<{ VdCode: string }>('/Ajax/AddVideo', video(typeA.VdtCode))).body.data;
    for (const VmDes of ['', '<p><br></p>', '<p>   </p>', '<script>alert(1)</script>']) {
      const res = await admin.call('/Ajax/AddVideoMessage', { VdCode: v.VdCode, VmDes });
      expect(res.status, VmDes).toBe(400);
    }
    expect((await admin.call('/Ajax/AddVideoMessage', { VdCode: 'nope', VmDes: '<p>x</p>' })).status).toBe(404);
  });
});
