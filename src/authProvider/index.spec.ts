import { describe, expect, it, vi } from 'vitest';
import { HttpError } from 'react-admin';
import type { HttpClient, HttpResponse } from '../http/index';
import { createAuthProvider } from './index';
import { MODULES, PERMISSION_CODES, RESOURCES, type ModuleKey } from '../../schemas/index';
import { ACTION_CODES, canAccess, type Action, type PermissionHolder } from '../../schemas/permissions';
import type { CurrentMember } from '../../schemas/types';

// ---------------------------------------------------------------------------------------------
// Expected rules: the codes written out by hand from docs/api.md, the modules read from the
// descriptors' declarations, without calling the function under test.

/** Code each action needs: 1 add, 2 view, 3 edit, 4 delete, 'a' sort / next level. */
const NEEDED_CODE: Record<Action, string> = {
  create: '1',
  list: '2',
  show: '2',
  edit: '3',
  delete: '4',
  sort: 'a',
  nextLevel: 'a',
};

/**
 * Which modules' strings govern reading and writing each resource, read from the descriptors'
 * declarations (module, readModules, writeModule), and the owned actions left to authors who can
 * see the rows (ownership.byOwnerWithView: a comment is deleted by its author or an admin).
 */
const GOVERNS: Record<string, { read: ModuleKey[]; write: ModuleKey; byAuthor: readonly Action[] }> = Object.fromEntries(
  RESOURCES.filter((d) => d.module !== 'admin').map((d) => [
    d.resource,
    {
      read: [d.module, ...(d.readModules ?? [])],
      write: d.writeModule ?? d.module,
      byAuthor: d.ownership?.byOwnerWithView ? d.ownership.actions : [],
    },
  ]),
);

const ACTIONS = Object.keys(NEEDED_CODE) as Action[];
const isRead = (a: Action) => a === 'list' || a === 'show';

function expected(resource: string, module: ModuleKey, code: string, action: Action): boolean {
  const rule = GOVERNS[resource]!;
  // No code of its own, only sight of the rows.
  if (rule.byAuthor.includes(action)) return code === '2' && rule.read.includes(module);
  const modules = isRead(action) ? rule.read : [rule.write];
  return code === NEEDED_CODE[action] && modules.includes(module);
}

function staff(modules: Partial<Record<ModuleKey, string>>, who: Partial<PermissionHolder> = {}): PermissionHolder {
  return { AuCode: 'U1', AuName: '张三', IsAdmin: 0, Modules: modules, ...who };
}

const ADMIN: PermissionHolder = { AuCode: 'ADM', AuName: '管理员', IsAdmin: 1, Modules: {} };

const GUARDED = RESOURCES.filter((r) => r.module !== 'admin').map((r) => r.resource);

// ---------------------------------------------------------------------------------------------

describe('permission matrix of schemas/permissions.ts canAccess', () => {
  it('agrees on the code of each action, over modules the entities declare', () => {
    expect(ACTION_CODES).toEqual(NEEDED_CODE);
    expect(GUARDED.length).toBeGreaterThan(0);
    for (const [resource, rule] of Object.entries(GOVERNS)) {
      for (const module of [...rule.read, rule.write]) expect(MODULES, `${resource} ${module}`).toContain(module);
    }
    // Every module opens something.
    for (const module of MODULES) expect(Object.values(GOVERNS).some((r) => r.read.includes(module) || r.write === module), module).toBe(true);
  });

  describe.each(GUARDED)('%s', (resource) => {
    const cases = MODULES.flatMap((module) => PERMISSION_CODES.map((code) => [module, code] as const));
    it.each(cases)('with %s:%s grants exactly the actions of that code', (module, code) => {
      const member = staff({ [module]: code });
      for (const action of ACTIONS) {
        expect(canAccess(member, { resource, action }), `${resource} ${action} with ${module}:${code}`).toBe(
          expected(resource, module, code, action),
        );
      }
    });
  });

  it('grants nothing to a member without permission strings, or to nobody', () => {
    for (const resource of [...GUARDED, 'member']) {
      for (const action of ACTIONS) {
        expect(canAccess(staff({}), { resource, action })).toBe(false);
        expect(canAccess(null, { resource, action })).toBe(false);
        expect(canAccess(undefined, { resource, action })).toBe(false);
      }
    }
  });

  it('grants every action of a module holding all codes, with spaces tolerated', () => {
    const member = staff({ useweb: '1, 2,3 ,4,a' });
    for (const action of ACTIONS) expect(canAccess(member, { resource: 'useweb', action }), action).toBe(true);
  });

  it('refuses an unknown resource even to an administrator', () => {
    expect(canAccess(ADMIN, { resource: 'nothing', action: 'list' })).toBe(false);
  });
});

