import { describe, expect, it, vi } from 'vitest';
import type { CurrentMember } from '../../schemas/types';
import type { HttpClient, HttpResponse } from '../http/index';
import { createAuthProvider } from './index';

const member: CurrentMember = { AuCode: 'c1', AuName: '张三', UserName: 'zs', IsAdmin: 0, OrganizationName: '造价一部', Modules: { useweb: '2' } };

const answer = (status: number, body: unknown): HttpResponse => ({ status, headers: new Headers(), body: JSON.stringify(body), json: body });
const ok = (data: unknown) => answer(200, { code: 0, msg: '操作成功!', data });
const refused = answer(401, { code: 401, msg: '请先登录' });

function provider(...answers: HttpResponse[]) {
  const queue = [...answers];
  const client = vi.fn<HttpClient>(async () => (queue.length > 1 ? queue.shift()! : queue[0]!));
  return { auth: createAuthProvider('', client), client };
}

describe('the member the authProvider knows (useMember reads it before react-admin does)', () => {
  it('is the session once it has answered, asked for once', async () => {
    const { auth, client } = provider(ok(member));
    expect(auth.knownMember()).toBeUndefined();
    await auth.getCurrentMember();
    expect(auth.knownMember()).toEqual(member);
    await auth.getPermissions!({});
    expect(client).toHaveBeenCalledTimes(1);
  });

  it('is none without a session, after logout and after a 401', async () => {
    const anonymous = provider(refused).auth;
    await expect(anonymous.getCurrentMember()).rejects.toMatchObject({ status: 401 });
    expect(anonymous.knownMember()).toBeUndefined();

    const { auth } = provider(ok(member), ok(null));
    await auth.getCurrentMember();
    await auth.logout({});
    expect(auth.knownMember()).toBeUndefined();

    const ended = provider(ok(member)).auth;
    await ended.getCurrentMember();
    await expect(ended.checkError({ status: 401 })).rejects.toBeDefined();
    expect(ended.knownMember()).toBeUndefined();
  });

  it('is the member a login answers with', async () => {
    const { auth } = provider(ok(member));
    await auth.login({ username: 'zs', password: 'pw' });
    expect(auth.knownMember()).toEqual(member);
  });
});
