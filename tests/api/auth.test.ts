import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/src/app';
import { ADMIN_PASSWORD, Client, startServer, type TestServer } from '../helpers/server';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

describe('login', () => {
  it('sets an httpOnly SameSite session cookie and returns the current member', async () => {
    const c = server.client();
    const res = await c.call<Record<string, unknown>>('/Ajax/Login', { UserName: 'admin', Password: ADMIN_PASSWORD });
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(res.body.data).toMatchObject({ AuName: '管理员', IsAdmin: 1 });
    expect(JSON.stringify(res.body.data)).not.toMatch(/scrypt|PASSWORD/i);
    const me = await c.get<{ AuCode: string; IsAdmin: number; Modules: object }>('/Ajax/GetCurrentMember');
    expect(me.body.data).toMatchObject({ IsAdmin: 1 });
    expect(me.body.data.AuCode).toBeTruthy();
  });

  it('gives one message for a wrong password and an unknown name', async () => {
    const wrong = await server.client().call('/Ajax/Login', { UserName: 'admin', Password: 'nope-nope' });
    const unknown = await server.client().call('/Ajax/Login', { UserName: 'nobody', Password: 'nope-nope' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.msg).toBe(unknown.body.msg);
  });

  it('answers 401 with the envelope when not logged in', async () => {
    const res = await server.client().call('/Ajax/GetVideoTypeListInAdmin', { All: 1 });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 401, msg: '请先登录' });
  });

  it('ends the session on logout: the old cookie no longer works', async () => {
    const c = await server.admin();
    const stolen = c.cookie;
    await c.call('/Ajax/Logout');
    const replay = new Client(server.url);
    replay.cookie = stolen;
    expect((await replay.get('/Ajax/GetCurrentMember')).status).toBe(401);
  });

  it('throttles an account after 5 failures, even with the right password then', async () => {
    const staff = await server.member({ video: '2' });
    void staff;
    const admin = await server.admin();
    const list = await admin.call<{ UserName: string }[]>('/Ajax/GetMemberListInAdmin', { pageSize: 100 });
    const name = list.body.data.map((m) => m.UserName).find((n) => n !== 'admin')!;
    for (let i = 0; i < 5; i++) {
      expect((await server.client().call('/Ajax/Login', { UserName: name, Password: `wrong-${i}` })).status).toBe(401);
    }
    const locked = await server.client().call('/Ajax/Login', { UserName: name, Password: 'password-123' });
    expect(locked.status).toBe(429);
    expect(locked.body.msg).toContain('15分钟');
    // Other accounts are not locked by it.
    expect((await server.client().call('/Ajax/Login', { UserName: 'admin', Password: ADMIN_PASSWORD })).status).toBe(200);
  });

  it('ends every session of a member whose password an administrator changes', async () => {
    const admin = await server.admin();
    const add = await admin.call<{ Id: number }>('/Ajax/AddMember', {
      UserName: 'pwchange',
      AuName: '改密',
      Password: 'first-pass',
      Modules: { video: '2' },
    });
    const c = server.client();
    await c.login('pwchange', 'first-pass');
    expect((await c.get('/Ajax/GetCurrentMember')).status).toBe(200);
    await admin.call('/Ajax/UpdateMember', { Id: add.body.data.Id, Password: 'second-pass' });
    expect((await c.get('/Ajax/GetCurrentMember')).status).toBe(401);
    expect((await server.client().call('/Ajax/Login', { UserName: 'pwchange', Password: 'first-pass' })).status).toBe(401);
    await server.client().login('pwchange', 'second-pass');
  });

  it('applies a permission change to the next call', async () => {
    const admin = await server.admin();
    const add = await admin.call<{ Id: number }>('/Ajax/AddMember', {
      UserName: 'permchange',
      AuName: '权限',
      Password: 'perm-pass',
      Modules: { videoType: '2' },
    });
    const c = server.client();
    await c.login('permchange', 'perm-pass');
    expect((await c.call('/Ajax/GetVideoTypeListInAdmin', { All: 1 })).status).toBe(200);
    await admin.call('/Ajax/UpdateMember', { Id: add.body.data.Id, Modules: {} });
    expect((await c.call('/Ajax/GetVideoTypeListInAdmin', { All: 1 })).status).toBe(403);
  });
});

describe('sessions shared through the database', () => {
  it('survive a restart and work on a second server process over the same database', async () => {
    const c = await server.admin();
    // A second app on the same DATA_DIR / database stands for another process or a restart.
    const { app: second } = await buildApp(server.config);
    await second.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = second.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const other = new Client(`http://127.0.0.1:${port}`);
      other.cookie = c.cookie;
      const me = await other.get<{ AuName: string }>('/Ajax/GetCurrentMember');
      expect(me.status).toBe(200);
      expect(me.body.data.AuName).toBe('管理员');
      // A logout on one process ends the session on the other.
      await other.call('/Ajax/Logout');
      expect((await c.get('/Ajax/GetCurrentMember')).status).toBe(401);
    } finally {
      await second.close();
    }
  });
});
