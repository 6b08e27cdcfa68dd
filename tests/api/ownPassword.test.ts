// A member changes their own password (UpdateOwnPassword): the current password is required and is
// checked under the login limits; the change ends every other session of the member and is logged
// without the password. The built-in administrator's password is changed only that way, never by
// UpdateMember. The demo staff member has no published password: DEMO_STAFF_PASSWORD, or a random
// one printed once at first start.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FAILS_PER_PAIR } from '../../server/src/auth/throttle';
import { ADMIN_PASSWORD, Client, startServer, type TestServer } from '../helpers/server';
import { startServerProcess } from '../helpers/serverProcess';

const CALL = '/Ajax/UpdateOwnPassword';
const PASSWORD = 'password-123';

interface Entry {
  Id: number;
  AuCode: string;
  Action: string;
  Resource: string;
  RecordId: number | null;
  Changes: { field: string; redacted?: true }[];
}

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await startServer();
  admin = await server.admin();
});
afterAll(() => server?.close());

interface Member {
  Id: number;
  AuCode: string;
  UserName: string;
  /** A client logged in as the member. */
  client: Client;
}

let members = 0;

/** A new member (an administrator with `IsAdmin: 1`), logged in with PASSWORD. */
async function newMember(extra: Record<string, unknown> = {}): Promise<Member> {
  const UserName = `own${++members}_${randomBytes(3).toString('hex')}`;
  const res = await admin.call<{ Id: number; AuCode: string }>('/Ajax/AddMember', {
    UserName,
    AuName: `改密成员${members}`,
    Password: PASSWORD,
    IsAdmin: 0,
    Modules: {},
    ...extra,
  });
  expect(res.status, res.body.msg).toBe(200);
  const client = server.client();
  await client.login(UserName, PASSWORD);
  return { Id: res.body.data.Id, AuCode: res.body.data.AuCode, UserName, client };
}

const passwordHashOf = async (id: number) =>
  (await server.app.database.db.selectFrom('MEMBER').select('PASSWORD_HASH').where('ID', '=', id).executeTakeFirstOrThrow()).PASSWORD_HASH;

const loginStatus = async (userName: string, password: string) =>
  (await server.client().call('/Ajax/Login', { UserName: userName, Password: password })).status;

/** The log's entries about one member record. */
async function entriesOf(id: number): Promise<Entry[]> {
  const res = await admin.call<Entry[]>('/Ajax/GetAuditLogListInAdmin', { All: 1 });
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data.filter((e) => e.Resource === 'member' && e.RecordId === id);
}

