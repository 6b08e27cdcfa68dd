// The permission matrix over HTTP: each call of every descriptor needs its module's code (the cases
// come from the descriptors); ownership on videos and comments; member administration for
// administrators only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODULES, RESOURCES, type Action, type CallKind, type ResourceDescriptor } from '../../schemas/index';
import { oneParams, Records } from '../helpers/records';
import { startServer, type Client, type TestServer } from '../helpers/server';

let server: TestServer;
let admin: Client;
let vdtCode: string;
let videoId: number;
let usewebId: number;
let records: Records;

type Member = Awaited<ReturnType<TestServer['member']>> & { auCode: string };
const members = new Map<string, Promise<Member>>();

/** A member holding these permission strings, made once (logins cost a password hash each). */
function memberWith(modules: Record<string, string>): Promise<Member> {
  const key = JSON.stringify(modules);
  let member = members.get(key);
  if (!member) {
    member = server.member(modules).then(async (client) => {
      const me = await client.call<{ AuCode: string }>('/Ajax/GetCurrentMember');
      return Object.assign(client, { auCode: me.body.data.AuCode });
    });
    members.set(key, member);
  }
  return member;
}

beforeAll(async () => {
  server = await startServer();
  admin = await server.admin();
  records = new Records(server, admin);
  vdtCode = (await admin.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName: '类型', VdtSort: 1 })).body.data.VdtCode;
  videoId = (
    await admin.call<{ Id: number }>('/Ajax/AddVideo', { VdtCode: vdtCode, VdName: 'v', VdUrl: 'https://example.com/v.mp4' })
  ).body.data.Id;
  usewebId = (await admin.call<{ Id: number }>('/Ajax/AddUseweb', { UwName: 'w', UwUrl: 'https://example.com' })).body.data.Id;
});
afterAll(() => server?.close());

type Case = { module: string; code: string; path: string; owned?: ResourceDescriptor; body: () => Promise<Record<string, unknown>> };

const CODES_OF: Record<CallKind, string> = { list: '2', one: '2', create: '1', update: '3', delete: '4' };
const KINDS = Object.keys(CODES_OF) as CallKind[];
const ACTION_OF: Record<CallKind, Action> = { list: 'list', one: 'show', create: 'create', update: 'edit', delete: 'delete' };

/**
 * One case per call of each guarded descriptor and per module that may allow it: reads by `module`
 * and `readModules` with code 2, writes by `writeModule` (or `module`) with the call's code. An
 * action its `ownership` leaves to authors with sight of the rows needs code 2 on a reading module;
 * the rows of owned actions are the holder's own.
 */
function casesOf(d: ResourceDescriptor): Case[] {
  if (d.module === 'admin') return [];
  const readers = [d.module, ...(d.readModules ?? [])];
  const writer = d.writeModule ?? d.module;
  return KINDS.flatMap((kind) => {
    const name = d.calls[kind];
    if (!name) return [];
    const owned = d.ownership?.actions.includes(ACTION_OF[kind]) ? d : undefined;
    const byAuthor = owned !== undefined && d.ownership?.byOwnerWithView === true;
    const modules = kind === 'list' || kind === 'one' || byAuthor ? readers : [writer];
    const code = byAuthor ? '2' : CODES_OF[kind];
    const body = async (): Promise<Record<string, unknown>> => {
      if (kind === 'list') return { All: 1 };
      if (kind === 'create') return records.body(d);
      // Updated and deleted rows are made for the case (a delete takes its row).
      const record = kind === 'one' ? await records.shared(d.resource) : await records.fresh(d);
      return kind === 'one' ? oneParams(d, record) : { Id: record.Id };
    };
    return modules.map((module) => ({ module, code, path: `/${d.service}/${name}`, ...(owned && { owned }), body }));
  });
}

const cases: Case[] = [
  ...RESOURCES.flatMap(casesOf),
  // A hand-written call beyond the descriptors (routes/useweb.ts).
  {
    module: 'useweb',
    code: 'a',
    path: '/Ajax/UpdateUsewebSort',
    body: async () => ({ modelList: [{ Id: usewebId, UwSort: 1 }] }),
  },
];

const ALL = ['1', '2', '3', '4', 'a'];

