// Sessions and access (Hardening 5): logout, a password change, disabling (停用) a member and a
// removed permission take effect on the very next call; the built-in administrator cannot be
// disabled; failed logins stay throttled however the request is varied.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, Client, startServer, type TestServer } from '../helpers/server';

const DISABLED_MSG = '该账号已停用，请联系管理员';

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await startServer();
  admin = await server.admin();
});
afterAll(() => server?.close());

interface MemberRecord {
  Id: number;
  AuCode: string;
  UserName: string;
  IsDisabled: number;
  IsBuiltin: number;
}

async function addMember(UserName: string, extra: Record<string, unknown> = {}) {
  const res = await admin.call<MemberRecord>('/Ajax/AddMember', {
    UserName,
    AuName: `成员${UserName}`,
    Password: 'password-123',
    Modules: { videoType: '2' },
    ...extra,
  });
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data;
}

describe('disabling a member (停用)', () => {
  it('ends the member’s open sessions: the next call of a logged-in client is a 401', async () => {
    const m = await addMember('disable1');
    const c = server.client();
    await c.login('disable1', 'password-123');
    const other = server.client();
    await other.login('disable1', 'password-123');
    expect((await c.call('/Ajax/GetVideoTypeListInAdmin', { All: 1 })).status).toBe(200);

    const res = await admin.call<MemberRecord>('/Ajax/UpdateMember', { Id: m.Id, IsDisabled: 1 });
    expect(res.status).toBe(200);
    expect(res.body.data.IsDisabled).toBe(1);

    for (const client of [c, other]) {
      const next = await client.call('/Ajax/GetVideoTypeListInAdmin', { All: 1 });
      expect(next.status).toBe(401);
      expect(next.body).toMatchObject({ code: 401, msg: '请先登录' });
    }
  });

  it('refuses the login of a disabled member with a clear message, only after the right password', async () => {
    const m = await addMember('disable2', { IsDisabled: 1 });
    expect(m.IsDisabled).toBe(1);
    const right = await server.client().call('/Ajax/Login', { UserName: 'disable2', Password: 'password-123' });
    expect(right.status).toBe(403);
    expect(right.body).toMatchObject({ code: 403, msg: DISABLED_MSG });
    expect(right.headers.get('set-cookie')).toBeNull();
    // A wrong password learns nothing about the account's state.
    const wrong = await server.client().call('/Ajax/Login', { UserName: 'disable2', Password: 'wrong-pass' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.msg).toBe('用户名或密码错误');

    // Enabled again: the member logs in as before.
    expect((await admin.call('/Ajax/UpdateMember', { Id: m.Id, IsDisabled: 0 })).status).toBe(200);
    await server.client().login('disable2', 'password-123');
  });

  it('shows the flag in the member list and details', async () => {
    const m = await addMember('disable3', { IsDisabled: 1 });
    const list = await admin.call<MemberRecord[]>('/Ajax/GetMemberListInAdmin', { UserName: 'disable3' });
    expect(list.body.data).toEqual([expect.objectContaining({ UserName: 'disable3', IsDisabled: 1 })]);
    const one = await admin.get<MemberRecord>('/Ajax/GetSingleMemberInAdmin', { Id: m.Id });
    expect(one.body.data.IsDisabled).toBe(1);
    const sorted = await admin.call<MemberRecord[]>('/Ajax/GetMemberListInAdmin', { All: 1, OrderName: 'IS_DISABLED DESC' });
    expect(sorted.body.data[0]?.IsDisabled).toBe(1);
  });

  it('refuses to disable the built-in administrator, and changes nothing', async () => {
    const list = await admin.call<MemberRecord[]>('/Ajax/GetMemberListInAdmin', { UserName: 'admin' });
    const builtin = list.body.data.find((m) => m.IsBuiltin === 1)!;
    // Asked by another administrator, so that "not yourself" is not what refuses it.
    await addMember('admin2', { IsAdmin: 1 });
    const second = server.client();
    await second.login('admin2', 'password-123');
    const res = await second.call('/Ajax/UpdateMember', { Id: builtin.Id, IsDisabled: 1, AuName: '改名' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ msg: '内置管理员不能停用', errors: [{ field: 'IsDisabled', msg: '内置管理员不能停用' }] });
    const after = await admin.get<MemberRecord & { AuName: string }>('/Ajax/GetSingleMemberInAdmin', { Id: builtin.Id });
    expect(after.body.data).toMatchObject({ IsDisabled: 0, AuName: '管理员' });
    expect((await admin.get('/Ajax/GetCurrentMember')).status).toBe(200);
  });

  it('refuses an administrator disabling themselves', async () => {
    const m = await addMember('admin3', { IsAdmin: 1 });
    const self = server.client();
    await self.login('admin3', 'password-123');
    const res = await self.call('/Ajax/UpdateMember', { Id: m.Id, IsDisabled: 1 });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('不能停用自己');
    expect((await self.get('/Ajax/GetCurrentMember')).status).toBe(200);
  });

  it('refuses a flag other than 0 or 1', async () => {
    const m = await addMember('disable4');
    const res = await admin.call('/Ajax/UpdateMember', { Id: m.Id, IsDisabled: 2 });
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]?.field).toBe('IsDisabled');
  });

  it('holds even for a member disabled in the database directly (sessions left in place)', async () => {
    const m = await addMember('disable5');
    const c = server.client();
    await c.login('disable5', 'password-123');
    await server.app.database.db.updateTable('MEMBER').set({ IS_DISABLED: 1 }).where('ID', '=', m.Id).execute();
    expect((await c.get('/Ajax/GetCurrentMember')).status).toBe(401);
  });
});