describe('a member changes their own password', () => {
  it('with the right current password: the new one logs in, the old one not, other sessions end, one entry is logged', async () => {
    const m = await newMember();
    const other = server.client();
    await other.login(m.UserName, PASSWORD);
    const before = await entriesOf(m.Id);
    const NEW = 'brand-new-pass-1';

    const res = await m.client.call(CALL, { OldPassword: PASSWORD, NewPassword: NEW });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body).toMatchObject({ code: 0, msg: '密码已修改' });
    // The session that made the change goes on (with a new cookie); every other one has ended.
    expect(res.headers.get('set-cookie')).toMatch(/^zhishi_sid=[A-Za-z0-9_-]+;/);
    expect((await m.client.call('/Ajax/GetCurrentMember')).status).toBe(200);
    expect((await other.call('/Ajax/GetCurrentMember')).status).toBe(401);

    expect(await loginStatus(m.UserName, PASSWORD)).toBe(401);
    expect(await loginStatus(m.UserName, NEW)).toBe(200);

    const added = (await entriesOf(m.Id)).filter((e) => !before.some((b) => b.Id === e.Id));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ AuCode: m.AuCode, Action: 'update', Resource: 'member', RecordId: m.Id });
    expect(added[0]!.Changes).toEqual([{ field: 'Password', redacted: true }]);
    const text = JSON.stringify(added);
    for (const secret of [PASSWORD, NEW, 'scrypt$', 'PASSWORD_HASH']) expect(text).not.toContain(secret);
  });

  it('refuses a wrong current password with a field error, changing nothing', async () => {
    const m = await newMember();
    const hash = await passwordHashOf(m.Id);
    const before = await entriesOf(m.Id);
    const res = await m.client.call(CALL, { OldPassword: 'not-my-password', NewPassword: 'another-pass-2' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 400, msg: '原密码不正确', errors: [{ field: 'OldPassword', msg: '原密码不正确' }] });
    expect(await passwordHashOf(m.Id)).toBe(hash);
    expect(await entriesOf(m.Id)).toEqual(before);
    expect((await m.client.call('/Ajax/GetCurrentMember')).status).toBe(200);
    expect(await loginStatus(m.UserName, PASSWORD)).toBe(200);
  });

  it('applies the rules of a member password to the new one, and wants it different', async () => {
    const m = await newMember();
    const hash = await passwordHashOf(m.Id);
    const short = await m.client.call(CALL, { OldPassword: PASSWORD, NewPassword: '12345' });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual([{ field: 'NewPassword', msg: '至少6个字符' }]);
    const long = await m.client.call(CALL, { OldPassword: PASSWORD, NewPassword: 'x'.repeat(129) });
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual([{ field: 'NewPassword', msg: '不能超过128个字符' }]);
    const same = await m.client.call(CALL, { OldPassword: PASSWORD, NewPassword: PASSWORD });
    expect(same.status).toBe(400);
    expect(same.body).toMatchObject({ msg: '新密码不能与原密码相同', errors: [{ field: 'NewPassword', msg: '新密码不能与原密码相同' }] });
    const missing = await m.client.call(CALL, { NewPassword: 'another-pass-3' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ field: 'OldPassword', msg: '必填' }]);
    expect(await passwordHashOf(m.Id)).toBe(hash);
  });

  it('throttles repeated wrong current passwords like logins (429), the right one included', async () => {
    const m = await newMember();
    const hash = await passwordHashOf(m.Id);
    for (let i = 0; i < MAX_FAILS_PER_PAIR; i++) {
      const res = await m.client.call(CALL, { OldPassword: `guess-${i}`, NewPassword: 'guessed-pass-1' });
      expect(res.status, `guess ${i + 1}`).toBe(400);
    }
    const throttled = await m.client.call(CALL, { OldPassword: PASSWORD, NewPassword: 'guessed-pass-1' });
    expect(throttled.status).toBe(429);
    expect(throttled.body).toMatchObject({ code: 429, msg: '密码错误次数过多，请15分钟后再试' });
    // The same counters as the login's: this account cannot be guessed at there either.
    expect(await loginStatus(m.UserName, PASSWORD)).toBe(429);
    expect(await passwordHashOf(m.Id)).toBe(hash);
    expect((await m.client.call('/Ajax/GetCurrentMember')).status).toBe(200);
  });

  it('needs a signed-in member', async () => {
    const res = await server.client().call(CALL, { OldPassword: ADMIN_PASSWORD, NewPassword: 'anonymous-pass' });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(401);
    expect(await loginStatus('admin', ADMIN_PASSWORD)).toBe(200);
  });
});