describe('module permission codes', () => {
  it('cover every call of every guarded descriptor', () => {
    const guarded = RESOURCES.filter((d) => d.module !== 'admin');
    for (const d of guarded) {
      for (const kind of KINDS) {
        if (d.calls[kind]) expect(cases.some((c) => c.path === `/${d.service}/${d.calls[kind]}`), `${d.resource} ${kind}`).toBe(true);
      }
    }
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  for (const c of cases) {
    it(`${c.path} needs code ${c.code} on ${c.module}`, async () => {
      const without = await memberWith({ [c.module]: ALL.filter((x) => x !== c.code).join(',') });
      const refused = await without.call(c.path, await c.body());
      expect(refused.status).toBe(403);
      expect(refused.body.msg).toBeTruthy();
      const holder = await memberWith({ [c.module]: c.code });
      const body = await c.body();
      if (c.owned) await records.giveTo(c.owned, body, holder.auCode);
      const allowed = await holder.call(c.path, body);
      expect(allowed.status, allowed.body.msg).toBe(200);
    });
  }

  it('lets a viewer of the online videos read videos and types but not change them', async () => {
    const viewer = await server.member({ videoView: '2' });
    expect((await viewer.call('/Ajax/GetVideoListInAdmin', { VdtCode: vdtCode })).status).toBe(200);
    expect((await viewer.call('/Ajax/GetVideoTypeListInAdmin', { All: 1 })).status).toBe(200);
    expect((await viewer.call('/Ajax/UpdateVideoNumAdd', { Id: videoId })).status).toBe(200);
    expect((await viewer.call('/Ajax/UpdateVideo', { Id: videoId, VdName: 'hack' })).status).toBe(403);
    expect((await viewer.call('/Ajax/DelVideo', { Id: videoId })).status).toBe(403);
  });

  it('keeps /Xcx1/ and /Xcx3/ apart: article rights do not open unified answers', async () => {
    const reader = await server.member({ article: '2' });
    expect((await reader.call('/Xcx1/GetStandardArticleListInAdmin', {})).status).toBe(200);
    expect((await reader.call('/Xcx3/GetStandardArticleListInAdmin', {})).status).toBe(403);
  });

  it('refuses a member with no modules everywhere', async () => {
    const nobody = await server.member({});
    for (const c of cases) expect((await nobody.call(c.path, await c.body())).status, c.path).toBe(403);
  });
});

describe('ownership', () => {
  it('lets only the creator or an administrator edit and delete a video', async () => {
    const creator = await server.member({ video: '1,2,3,4' });
    const other = await server.member({ video: '1,2,3,4' });
    const mine = (
      await creator.call<{ Id: number; CreateUser: string }>('/Ajax/AddVideo', { VdtCode: vdtCode, VdName: '我的', VdUrl: 'https://e.com/m.mp4' })
    ).body.data;
    expect(mine.CreateUser).toBe(creator.auName);
    expect((await other.call('/Ajax/UpdateVideo', { Id: mine.Id, VdName: '改' })).status).toBe(403);
    expect((await other.call('/Ajax/DelVideo', { Id: mine.Id })).status).toBe(403);
    expect((await creator.call('/Ajax/UpdateVideo', { Id: mine.Id, VdName: '改' })).status).toBe(200);
    expect((await admin.call('/Ajax/UpdateVideo', { Id: mine.Id, VdName: '管理员改' })).status).toBe(200);
    expect((await creator.call('/Ajax/DelVideo', { Id: mine.Id })).status).toBe(200);
  });

  it('keeps a video without a creator code (a legacy or demo row) for administrators, whatever the display name', async () => {
    // Display names are not unique: a member named as the row's creator is not its creator.
    const namesake = await server.member({ video: '1,2,3,4' }, { AuName: '管理员' });
    const legacy = (
      await admin.call<{ Id: number }>('/Ajax/AddVideo', { VdtCode: vdtCode, VdName: '旧视频', VdUrl: 'https://e.com/old.mp4' })
    ).body.data;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- write the row as imported legacy data has it
    await (server.app.database.db as any).updateTable('VIDEO').set({ CREATE_AU_CODE: '', CREATE_USER: '管理员' }).where('ID', '=', legacy.Id).execute();
    expect((await namesake.call('/Ajax/UpdateVideo', { Id: legacy.Id, VdName: '冒名改' })).status).toBe(403);
    expect((await namesake.call('/Ajax/DelVideo', { Id: legacy.Id })).status).toBe(403);
    const stored = (await admin.call<{ VdName: string }>('/Ajax/GetSingleVideoInAdmin', { Id: legacy.Id })).body.data;
    expect(stored.VdName).toBe('旧视频');
    expect((await admin.call('/Ajax/UpdateVideo', { Id: legacy.Id, VdName: '管理员改' })).status).toBe(200);
    expect((await admin.call('/Ajax/DelVideo', { Id: legacy.Id })).status).toBe(200);
  });

  it('lets only the author or an administrator delete a comment', async () => {
    const v = (await admin.call<{ VdCode: string }>('/Ajax/GetSingleVideoInAdmin', { Id: videoId })).body.data;
    const author = await server.member({ videoView: '1,2' });
    const other = await server.member({ videoView: '1,2,3,4' });
    const comment = (await author.call<{ Id: number }>('/Ajax/AddVideoMessage', { VdCode: v.VdCode, VmDes: '<p>hi</p>' })).body.data;
    expect((await other.call('/Ajax/DelVideoMessage', { Id: comment.Id })).status).toBe(403);
    expect((await author.call('/Ajax/DelVideoMessage', { Id: comment.Id })).status).toBe(200);
    const second = (await author.call<{ Id: number }>('/Ajax/AddVideoMessage', { VdCode: v.VdCode, VmDes: '<p>again</p>' })).body.data;
    expect((await admin.call('/Ajax/DelVideoMessage', { Id: second.Id })).body.msg).toBe('操作成功!');
  });
});

describe('members', () => {
  it('are administered by administrators only', async () => {
    const staff = await server.member({ video: '1,2,3,4,a', classify: '1,2,3,4,a' });
    for (const path of ['/Ajax/GetMemberListInAdmin', '/Ajax/AddMember', '/Ajax/UpdateMember', '/Ajax/DelMember', '/Ajax/GetSingleMemberInAdmin']) {
      expect((await staff.call(path, { Id: 1, UserName: 'zz', AuName: 'z', Password: 'password' })).status, path).toBe(403);
    }
  });

  it('never return a password, keep names unique and protect the built-in admin', async () => {
    const list = await admin.call<Record<string, unknown>[]>('/Ajax/GetMemberListInAdmin', { pageSize: 100 });
    expect(JSON.stringify(list.body)).not.toMatch(/Password|scrypt|PASSWORD_HASH/);
    const builtin = list.body.data.find((m) => m.UserName === 'admin')!;
    expect((await admin.call('/Ajax/UpdateMember', { Id: builtin.Id, IsAdmin: 0 })).status).toBe(400);
    expect((await admin.call('/Ajax/DelMember', { Id: builtin.Id })).status).toBe(400);
    const dup = await admin.call('/Ajax/AddMember', { UserName: 'ADMIN', AuName: 'x', Password: 'password' });
    expect(dup.status).toBe(400);
    expect(dup.body.errors?.[0]).toEqual({ field: 'UserName', msg: '登录名已存在' });
    const noPass = await admin.call('/Ajax/AddMember', { UserName: 'nopass', AuName: 'x' });
    expect(noPass.body.errors).toContainEqual({ field: 'Password', msg: '必填' });
    const badModules = await admin.call('/Ajax/AddMember', { UserName: 'badmods', AuName: 'x', Password: 'password', Modules: { video: '1,9' } });
    expect(badModules.status).toBe(400);
  });

  it('refuse permission strings of modules no entity declares, naming the module', async () => {
    const refusedAdd = await admin.call('/Ajax/AddMember', {
      UserName: 'unknownmod',
      AuName: 'x',
      Password: 'password',
      Modules: { [MODULES[0]!]: '2', noSuchModule: '1,2' },
    });
    expect(refusedAdd.status).toBe(400);
    expect(refusedAdd.body.msg).toBe('权限模块不存在：noSuchModule');
    expect(refusedAdd.body.errors).toEqual([{ field: 'Modules', msg: '权限模块不存在：noSuchModule' }]);
    const list = await admin.call<{ UserName: string }[]>('/Ajax/GetMemberListInAdmin', { UserName: 'unknownmod' });
    expect(list.body.data).toEqual([]);

    const known = Object.fromEntries(MODULES.map((m) => [m, '2']));
    const add = await admin.call<{ Id: number; Modules: Record<string, string> }>('/Ajax/AddMember', {
      UserName: 'knownmods',
      AuName: 'x',
      Password: 'password',
      Modules: known,
    });
    expect(add.status, add.body.msg).toBe(200);
    expect(add.body.data.Modules).toEqual(known);
    const refusedUpdate = await admin.call('/Ajax/UpdateMember', { Id: add.body.data.Id, Modules: { 'video ': '2' } });
    expect(refusedUpdate.status).toBe(400);
    expect(refusedUpdate.body.msg).toBe('权限模块不存在：video ');
    const stored = await admin.call<{ Modules: Record<string, string> }>('/Ajax/GetSingleMemberInAdmin', { Id: add.body.data.Id });
    expect(stored.body.data.Modules).toEqual(known);
  });

  it('end the sessions of a deleted member', async () => {
    const add = await admin.call<{ Id: number }>('/Ajax/AddMember', { UserName: 'todelete', AuName: 'x', Password: 'password', Modules: { video: '2' } });
    const c = server.client();
    await c.login('todelete', 'password');
    expect((await admin.call('/Ajax/DelMember', { Id: add.body.data.Id })).body.msg).toBe('删除成功!');
    expect((await c.get('/Ajax/GetCurrentMember')).status).toBe(401);
  });
});