describe('administrators', () => {
  it('may do everything on every resource, including rows of others', () => {
    const others = { CreateAuCode: 'X', CreateUser: '李四', AuCode: 'X' };
    for (const { resource } of RESOURCES) {
      for (const action of ACTIONS) {
        expect(canAccess(ADMIN, { resource, action }), `${resource} ${action}`).toBe(true);
        expect(canAccess(ADMIN, { resource, action, record: others }), `${resource} ${action} row`).toBe(true);
      }
    }
  });

  it('alone may reach the member resource', () => {
    const everything = Object.fromEntries(MODULES.map((m) => [m, '1,2,3,4,a']));
    for (const action of ACTIONS) {
      expect(canAccess(staff(everything), { resource: 'member', action })).toBe(false);
      expect(canAccess(ADMIN, { resource: 'member', action })).toBe(true);
    }
  });
});

describe('ownership', () => {
  const editor = staff({ video: '1,2,3,4' }, { AuCode: 'U1', AuName: '张三' });

  it('lets the creator edit and delete a video, by creator code', () => {
    const mine = { Id: 1, CreateAuCode: 'U1', CreateUser: '别名' };
    expect(canAccess(editor, { resource: 'video', action: 'edit', record: mine })).toBe(true);
    expect(canAccess(editor, { resource: 'video', action: 'delete', record: mine })).toBe(true);
  });

  it("refuses another member's video even when the creator name matches", () => {
    const theirs = { Id: 1, CreateAuCode: 'U2', CreateUser: '张三' };
    expect(canAccess(editor, { resource: 'video', action: 'edit', record: theirs })).toBe(false);
    expect(canAccess(editor, { resource: 'video', action: 'delete', record: theirs })).toBe(false);
  });

  it('leaves rows without a creator code to administrators, even when the creator name matches', () => {
    expect(canAccess(editor, { resource: 'video', action: 'edit', record: { CreateAuCode: '', CreateUser: '张三' } })).toBe(false);
    expect(canAccess(editor, { resource: 'video', action: 'delete', record: { CreateUser: '张三' } })).toBe(false);
    expect(canAccess(editor, { resource: 'video', action: 'delete', record: {} })).toBe(false);
    expect(canAccess(ADMIN, { resource: 'video', action: 'edit', record: { CreateAuCode: '', CreateUser: '张三' } })).toBe(true);
  });

  it('still needs the code on an owned video', () => {
    const viewer = staff({ video: '2' });
    expect(canAccess(viewer, { resource: 'video', action: 'edit', record: { CreateAuCode: 'U1' } })).toBe(false);
  });

  it('does not apply to reading or to other resources', () => {
    const theirs = { CreateAuCode: 'U2', CreateUser: '李四' };
    expect(canAccess(editor, { resource: 'video', action: 'show', record: theirs })).toBe(true);
    const web = staff({ useweb: '3,4' });
    expect(canAccess(web, { resource: 'useweb', action: 'edit', record: theirs })).toBe(true);
  });

  it('lets the author or an admin delete a comment, whatever the delete code', () => {
    const viewer = staff({ videoView: '2' });
    expect(canAccess(viewer, { resource: 'videoComment', action: 'delete', record: { AuCode: 'U1' } })).toBe(true);
    expect(canAccess(viewer, { resource: 'videoComment', action: 'delete', record: { AuCode: 'U2' } })).toBe(false);
    const deleter = staff({ videoView: '2,4' });
    expect(canAccess(deleter, { resource: 'videoComment', action: 'delete', record: { AuCode: 'U2' } })).toBe(false);
    expect(canAccess(ADMIN, { resource: 'videoComment', action: 'delete', record: { AuCode: 'U2' } })).toBe(true);
  });

  it('refuses a comment deletion to an author who can no longer see comments', () => {
    const outsider = staff({ useweb: '1,2,3,4' });
    expect(canAccess(outsider, { resource: 'videoComment', action: 'delete', record: { AuCode: 'U1' } })).toBe(false);
  });
});

