// What the server does per request on its hot path (docs/performance.md, "The hot path"): work that
// a call cannot need is not done for it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type Client, type TestServer } from '../helpers/server';

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await startServer();
  admin = await server.admin();
});
afterAll(() => server?.close());

describe('the full-text indexer', () => {
  it('is woken after a write, not after a read asked by POST, the current member or a play count', async () => {
    const indexer = server.app.fullText;
    expect(indexer).toBeDefined();
    const vdtCode = (await admin.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName: '唤醒', VdtSort: 1 })).body.data.VdtCode;
    const video = (await admin.call<{ Id: number }>('/Ajax/AddVideo', { VdtCode: vdtCode, VdName: '唤醒', VdUrl: 'https://media.example.com/w.mp4' })).body.data;
    const wake = vi.spyOn(indexer!, 'wake');
    try {
      for (const [call, body] of [
        ['/Ajax/GetVideoListInAdmin', { VdtCode: vdtCode }],
        ['/Ajax/GetSingleVideoInAdmin', { Id: video.Id }],
        ['/Ajax/GetCurrentMember', {}],
        ['/Ajax/UpdateVideoNumAdd', { Id: video.Id }],
        ['/Ajax/UpdateVideoFabulousAdd', { Id: video.Id }],
      ] as const) {
        const res = await admin.call(call, body);
        expect(res.status, call).toBe(200);
      }
      // onResponse runs once the answer is sent: give it its turn.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(wake).not.toHaveBeenCalled();
      expect((await admin.call('/Ajax/AddVideoType', { VdtName: '唤醒二', VdtSort: 2 })).status).toBe(200);
      await vi.waitFor(() => expect(wake).toHaveBeenCalled());
    } finally {
      wake.mockRestore();
    }
  });
});

describe('the current member, kept with the session', () => {
  it('is answered as changed by the last write, name and modules', async () => {
    const member = await server.member({ useweb: '1,2' });
    const me = async () => (await member.call<{ AuName: string; Modules: Record<string, string> }>('/Ajax/GetCurrentMember')).body.data;
    expect(await me()).toMatchObject({ AuName: member.auName, Modules: { useweb: '1,2' } });
    expect(await me()).toMatchObject({ Modules: { useweb: '1,2' } });
    const list = await admin.call<{ Id: number; AuName: string }[]>('/Ajax/GetMemberListInAdmin', { pageSize: 100 });
    const id = list.body.data.find((m) => m.AuName === member.auName)!.Id;
    expect((await admin.call('/Ajax/UpdateMember', { Id: id, AuName: '改名', Modules: { useweb: '2', video: '2' } })).status).toBe(200);
    expect(await me()).toMatchObject({ AuName: '改名', Modules: { useweb: '2', video: '2' } });
    // The permission check reads the same: a removed code refuses the next call.
    expect((await member.call('/Ajax/AddUseweb', { UwName: '一', UwUrl: 'https://a.example/' })).status).toBe(403);
  });
});
