/**
 * react-admin authProvider over the legacy session of docs/api.md.
 *
 * | method         | request / rule                                                              |
 * |----------------|-----------------------------------------------------------------------------|
 * | login          | POST Ajax/Login { UserName, Password }; the answer's data is the member     |
 * | logout         | POST Ajax/Logout (never rejects); forgets the member                        |
 * | checkAuth      | POST Ajax/GetCurrentMember once per session (cached); rejects on failure    |
 * | checkError     | 401 rejects (react-admin logs out); 403 and others resolve                  |
 * | getIdentity    | { id: AuCode, fullName: AuName, OrganizationName }                           |
 * | getPermissions | the current member                                                          |
 * | canAccess      | canAccess(member, { resource, action, record }) of schemas/permissions.ts   |
 */
import type { AuthProvider, UserIdentity } from 'react-admin';
import { canAccess as memberCanAccess, type Action } from '../../schemas/permissions';
import type { CurrentMember } from '../../schemas/types';
import { fetchJson, postJson, type HttpClient } from '../http/index';

/**
 * react-admin action names to the actions of schemas/permissions.ts. Besides the CRUD names,
 * react-admin's own buttons ask for 'export' (a read) and 'clone' (a create); 'sort' and
 * 'nextLevel' are this app's custom actions. Any other action is refused.
 */
export const ACTION_MAP: Readonly<Record<string, Action>> = {
  list: 'list',
  show: 'show',
  export: 'list',
  create: 'create',
  clone: 'create',
  edit: 'edit',
  delete: 'delete',
  sort: 'sort',
  nextLevel: 'nextLevel',
};

export interface SessionAuthProvider extends AuthProvider {
  /** The member of this session, fetched once and cached until login, logout or a 401. */
  getCurrentMember(): Promise<CurrentMember>;
  /** The member of this session once it has answered (until logout or a 401); else undefined. */
  knownMember(): CurrentMember | undefined;
}

function looksLikeMember(value: unknown): value is CurrentMember {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  return typeof m.AuCode === 'string' && typeof m.Modules === 'object' && m.Modules !== null;
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

/** The identity react-admin shows in the app bar. */
export function identityOf(member: CurrentMember): UserIdentity {
  return { id: member.AuCode, fullName: member.AuName, OrganizationName: member.OrganizationName };
}

/** `sessionMember`: the member a page rendered by the server was rendered for (not asked again). */
export function createAuthProvider(apiUrl: string, httpClient: HttpClient = fetchJson, sessionMember?: CurrentMember): SessionAuthProvider {
  const base = apiUrl.replace(/\/+$/, '');
  const url = (name: string) => `${base}/Ajax/${name}`;

  // One request in flight at most: react-admin asks for identity, permissions and access at once.
  let member: Promise<CurrentMember> | null = sessionMember ? Promise.resolve(sessionMember) : null;
  // Its answer, for what renders before react-admin's own queries have it (useMember).
  let known: CurrentMember | undefined = sessionMember;

  const getCurrentMember = (): Promise<CurrentMember> => {
    if (!member) {
      const pending = postJson<CurrentMember>(httpClient, url('GetCurrentMember')).then(({ data }) => data);
      member = pending;
      pending.then(
        (answer) => {
          if (member === pending) known = answer;
        },
        // A failed fetch is not cached: the next check asks the server again.
        () => {
          if (member === pending) member = null;
        },
      );
    }
    return member;
  };

  const provider: SessionAuthProvider = {
    async login(params: { username?: string; password?: string }) {
      member = null;
      known = undefined;
      const { data } = await postJson<unknown>(httpClient, url('Login'), {
        UserName: params.username ?? '',
        Password: params.password ?? '',
      });
      // Login answers with the member; keep it rather than asking again.
      if (looksLikeMember(data)) {
        member = Promise.resolve(data);
        known = data;
      }
    },

    async logout() {
      member = null;
      known = undefined;
      try {
        await postJson(httpClient, url('Logout'));
      } catch {
        // Logging out must always succeed on the client: the session may already be gone.
      }
    },

    async checkAuth() {
      await getCurrentMember();
    },

    async checkError(error: unknown) {
      if (statusOf(error) === 401) {
        member = null;
        known = undefined;
        throw error;
      }
      // 403: stay on the page; the screen shows the server's message. Others are not auth errors.
    },

    async getIdentity(): Promise<UserIdentity> {
      return identityOf(await getCurrentMember());
    },

    async getPermissions() {
      return getCurrentMember();
    },

    async canAccess(params: { action: string; resource: string; record?: unknown }) {
      const action = ACTION_MAP[params.action];
      if (!action) return false;
      let m: CurrentMember;
      try {
        m = await getCurrentMember();
      } catch {
        return false;
      }
      const record =
        typeof params.record === 'object' && params.record !== null ? (params.record as Record<string, unknown>) : undefined;
      return memberCanAccess(m, { resource: params.resource, action, ...(record ? { record } : {}) });
    },

    getCurrentMember,
    knownMember: () => known,
  };
  return provider;
}