describe('readModules and writeModule', () => {
  it('lets a member with only videoView:2 list videos but not change them', () => {
    const viewer = staff({ videoView: '2' });
    expect(canAccess(viewer, { resource: 'video', action: 'list' })).toBe(true);
    expect(canAccess(viewer, { resource: 'video', action: 'show' })).toBe(true);
    expect(canAccess(viewer, { resource: 'videoType', action: 'list' })).toBe(true);
    for (const action of ['create', 'edit', 'delete'] as const) {
      expect(canAccess(viewer, { resource: 'video', action }), action).toBe(false);
      expect(canAccess(viewer, { resource: 'video', action, record: { CreateAuCode: 'U1' } }), action).toBe(false);
    }
  });

  it('does not let write codes on videoView write videos', () => {
    const viewer = staff({ videoView: '1,2,3,4,a' });
    expect(canAccess(viewer, { resource: 'video', action: 'create' })).toBe(false);
    expect(canAccess(viewer, { resource: 'video', action: 'edit', record: { CreateAuCode: 'U1' } })).toBe(false);
  });

  it('writes classifications with the classify module codes only', () => {
    const manager = staff({ classify: '1,2,3,4,a' });
    const reader = staff({ article: '1,2,3,4,a', tykj: '1,2,3,4,a' });
    for (const resource of ['classify', 'tykjClassify']) {
      for (const action of ['create', 'edit', 'delete', 'nextLevel', 'sort'] as const) {
        expect(canAccess(manager, { resource, action }), `${resource} ${action}`).toBe(true);
        expect(canAccess(reader, { resource, action }), `${resource} ${action}`).toBe(false);
      }
      expect(canAccess(manager, { resource, action: 'list' })).toBe(true);
      expect(canAccess(reader, { resource, action: 'list' })).toBe(true);
    }
  });

  it('keeps the /Xcx1/ and /Xcx3/ article modules apart', () => {
    const tykj = staff({ tykj: '1,2,3,4' });
    expect(canAccess(tykj, { resource: 'tykjArticle', action: 'edit' })).toBe(true);
    expect(canAccess(tykj, { resource: 'article', action: 'list' })).toBe(false);
    expect(canAccess(tykj, { resource: 'classify', action: 'list' })).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// The authProvider itself, over a mock HTTP client.

const API = 'http://host/api';
const MEMBER: CurrentMember = {
  AuCode: 'U1',
  AuName: '张三',
  UserName: 'zhangsan',
  IsAdmin: 0,
  OrganizationName: '造价一部',
  Modules: { video: '1,2,3', videoView: '2' },
};

function answer(status: number, json: unknown): HttpResponse {
  return { status, headers: new Headers(), body: JSON.stringify(json), json };
}
const ok = (data: unknown) => answer(200, { code: 0, msg: '操作成功!', data });
const unauthorized = () => answer(401, { code: 401, msg: '请先登录' });

/** Routes by call name; each route answers with its queue (the last answer repeats). */
function server(routes: Record<string, HttpResponse[]>) {
  const client = vi.fn<HttpClient>(async (url) => {
    const name = url.split('/').pop()!;
    const queue = routes[name];
    if (!queue?.length) throw new Error(`unexpected call ${url}`);
    return queue.length > 1 ? queue.shift()! : queue[0]!;
  });
  const calls = (name: string) => client.mock.calls.filter(([url]) => url.endsWith(`/Ajax/${name}`));
  return { client, calls };
}

describe('createAuthProvider', () => {
  it('logs in with UserName and Password and keeps the member it answers', async () => {
    const { client, calls } = server({ Login: [ok(MEMBER)], GetCurrentMember: [ok(MEMBER)] });
    const auth = createAuthProvider(API, client);
    await auth.login({ username: 'zhangsan', password: 'secret1' });
    const [url, options] = calls('Login')[0]!;
    expect(url).toBe('http://host/api/Ajax/Login');
    expect(options?.method).toBe('POST');
    expect(options?.credentials).toBe('same-origin');
    expect(new Headers(options?.headers).get('Content-Type')).toBe('application/json');
    expect(JSON.parse(String(options?.body))).toEqual({ UserName: 'zhangsan', Password: 'secret1' });
    await auth.checkAuth({});
    expect(calls('GetCurrentMember')).toHaveLength(0);
  });

  it("rejects a wrong login with the server's message", async () => {
    const { client } = server({ Login: [answer(401, { code: 401, msg: '用户名或密码错误' })] });
    await expect(createAuthProvider(API, client).login({ username: 'a', password: 'b' })).rejects.toMatchObject({
      message: '用户名或密码错误',
      status: 401,
    });
  });

  it('checks the session once and caches the member', async () => {
    const { client, calls } = server({ GetCurrentMember: [ok(MEMBER)] });
    const auth = createAuthProvider(API, client);
    await Promise.all([auth.checkAuth({}), auth.getIdentity!(), auth.getPermissions!({})]);
    await auth.checkAuth({});
    expect(calls('GetCurrentMember')).toHaveLength(1);
    expect(calls('GetCurrentMember')[0]![0]).toBe('http://host/api/Ajax/GetCurrentMember');
    expect(calls('GetCurrentMember')[0]![1]?.method).toBe('POST');
  });

  it('rejects checkAuth quietly when there is no session: react-admin shows the login page without a notification', async () => {
    const { client } = server({ GetCurrentMember: [unauthorized()] });
    await expect(createAuthProvider(API, client).checkAuth({})).rejects.toEqual({ status: 401, message: false });
  });

  it('asks no more once the server said there is no session, until a login', async () => {
    const { client, calls } = server({ GetCurrentMember: [unauthorized()], Login: [ok(MEMBER)] });
    const auth = createAuthProvider(API, client);
    await expect(auth.checkAuth({})).rejects.toMatchObject({ status: 401 });
    await expect(auth.getPermissions!({})).rejects.toMatchObject({ status: 401, message: false });
    await expect(auth.getIdentity!()).rejects.toMatchObject({ status: 401 });
    expect(await auth.canAccess!({ resource: 'video', action: 'list' })).toBe(false);
    expect(calls('GetCurrentMember')).toHaveLength(1);
    await auth.login({ username: 'zhangsan', password: 'secret1' });
    await expect(auth.checkAuth({})).resolves.toBeUndefined();
  });

  it('asks again after a check that failed otherwise (the network, the server)', async () => {
    const { client, calls } = server({ GetCurrentMember: [answer(500, { code: 500, msg: '服务器错误' }), ok(MEMBER)] });
    const auth = createAuthProvider(API, client);
    await expect(auth.checkAuth({})).rejects.toBeInstanceOf(HttpError);
    await expect(auth.checkAuth({})).resolves.toBeUndefined();
    expect(calls('GetCurrentMember')).toHaveLength(2);
  });

  it('asks nothing on a page that says there is no session (null): the login page shows without a request', async () => {
    const { client } = server({});
    const auth = createAuthProvider(API, client, null);
    await expect(auth.checkAuth({})).rejects.toEqual({ status: 401, message: false });
    await expect(auth.getPermissions!({})).rejects.toMatchObject({ status: 401 });
    await expect(auth.getCurrentMember()).rejects.toMatchObject({ status: 401 });
    expect(auth.knownMember()).toBeUndefined();
    // Nothing to end either.
    await expect(auth.logout({})).resolves.toBeUndefined();
    expect(client).not.toHaveBeenCalled();
  });

  it('logs out, never rejects, and asks for no session afterwards until the next login', async () => {
    const { client, calls } = server({
      GetCurrentMember: [ok(MEMBER)],
      Logout: [answer(500, { code: 500, msg: '服务器错误' })],
      Login: [ok({ ...MEMBER, AuName: '张三丰' })],
    });
    const auth = createAuthProvider(API, client);
    await auth.checkAuth({});
    await expect(auth.logout({})).resolves.toBeUndefined();
    expect(calls('Logout')[0]![1]?.method).toBe('POST');
    await expect(auth.checkAuth({})).rejects.toEqual({ status: 401, message: false });
    expect(calls('GetCurrentMember')).toHaveLength(1);
    await auth.login({ username: 'zhangsan', password: 'secret1' });
    expect(await auth.getIdentity!()).toMatchObject({ fullName: '张三丰' });
  });

  describe('where login goes: never to the page of a session that ended in this page for another member', () => {
    const OTHER: CurrentMember = { ...MEMBER, AuCode: 'U2', AuName: '李四', UserName: 'lisi' };

    it('names nothing on a first login: react-admin goes to the page first asked for, or home', async () => {
      const { client } = server({ Login: [ok(MEMBER)] });
      await expect(createAuthProvider(API, client, null).login({ username: 'zhangsan', password: 'x' })).resolves.toBeUndefined();
    });

    it('goes home after another member logged out', async () => {
      const { client } = server({ Logout: [ok(null)], Login: [ok(OTHER)] });
      const auth = createAuthProvider(API, client, MEMBER);
      await auth.logout({});
      await expect(auth.login({ username: 'lisi', password: 'x' })).resolves.toEqual({ redirectTo: '/' });
    });

    it("goes home after another member's session was refused (401)", async () => {
      const { client } = server({ Login: [ok(OTHER)], Logout: [ok(null)] });
      const auth = createAuthProvider(API, client, MEMBER);
      await expect(auth.checkError(new HttpError('请先登录', 401, {}))).rejects.toBeDefined();
      await auth.logout({});
      await expect(auth.login({ username: 'lisi', password: 'x' })).resolves.toEqual({ redirectTo: '/' });
    });

    it('names nothing when the same member logs in again: back to where they were', async () => {
      const { client } = server({ GetCurrentMember: [ok(MEMBER)], Logout: [ok(null)], Login: [ok(MEMBER), ok(OTHER)] });
      const auth = createAuthProvider(API, client);
      await auth.checkAuth({});
      await expect(auth.checkError(new HttpError('请先登录', 401, {}))).rejects.toBeDefined();
      await expect(auth.login({ username: 'zhangsan', password: 'x' })).resolves.toBeUndefined();
      // That login is the page's member now: the next one is compared with them.
      await auth.logout({});
      await expect(auth.login({ username: 'lisi', password: 'x' })).resolves.toEqual({ redirectTo: '/' });
    });

    it('goes home when the login answers no member to compare with', async () => {
      const { client } = server({ Logout: [ok(null)], Login: [ok(null)] });
      const auth = createAuthProvider(API, client, MEMBER);
      await auth.logout({});
      await expect(auth.login({ username: 'x', password: 'x' })).resolves.toEqual({ redirectTo: '/' });
    });
  });

  it('survives a logout without network', async () => {
    const client = vi.fn<HttpClient>(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(createAuthProvider(API, client).logout({})).resolves.toBeUndefined();
  });

  it('logs out on 401 only; 403 and other errors stay', async () => {
    const { client, calls } = server({ GetCurrentMember: [ok(MEMBER)] });
    const auth = createAuthProvider(API, client);
    await auth.checkAuth({});
    await expect(auth.checkError(new HttpError('无权限执行此操作', 403, {}))).resolves.toBeUndefined();
    await expect(auth.checkError(new HttpError('服务器错误', 500, {}))).resolves.toBeUndefined();
    await expect(auth.checkError(new Error('x'))).resolves.toBeUndefined();
    const gone = new HttpError('请先登录', 401, {});
    await expect(auth.checkError(gone)).rejects.toBe(gone);
    // The session is gone: not asked for again, react-admin goes to the login page.
    await expect(auth.checkAuth({})).rejects.toEqual({ status: 401, message: false });
    expect(calls('GetCurrentMember')).toHaveLength(1);
  });

  it('gives the identity and the member as permissions', async () => {
    const { client } = server({ GetCurrentMember: [ok(MEMBER)] });
    const auth = createAuthProvider(API, client);
    expect(await auth.getIdentity!()).toEqual({ id: 'U1', fullName: '张三', OrganizationName: '造价一部' });
    expect(await auth.getPermissions!({})).toEqual(MEMBER);
  });

  it('answers canAccess with the shared rules, mapping react-admin actions', async () => {
    const { client } = server({ GetCurrentMember: [ok(MEMBER)] });
    const auth = createAuthProvider(API, client);
    const can = (resource: string, action: string, record?: Record<string, unknown>) =>
      auth.canAccess!({ resource, action, ...(record ? { record } : {}) });
    expect(await can('video', 'list')).toBe(true);
    expect(await can('video', 'create')).toBe(true);
    expect(await can('video', 'clone')).toBe(true);
    expect(await can('video', 'export')).toBe(true);
    expect(await can('video', 'edit', { CreateAuCode: 'U1' })).toBe(true);
    expect(await can('video', 'edit', { CreateAuCode: 'U2' })).toBe(false);
    expect(await can('video', 'delete')).toBe(false);
    expect(await can('videoComment', 'delete', { AuCode: 'U1' })).toBe(true);
    expect(await can('useweb', 'list')).toBe(false);
    expect(await can('useweb', 'sort')).toBe(false);
    expect(await can('member', 'list')).toBe(false);
    expect(await can('video', 'fly')).toBe(false);
  });

  it('agrees with the pure rules for every resource, action and a mixed member', async () => {
    const mixed: CurrentMember = { ...MEMBER, Modules: { classify: '2,a', tykj: '1,2', useweb: '2,a', videoType: '3' } };
    const { client } = server({ GetCurrentMember: [ok(mixed)] });
    const auth = createAuthProvider(API, client);
    for (const { resource } of RESOURCES) {
      for (const action of ACTIONS) {
        expect(await auth.canAccess!({ resource, action }), `${resource} ${action}`).toBe(
          canAccess(mixed, { resource, action }),
        );
      }
    }
  });

  it('grants the administrator the member resource', async () => {
    const { client } = server({ GetCurrentMember: [ok({ ...MEMBER, IsAdmin: 1, Modules: {} })] });
    const auth = createAuthProvider(API, client);
    expect(await auth.canAccess!({ resource: 'member', action: 'delete' })).toBe(true);
  });

  it('refuses access when nobody is logged in', async () => {
    const { client } = server({ GetCurrentMember: [unauthorized()] });
    expect(await createAuthProvider(API, client).canAccess!({ resource: 'video', action: 'list' })).toBe(false);
  });
});