describe('what else ends or narrows a session at once', () => {
  it('a session ends when it expires, even while it is kept in the read cache', async () => {
    const m = await addMember('expiry1');
    const c = server.client();
    await c.login('expiry1', 'password-123');
    // Its expiry moved to 1.5 s from now (a write: the session is read again once).
    const soon = new Date(Date.now() + 1500).toISOString();
    await server.app.database.db.updateTable('SESSION').set({ EXPIRES_AT: soon }).where('AU_CODE', '=', m.AuCode).execute();
    expect((await c.get('/Ajax/GetCurrentMember')).status).toBe(200);
    // No write from here on: the kept session itself must be seen as expired.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect((await c.get('/Ajax/GetCurrentMember')).status).toBe(401);
  });

  it('logout: the same cookie replayed is a 401', async () => {
    await addMember('logout1');
    const c = server.client();
    await c.login('logout1', 'password-123');
    const cookie = c.cookie;
    expect((await c.call('/Ajax/Logout')).status).toBe(200);
    const replay = new Client(server.url);
    replay.cookie = cookie;
    expect((await replay.call('/Ajax/GetVideoTypeListInAdmin', { All: 1 })).status).toBe(401);
  });

  it('a password change by the administrator ends every session of the member', async () => {
    const m = await addMember('pw1');
    const a = server.client();
    const b = server.client();
    await a.login('pw1', 'password-123');
    await b.login('pw1', 'password-123');
    await admin.call('/Ajax/UpdateMember', { Id: m.Id, Password: 'new-password-1' });
    expect((await a.get('/Ajax/GetCurrentMember')).status).toBe(401);
    expect((await b.get('/Ajax/GetCurrentMember')).status).toBe(401);
  });

  it('an administrator losing IsAdmin loses the member screens on the next call', async () => {
    const m = await addMember('admin4', { IsAdmin: 1 });
    const c = server.client();
    await c.login('admin4', 'password-123');
    expect((await c.call('/Ajax/GetMemberListInAdmin', {})).status).toBe(200);
    await admin.call('/Ajax/UpdateMember', { Id: m.Id, IsAdmin: 0 });
    const next = await c.call('/Ajax/GetMemberListInAdmin', {});
    expect(next.status).toBe(403);
    expect(next.body.code).toBe(403);
  });

  it('a removed write code applies to the next write', async () => {
    const m = await addMember('perm1', { Modules: { useweb: '1,2' } });
    const c = server.client();
    await c.login('perm1', 'password-123');
    expect((await c.call('/Ajax/AddUseweb', { UwName: '一', UwUrl: 'https://a.example/' })).status).toBe(200);
    await admin.call('/Ajax/UpdateMember', { Id: m.Id, Modules: { useweb: '2' } });
    const refused = await c.call('/Ajax/AddUseweb', { UwName: '二', UwUrl: 'https://b.example/' });
    expect(refused.status).toBe(403);
    const names = (await c.call<{ UwName: string }[]>('/Ajax/GetUsewebListInAdmin', { All: 1 })).body.data.map((r) => r.UwName);
    expect(names).toContain('一');
    expect(names).not.toContain('二');
  });
});

