/**
 * react-admin authProvider over the legacy session of docs/api.md.
 *
 * | method         | request / rule                                                              |
 * |----------------|-----------------------------------------------------------------------------|
 * | login          | POST Ajax/Login { UserName, Password }; the answer's data is the member;    |
 * |                | `{ redirectTo: '/' }` after another member's session ended in this page     |
 * | logout         | POST Ajax/Logout (never rejects; none without a session); forgets the member |
 * | checkAuth      | POST Ajax/GetCurrentMember once per session (cached); rejects on failure,   |
 * |                | quietly ({ status: 401, message: false }) without a session                 |
 * | checkError     | 401 rejects (react-admin logs out); 403 and others resolve                  |
 * | getIdentity    | { id: AuCode, fullName: AuName, OrganizationName }                           |
 * | getPermissions | the current member                                                          |
 * | canAccess      | canAccess(member, { resource, action, record }) of schemas/permissions.ts   |
 *
 * Without a session nothing is asked: once the server said so (a 401, or a page sent without a
 * session: main.tsx), after logout, until the next login. A first visit thus shows the login page
 * without a refused call (the browser reports each as a console error) and without a notification.
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

/**
 * The refusal of a visitor without a session. `message: false`: react-admin goes to the login page
 * (remembering the page asked for) without a notification; a visitor who has not logged in yet has
 * done nothing wrong, and a member whose session ended sees the login page.
 */
interface NoSession {
  status: 401;
  message: false;
}

const noSession = (): NoSession => ({ status: 401, message: false });

/** Where login goes after another member's session ended in this page, rather than to their last page. */
const HOME = '/';

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

/**
 * `session`: the member a page rendered by the server was rendered for (not asked again); null when
 * the page says that there is no session (nothing is asked until a login); undefined: ask.
 */
export function createAuthProvider(apiUrl: string, httpClient: HttpClient = fetchJson, session?: CurrentMember | null): SessionAuthProvider {
  const base = apiUrl.replace(/\/+$/, '');
  const url = (name: string) => `${base}/Ajax/${name}`;

  // One request in flight at most: react-admin asks for identity, permissions and access at once.
  let member: Promise<CurrentMember> | null = session ? Promise.resolve(session) : null;
  // Its answer, for what renders before react-admin's own queries have it (useMember).
  let known: CurrentMember | undefined = session ?? undefined;
  // Known to be no session: nothing to ask until a login.
  let absent = session === null;
  // The member whose session ended in this page (logout, 401): where react-admin would return after
  // login (the page they were on) is theirs, not the next member's.
  let ended: UserIdentity['id'] | undefined;

  /** The session ends on this side: forgotten, and not asked for until a login. */
  const forget = () => {
    if (known) ended = identityOf(known).id;
    member = null;
    known = undefined;
    absent = true;
  };

  const getCurrentMember = (): Promise<CurrentMember> => {
    if (absent) return Promise.reject(noSession());
    if (!member) {
      const pending = postJson<CurrentMember>(httpClient, url('GetCurrentMember')).then(
        ({ data }) => data,
        (error: unknown) => {
          if (statusOf(error) !== 401) throw error;
          if (member === pending) absent = true;
          throw noSession();
        },
      );
      member = pending;
      pending.then(
        (answer) => {
          if (member === pending) known = answer;
        },
        // Not cached: without a session nothing is asked (absent); after another failure (the
        // network, the server) the next check asks again.
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
      absent = false;
      const previous = ended;
      ended = undefined;
      // Login answers with the member; keep it rather than asking again.
      if (looksLikeMember(data)) {
        member = Promise.resolve(data);
        known = data;
      }
      // react-admin returns to the page remembered when the session ended (its location state):
      // the same member's, or home for anyone else (documented: login's `redirectTo`).
      if (previous !== undefined && (!known || previous !== identityOf(known).id)) return { redirectTo: HOME };
      return undefined;
    },

    async logout() {
      const hadSession = !absent;
      forget();
      if (!hadSession) return;
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
        forget();
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
