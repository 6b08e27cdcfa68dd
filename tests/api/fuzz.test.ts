// Property-based fuzzing of every route of the server (read from the running app, so a new call is
// fuzzed without editing this file), as a logged-in administrator and anonymously, with random and
// hostile bodies, query strings, content types and path segments. Properties of every answer:
// - a 2xx or 4xx status, never 5xx (3xx only for the API documentation pages);
// - the JSON envelope {code,msg,…}: code 0 on success, the status on a refusal, a Chinese msg
//   without stack frames, paths or driver errors;
// - a refusal changed nothing: every table, read straight from the database, is as before;
// - no built-in prototype gained a key (the server runs in this process, so pollution would show).
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createSession, memberOfSession } from '../../server/src/auth/members';
import { SESSION_COOKIE } from '../../server/src/plugins/session';
import { MIME_XLSX as XLSX } from '../../server/src/routes/export';
import { RESOURCES } from '../../schemas/index';
import { exportCall } from '../../schemas/lists';
import {
  changedTables,
  CJK,
  CONTENT_TYPES,
  hostileString,
  hostileValue,
  LEAK,
  listRoutes,
  MALFORMED_JSON,
  prototypeKeys,
  requestObject,
  snapshotTables,
  type KnownValues,
  type Route,
} from '../helpers/fuzz';
import { startServer } from '../helpers/server';

/** Cases per route and role; FUZZ_RUNS scales them (e.g. FUZZ_RUNS=500 for a long local run). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const RUNS_ANONYMOUS = Math.max(5, Math.round(RUNS / 3));
/** FUZZ_SEED replays a reported failure. */
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

// Demo content, so that plausible Ids and codes reach the handlers behind validation.
const server = await startServer({ DEMO_DATA: '1' });
afterAll(() => server.close());

const routes = listRoutes(server.app);
const LOGIN = '/Ajax/Login';
/** Calls that check a password under the login limits: their refusals count in LOGIN_THROTTLE. */
const THROTTLED = new Set([LOGIN, '/Ajax/UpdateOwnPassword']);

async function knownValues(): Promise<KnownValues> {
  const { db } = server.app.database;
  const codes: Record<string, string[]> = {};
  const column = async (table: string, col: string) =>
    (await sql<{ v: string }>`select ${sql.ref(col)} as v from ${sql.table(table)}`.execute(db)).rows.map((r) => String(r.v));
  codes.VdtCode = await column('VIDEO_TYPE', 'VDT_CODE');
  codes.VdCode = await column('VIDEO', 'VD_CODE');
  codes.ScCode = ['0', ...(await column('DOC_CLASSIFY', 'SC_CODE')), ...(await column('TYKJ_CLASSIFY', 'SC_CODE'))];
  codes.SaCode = [...(await column('DOC_ARTICLE', 'SA_CODE')), ...(await column('TYKJ_ARTICLE', 'SA_CODE'))];
  codes.Code = codes.SaCode;
  codes.code = codes.SaCode;
  return { codes, maxId: 12 };
}
const known = await knownValues();

// ---- the administrator's session, restored when a fuzzed call ends it (Logout, a new password) ----

const adminRow = await server.app.database.db.selectFrom('MEMBER').selectAll().where('IS_BUILTIN', '=', 1).executeTakeFirstOrThrow();
let adminToken = await createSession(server.app.database, adminRow.AU_CODE);
async function ensureAdminSession(): Promise<void> {
  const member = await memberOfSession(server.app.database, adminToken);
  if (member?.IS_ADMIN !== 1) adminToken = await createSession(server.app.database, adminRow.AU_CODE);
}

// ---- requests ---------------------------------------------------------------------------------

interface FuzzRequest {
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Short description for failure messages. */
  label: string;
}