describe("the built-in administrator's password", () => {
  it('is not reset through UpdateMember, by another administrator or by themselves', async () => {
    const builtin = (await admin.call<{ Id: number; IsBuiltin: number }[]>('/Ajax/GetMemberListInAdmin', { All: 1 })).body.data.find(
      (r) => r.IsBuiltin === 1,
    )!;
    const hash = await passwordHashOf(builtin.Id);
    const second = await newMember({ IsAdmin: 1 });
    for (const by of [second.client, admin]) {
      const res = await by.call('/Ajax/UpdateMember', { Id: builtin.Id, Password: 'taken-over-1' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        msg: '内置管理员的密码只能由其本人修改',
        errors: [{ field: 'Password', msg: '内置管理员的密码只能由其本人修改' }],
      });
    }
    expect(await passwordHashOf(builtin.Id)).toBe(hash);
    expect(await loginStatus('admin', 'taken-over-1')).toBe(401);
    expect(await loginStatus('admin', ADMIN_PASSWORD)).toBe(200);
    // Other fields of the built-in administrator may still be changed.
    expect((await admin.call('/Ajax/UpdateMember', { Id: builtin.Id, OrganizationName: '总部' })).status).toBe(200);
  });

  it("other administrators' passwords can still be reset by an administrator", async () => {
    const other = await newMember({ IsAdmin: 1 });
    expect((await admin.call('/Ajax/UpdateMember', { Id: other.Id, Password: 'reset-by-admin-1' })).status).toBe(200);
    expect(await loginStatus(other.UserName, 'reset-by-admin-1')).toBe(200);
  });

  it('is changed by the built-in administrator with UpdateOwnPassword', async () => {
    const self = await server.admin();
    const changed = await self.call(CALL, { OldPassword: ADMIN_PASSWORD, NewPassword: 'admin-own-new-1' });
    expect(changed.status, changed.body.msg).toBe(200);
    expect(await loginStatus('admin', 'admin-own-new-1')).toBe(200);
    // Back, for the calls of this file that log in as the administrator.
    expect((await self.call(CALL, { OldPassword: 'admin-own-new-1', NewPassword: ADMIN_PASSWORD })).status).toBe(200);
    admin = await server.admin();
  });
});

describe('the demo staff member', () => {
  it('gets a random password unless DEMO_STAFF_PASSWORD sets one', async () => {
    const generated = await startServer({ DEMO_DATA: '1' });
    try {
      const password = generated.generatedDemoStaffPassword;
      expect(password).toMatch(/^[A-Za-z0-9_-]{12}$/);
      expect(password).not.toBe('staff12345');
      expect((await generated.client().call('/Ajax/Login', { UserName: 'staff', Password: 'staff12345' })).status).toBe(401);
      expect((await generated.client().call('/Ajax/Login', { UserName: 'staff', Password: password })).status).toBe(200);
    } finally {
      await generated.close();
    }
    const set = await startServer({ DEMO_DATA: '1', DEMO_STAFF_PASSWORD: 'chosen-staff-pass' });
    try {
      expect(set.generatedDemoStaffPassword).toBeUndefined();
      expect((await set.client().call('/Ajax/Login', { UserName: 'staff', Password: 'chosen-staff-pass' })).status).toBe(200);
      expect((await set.client().call('/Ajax/Login', { UserName: 'staff', Password: 'staff12345' })).status).toBe(401);
    } finally {
      await set.close();
    }
  });

  it('has its generated password printed once at first start, next to the administrator’s', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-own-'));
    const env = { DATA_DIR: dataDir, DEMO_DATA: '1', PUBLIC_DIR: path.join(dataDir, 'no-public') };
    try {
      const first = await startServerProcess(env);
      let staffPassword: string | undefined;
      try {
        const out = first.stdout();
        expect(out).toMatch(/用户名 admin {2}密码 \S+/);
        staffPassword = /用户名 staff {2}密码 (\S+)/.exec(out)?.[1];
        expect(staffPassword, out).toMatch(/^[A-Za-z0-9_-]{12}$/);
        const staff = new Client(first.url);
        expect((await staff.call('/Ajax/Login', { UserName: 'staff', Password: staffPassword })).status).toBe(200);
      } finally {
        await first.stop();
      }
      // A restart on the same database prints no password: they were shown once.
      const again = await startServerProcess(env);
      try {
        expect(again.stdout()).not.toContain('密码');
        expect((await new Client(again.url).call('/Ajax/Login', { UserName: 'staff', Password: staffPassword })).status).toBe(200);
      } finally {
        await again.stop();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
