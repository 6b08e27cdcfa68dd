// The read cache (sessions and list answers kept while the database is unchanged) must stay exact
// when another process writes to the same database: two apps over one SQLite file stand for two
// processes. On PostgreSQL nothing is cached and the same assertions hold trivially.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/src/app';
import { Client, startServer, type TestServer } from '../helpers/server';

let server: TestServer;
let second: Awaited<ReturnType<typeof buildApp>>['app'];
let here: Client;
let there: Client;

beforeAll(async () => {
  server = await startServer();
  ({ app: second } = await buildApp(server.config));
  await second.listen({ port: 0, host: '127.0.0.1' });
  const address = second.server.address();
  here = await server.admin();
  there = new Client(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
  there.cookie = here.cookie;
});
afterAll(async () => {
  await second?.close();
  await server?.close();
});

const listTypes = () => here.get<{ VdtName: string; Id: number }[]>('/Ajax/GetVideoTypeListInAdmin', { pageIndex: 1, pageSize: 15 });

describe('answers kept between calls', () => {
  it('show a row added, changed and deleted through another process at once', async () => {
    const before = await listTypes();
    expect((await listTypes()).body).toEqual(before.body); // now answered from the cache
    const added = await there.call<{ Id: number }>('/Ajax/AddVideoType', { VdtName: '另一进程添加', VdtSort: 1 });
    expect(added.status).toBe(200);
    const afterAdd = await listTypes();
    expect(afterAdd.body.total).toBe((before.body.total ?? 0) + 1);
    expect(afterAdd.body.data.map((t) => t.VdtName)).toContain('另一进程添加');

    await there.call('/Ajax/UpdateVideoType', { Id: added.body.data.Id, VdtName: '另一进程修改' });
    expect((await listTypes()).body.data.map((t) => t.VdtName)).toContain('另一进程修改');

    await there.call('/Ajax/DelVideoType', { Id: added.body.data.Id });
    const afterDelete = await listTypes();
    expect(afterDelete.body.total).toBe(before.body.total);
    expect(afterDelete.body.data.map((t) => t.VdtName)).not.toContain('另一进程修改');
  });

  it('show a single record changed and deleted through another process at once', async () => {
    const type = await here.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName: '单条', VdtSort: 3 });
    const added = await here.call<{ Id: number }>('/Ajax/AddVideo', { VdtCode: type.body.data.VdtCode, VdName: '单条', VdUrl: 'https://e.com/v.mp4' });
    const one = () => here.get<{ VdName: string }>('/Ajax/GetSingleVideoInAdmin', { Id: added.body.data.Id });
    expect((await one()).body.data.VdName).toBe('单条');
    expect((await one()).body.data.VdName).toBe('单条');
    await there.call('/Ajax/UpdateVideo', { Id: added.body.data.Id, VdName: '单条已改' });
    expect((await one()).body.data.VdName).toBe('单条已改');
    await there.call('/Ajax/DelVideo', { Id: added.body.data.Id });
    expect((await one()).status).toBe(404);
  });

  it('apply a permission removed through another process to the next call', async () => {
    const member = await server.member({ videoType: '2' });
    expect((await member.get('/Ajax/GetVideoTypeListInAdmin', { All: 1 })).status).toBe(200);
    const list = await there.get<{ Id: number; UserName: string }[]>('/Ajax/GetMemberListInAdmin', { All: 1 });
    const row = list.body.data.at(-1)!;
    expect((await there.call('/Ajax/UpdateMember', { Id: row.Id, Modules: {} })).status).toBe(200);
    expect((await member.get('/Ajax/GetVideoTypeListInAdmin', { All: 1 })).status).toBe(403);
  });

  it('end a session logged out through another process', async () => {
    const c = await server.admin();
    expect((await c.get('/Ajax/GetCurrentMember')).status).toBe(200);
    const other = new Client(there.baseUrl);
    other.cookie = c.cookie;
    await other.call('/Ajax/Logout');
    expect((await c.get('/Ajax/GetCurrentMember')).status).toBe(401);
  });
});

describe('with READ_CACHE=0', () => {
  it('answers the same lists', async () => {
    const uncached = await startServer({ READ_CACHE: '0' });
    try {
      expect(uncached.config.readCache).toBe(false);
      const admin = await uncached.admin();
      await admin.call('/Ajax/AddVideoType', { VdtName: '甲', VdtSort: 1 });
      const a = await admin.get<unknown[]>('/Ajax/GetVideoTypeListInAdmin', { All: 1 });
      await admin.call('/Ajax/AddVideoType', { VdtName: '乙', VdtSort: 2 });
      const b = await admin.get<unknown[]>('/Ajax/GetVideoTypeListInAdmin', { All: 1 });
      expect(b.body.total).toBe((a.body.total ?? 0) + 1);
    } finally {
      await uncached.close();
    }
  });
});