/** Percent-encodes any string, lone surrogates included (encodeURIComponent throws on them). */
const pct = (s: string) =>
  [...Buffer.from(s, 'utf8')].map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`)).join('');

const stringify = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

/** A query string from an object: arrays become repeated keys. */
function toQuery(obj: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const key of Object.keys(obj)) {
    const v = obj[key];
    for (const x of Array.isArray(v) ? v : [v]) parts.push(`${pct(key)}=${pct(stringify(x)).slice(0, 20000)}`);
  }
  return parts.join('&');
}

const RAW_QUERY = fc.constantFrom(
  '%',
  '%zz',
  '%E0%A4%A',
  '%00',
  'a=%00',
  '&&&',
  '===',
  'Id=1&Id=2',
  'Id[]=1',
  'Id[$ne]=1',
  '__proto__[polluted]=1',
  '__proto__.polluted=1',
  'constructor[prototype][polluted]=1',
  'constructor.prototype.polluted=1',
  'OrderName=ID%3B%20DROP%20TABLE%20VIDEO',
  `q=${'x'.repeat(30000)}`,
);

/** Path segments for `*` and `:param` routes: traversal, encodings, NUL, long names. */
const pathSegment = fc.oneof(
  fc.constantFrom(
    '..%2F..%2Fzhishi.sqlite',
    '../zhishi.sqlite',
    '.tmp/x',
    '%2e%2e/%2e%2e/etc/passwd',
    '%00',
    'a%00.mp4',
    '%E0%A4%A',
    'video/2024/01/00000000-0000-4000-8000-000000000000.mp4',
    'demo/poster.jpg',
    '00000000-0000-4000-8000-000000000000',
    '1',
    '0',
    '99999',
    '-1',
    'x'.repeat(3000),
  ),
  hostileString.map((s) => pct(s.slice(0, 300))),
);

const cookieValue = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 120 });

function concretePath(route: Route): fc.Arbitrary<string> {
  const parts = route.url.split(/(\*|:[A-Za-z]+)/);
  return fc.tuple(...parts.map((p) => (p === '*' || p.startsWith(':') ? pathSegment : fc.constant(p)))).map((xs) => xs.join(''));
}

function requestFor(route: Route, anonymous: boolean): fc.Arbitrary<FuzzRequest> {
  const path = concretePath(route);
  const query = fc.oneof(
    { weight: 3, arbitrary: requestObject(route.schema, known).map(toQuery) },
    { weight: 1, arbitrary: RAW_QUERY },
    { weight: 1, arbitrary: fc.constant('') },
  );
  const cookie = anonymous
    ? fc.option(cookieValue.map((v) => `${SESSION_COOKIE}=${v}`), { freq: 4 })
    : fc.constant(`${SESSION_COOKIE}=__ADMIN__`);
  const withCookie = (headers: Record<string, string>, c: string | null) => (c ? { ...headers, cookie: c } : headers);

  if (route.method === 'GET' || route.method === 'DELETE') {
    return fc.tuple(path, query, cookie).map(([p, q, c]) => ({
      path: q ? `${p}?${q}` : p,
      headers: withCookie({}, c),
      label: `${route.method} ${p.slice(0, 80)}?${q.slice(0, 200)}`,
    }));
  }

  const jsonBody = fc.oneof(
    { weight: 8, arbitrary: requestObject(route.schema, known).map((o) => JSON.stringify(o)) },
    { weight: 1, arbitrary: hostileValue.map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 2, arbitrary: fc.constantFrom(...MALFORMED_JSON) },
    // A valid body cut short.
    { weight: 1, arbitrary: requestObject(route.schema, known).chain((o) => {
      const text = JSON.stringify(o);
      return fc.nat({ max: Math.max(0, text.length - 1) }).map((n) => text.slice(0, n));
    }) },
  );
  const contentType = fc.oneof({ weight: 6, arbitrary: fc.constant('application/json') }, { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) });
  const body = fc.oneof(
    { weight: 8, arbitrary: fc.tuple(contentType, jsonBody) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...CONTENT_TYPES), fc.oneof(hostileString, requestObject(route.schema, known).map((o) => toQuery(o)))) },
    // No body at all.
    { weight: 1, arbitrary: fc.constant([undefined, undefined] as const) },
  );
  return fc
    .tuple(path, fc.option(query, { freq: 5 }), body, cookie)
    .map(([p, q, [ct, text], c]) => ({
      path: q ? `${p}?${q}` : p,
      headers: withCookie(ct !== undefined ? { 'content-type': ct } : {}, c),
      body: text,
      label: `${route.method} ${p.slice(0, 80)}${q ? `?${q.slice(0, 100)}` : ''} [${ct ?? 'no body'}] ${(text ?? '').slice(0, 300)}`,
    }));
}

// ---- properties ---------------------------------------------------------------------------------

const stats = { calls: new Set<string>(), cases: 0, refused: 0, accepted: 0, byStatus: new Map<number, number>() };

const isDocs = (route: Route) => route.url.startsWith('/docs');
const isApi = (route: Route) => /^\/(Ajax|Xcx1|Xcx3)\//.test(route.url);
const EXPORT_CALLS = new Set(RESOURCES.map(exportCall));
const isExport = (route: Route) => EXPORT_CALLS.has(route.url);

/** What is wrong with one answer, or undefined. */
function problemOf(route: Route, status: number, contentType: string, text: string): string | undefined {
  if (status >= 500) return `status ${status}`;
  if (status >= 300 && status < 400 && !isDocs(route)) return `redirect ${status}`;
  if (status < 200) return `status ${status}`;
  // Successful answers of the documentation and of stored files are not the envelope.
  if (status < 300 && !isApi(route)) return undefined;
  // Nor is an export's: an .xlsx (a zip).
  if (status < 300 && isExport(route)) return contentType === XLSX && text.startsWith('PK') ? undefined : `export answered ${contentType}`;
  if (status >= 300 && status < 400) return undefined;
  if (!contentType.includes('application/json')) return `content-type ${contentType}`;
  let body: { code?: unknown; msg?: unknown; errors?: { field?: unknown; msg?: unknown }[] };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return `not JSON: ${text.slice(0, 200)}`;
  }
  if (!body || typeof body !== 'object' || typeof body.code !== 'number' || typeof body.msg !== 'string') {
    return `not the envelope: ${text.slice(0, 200)}`;
  }
  if (status < 300 && body.code !== 0) return `2xx with code ${body.code}`;
  if (status >= 400) {
    if (body.code !== status) return `status ${status} with code ${body.code}`;
    if (!CJK.test(body.msg)) return `msg not Chinese: ${body.msg}`;
    const shown = [body.msg, ...(body.errors ?? []).flatMap((e) => [String(e.field), String(e.msg)])].join(' ');
    if (LEAK.test(shown)) return `internal detail in msg: ${shown.slice(0, 300)}`;
    // A refusal never echoes the request back (bodies of up to 2 MiB).
    if (text.length > 4000) return `refusal of ${text.length} characters`;
  }
  return undefined;
}

async function send(route: Route, req: FuzzRequest): Promise<{ status: number; contentType: string; text: string }> {
  const headers = { ...req.headers };
  if (headers.cookie === `${SESSION_COOKIE}=__ADMIN__`) headers.cookie = `${SESSION_COOKIE}=${adminToken}`;
  let res: Response;
  try {
    res = await fetch(server.url + req.path, { method: route.method, headers, body: req.body, redirect: 'manual' });
  } catch (err) {
    // A connection closed without an answer is a failure of the server too.
    throw new Error(`no answer to ${req.label.slice(0, 300)}: ${String((err as { cause?: unknown }).cause ?? err)}`);
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
}

async function runCase(route: Route, req: FuzzRequest, anonymous: boolean): Promise<void> {
  if (!anonymous) await ensureAdminSession();
  const before = await snapshotTables(server);
  const protoBefore = prototypeKeys();
  const { status, contentType, text } = await send(route, req);
  stats.cases++;
  stats.byStatus.set(status, (stats.byStatus.get(status) ?? 0) + 1);
  if (status >= 400) stats.refused++;
  else stats.accepted++;
  const problem = problemOf(route, status, contentType, text);
  expect(problem, `${req.label}\n→ ${status} ${text.slice(0, 300)}`).toBeUndefined();
  expect(prototypeKeys(), req.label).toBe(protoBefore);
  expect(({} as Record<string, unknown>).polluted, req.label).toBeUndefined();
  if (status >= 400) {
    // Failed logins (and wrong current passwords) are counted (LOGIN_THROTTLE) by design: that is the throttle working.
    const changed = changedTables(before, await snapshotTables(server)).filter((t) => !(THROTTLED.has(route.url) && t === 'LOGIN_THROTTLE'));
    expect(changed, `${req.label}\n→ ${status} ${text.slice(0, 300)}`).toEqual([]);
  }
}

// The calls that check passwords go last (the login last of all): their refusals throttle this
// address, which would only hide other calls.
const lateness = (url: string) => (url === LOGIN ? 2 : THROTTLED.has(url) ? 1 : 0);
const plan = (['administrator', 'anonymous'] as const)
  .flatMap((role) => routes.map((route) => ({ role, route })))
  .sort((a, b) => lateness(a.route.url) - lateness(b.route.url));

describe('fuzzing every route', () => {
  it('finds the routes of the app and their OpenAPI schemas', () => {
    const api = routes.filter(isApi);
    // Every call of the API is documented at /docs with its request schema (or takes none).
    // A read call that takes no parameters has none to document for its GET (its POST's body: an empty object).
    const takesNone = (r: (typeof api)[number]) =>
      r.method === 'GET' && api.some((o) => o.url === r.url && o.method === 'POST' && o.schema && Object.keys(o.schema.properties ?? {}).length === 0);
    const undocumented = api.filter((r) => !r.schema && !takesNone(r) && !['/Ajax/Logout', '/Ajax/GetCurrentMember'].includes(r.url));
    expect(undocumented.map((r) => `${r.method} ${r.url}`)).toEqual([]);
    expect(api.length).toBeGreaterThan(50);
    expect(routes.some((r) => r.url === '/upload/*' && r.method === 'PUT')).toBe(true);
  });

  it.each(plan)('$role $route.method $route.url', async ({ role, route }) => {
    const anonymous = role === 'anonymous';
    stats.calls.add(`${route.method} ${route.url}`);
    const out = await fc.check(
      fc.asyncProperty(requestFor(route, anonymous), (req) => runCase(route, req, anonymous)),
      { numRuns: anonymous ? RUNS_ANONYMOUS : RUNS, endOnFailure: true, ...(SEED !== undefined && { seed: SEED }) },
    );
    // The counterexample itself may be megabytes: report the seed to replay it and the short label.
    if (out.failed) {
      const cause = out.errorInstance instanceof Error ? out.errorInstance.message : String(out.errorInstance);
      throw new Error(`seed ${out.seed}, path ${out.counterexamplePath}: ${cause.slice(0, 1500)}`);
    }
  }, 120000);
});

describe('prototype keys in bodies', () => {
  const PROTO_BODIES = [
    '{"__proto__":{"polluted":1}}',
    '{"constructor":{"prototype":{"polluted":1}}}',
    '{"Id":1,"__proto__":{"IsAdmin":1,"polluted":1}}',
    '{"Modules":{"__proto__":{"polluted":"1,2,3,4"}},"UserName":"proto_user","AuName":"原型","Password":"password-123"}',
    '{"modelList":[{"__proto__":{"polluted":1},"Id":1,"UwSort":1}]}',
    '{"Parts":[{"constructor":{"prototype":{"polluted":1}},"PartNumber":1,"ETag":"x"}]}',
  ];
  const posts = routes.filter((r) => r.method === 'POST');

  it.each(posts)('POST $url refuses them and pollutes nothing', async (route) => {
    for (const body of PROTO_BODIES) {
      for (const anonymous of [false, true]) {
        const req: FuzzRequest = {
          path: route.url,
          headers: { 'content-type': 'application/json', ...(anonymous ? {} : { cookie: `${SESSION_COOKIE}=__ADMIN__` }) },
          body,
          label: `${route.url} ${body}`,
        };
        if (!anonymous) await ensureAdminSession();
        const before = await snapshotTables(server);
        const { status, text } = await send(route, req);
        expect(status, `${req.label} → ${text}`).toBeGreaterThanOrEqual(400);
        expect(status, `${req.label} → ${text}`).toBeLessThan(500);
        expect(changedTables(before, await snapshotTables(server)).filter((t) => t !== 'LOGIN_THROTTLE')).toEqual([]);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'IsAdmin')).toBe(false);
      }
    }
  });

  it('query strings with prototype keys pollute nothing', async () => {
    for (const route of routes.filter((r) => r.method === 'GET' && isApi(r))) {
      for (const q of ['__proto__[polluted]=1', 'constructor[prototype][polluted]=1', '__proto__=x&polluted=1']) {
        await ensureAdminSession();
        const res = await fetch(`${server.url}${route.url}?${q}`, { headers: { cookie: `${SESSION_COOKIE}=${adminToken}` } });
        expect(res.status, `${route.url}?${q}`).toBeLessThan(500);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }
    }
  });
});

afterAll(() => {
  const statuses = [...stats.byStatus.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}:${n}`).join(' ');
  // Quoted by the README (docs/security/input.md).
  console.log(
    `fuzz summary: ${stats.calls.size} calls (method + route) fuzzed, ${stats.cases} cases (${RUNS} per call as administrator, ${RUNS_ANONYMOUS} anonymous), ` +
      `${stats.accepted} accepted, ${stats.refused} refused, statuses ${statuses}`,
  );
});