describe('login throttling cannot be reset or bypassed by varying the request', () => {
  const fail = (body: Record<string, unknown>, path = '/Ajax/Login', headers: Record<string, string> = {}) =>
    server.client().call(path, body, { headers });

  it('counts case, spaces and full-width forms of the name against one account', async () => {
    await addMember('throttle1');
    const variants = ['throttle1', 'THROTTLE1', ' throttle1', 'throttle1 ', 'ｔｈｒｏｔｔｌｅ１'];
    for (const UserName of variants) {
      expect((await fail({ UserName, Password: `wrong-${UserName}` })).status).toBe(401);
    }
    const locked = await fail({ UserName: 'throttle1', Password: 'password-123' });
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ code: 429, msg: '登录失败次数过多，请15分钟后再试' });
    expect(locked.headers.get('set-cookie')).toBeNull();
  });

  it('ignores extra body fields, extra query parameters and another password', async () => {
    await addMember('throttle2');
    const attempts: [Record<string, unknown>, string][] = [
      [{ UserName: 'throttle2', Password: 'w1', reset: true }, '/Ajax/Login'],
      [{ UserName: 'throttle2', Password: 'w2', IsAdmin: 1, FAILS: 0 }, '/Ajax/Login?reset=1'],
      [{ UserName: 'throttle2', Password: 'w3' }, '/Ajax/Login?UserName=other'],
      [{ UserName: 'throttle2', Password: 'w4', UserName2: 'x' }, '/Ajax/Login?pageIndex=1'],
      [{ UserName: 'throttle2', Password: 'w5' }, '/Ajax/Login?'],
    ];
    for (const [body, path] of attempts) expect((await fail(body, path)).status).toBe(401);
    const locked = await fail({ UserName: 'throttle2', Password: 'password-123', extra: 'x' }, '/Ajax/Login?fresh=1');
    expect(locked.status).toBe(429);
    expect((await fail({ UserName: 'throttle2', Password: 'other-password' })).status).toBe(429);
    // Other spellings of the name do not open a fresh counter either.
    expect((await fail({ UserName: 'Throttle2 ', Password: 'password-123' })).status).toBe(429);
  });

  it('a successful login of another account does not reset a locked one', async () => {
    await addMember('throttle3');
    for (let i = 0; i < 5; i++) await fail({ UserName: 'throttle3', Password: `w-${i}` });
    await server.client().login('admin', ADMIN_PASSWORD);
    expect((await fail({ UserName: 'throttle3', Password: 'password-123' })).status).toBe(429);
  });
});

describe('login throttling per address', () => {
  let own: TestServer;
  beforeAll(async () => {
    own = await startServer();
  });
  afterAll(() => own?.close());

  it('locks the address after 20 failures on any names, whatever X-Forwarded-For says', async () => {
    for (let i = 0; i < 20; i++) {
      const res = await own.client().call(
        '/Ajax/Login',
        { UserName: `nobody${i}`, Password: 'wrong-pass' },
        // Without trustProxy the server reads the socket's address, never this header.
        { headers: { 'x-forwarded-for': `10.0.${i}.1`, 'x-real-ip': `10.1.${i}.1` } },
      );
      expect(res.status).toBe(401);
    }
    const locked = await own.client().call(
      '/Ajax/Login',
      { UserName: 'admin', Password: ADMIN_PASSWORD },
      { headers: { 'x-forwarded-for': '192.0.2.99' } },
    );
    expect(locked.status).toBe(429);
    expect(locked.body.msg).toBe('登录失败次数过多，请15分钟后再试');
  });
});
