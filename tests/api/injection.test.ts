// OrderName and search fields with hostile input: a 400 (or a literal search), never SQL, and the
// database unchanged afterwards. The second half covers every list call, search field and filter of
// the descriptors (schemas/index.ts RESOURCES), so a new entity or search field is covered too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES, toColumn, type ResourceDescriptor } from '../../schemas/index';
import { changedTables, snapshotTables } from '../helpers/fuzz';
import { startServer, type Client, type TestServer } from '../helpers/server';

let server: TestServer;
let admin: Client;
let vdtCode: string;

const snapshot = async () => {
  const types = await admin.call('/Ajax/GetVideoTypeListInAdmin', { All: 1 });
  const videos = await admin.call('/Ajax/GetVideoListInAdmin', { All: 1 });
  const members = await admin.call('/Ajax/GetMemberListInAdmin', { All: 1 });
  return JSON.stringify([types.body.data, videos.body.data, members.body.data]);
};

beforeAll(async () => {
  // Demo content: every list call has rows to find (or not) with the corpus below.
  server = await startServer({ DEMO_DATA: '1' });
  admin = await server.admin();
  vdtCode = (await admin.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName: '类型', VdtSort: 1 })).body.data.VdtCode;
  for (const name of ['甲', '乙', "O'Brien", 'a_b', 'a%b']) {
    await admin.call('/Ajax/AddVideo', { VdtCode: vdtCode, VdName: name, VdUrl: 'https://e.com/v.mp4' });
  }
});
afterAll(() => server?.close());

const HOSTILE_ORDER = [
  'VD_TIME DESC; DROP TABLE VIDEO',
  'VD_TIME DESC--',
  'VD_TIME /* x */ DESC',
  '(CASE WHEN 1=1 THEN VD_TIME ELSE VD_NAME END)',
  '(SELECT PASSWORD_HASH FROM MEMBER LIMIT 1)',
  'PASSWORD_HASH',
  'ID; SELECT 1',
  'VD_TIME DESCENDING',
  'VD_TIME DESC, ',
  'VD_TIME ASC DESC',
  '1',
  'VD_TIME DESC NULLS FIRST',
  '"VD_TIME"',
  'VD_TIME`',
  'SLEEP(5)',
  'X'.repeat(100000),
  'VDT_SORT ASC', // a real column of another entity
];

describe('OrderName', () => {
  it('accepts the entity columns, case-insensitive', async () => {
    const res = await admin.call<{ VdName: string }[]>('/Ajax/GetVideoListInAdmin', { VdtCode: vdtCode, OrderName: 'vd_name asc' });
    expect(res.status).toBe(200);
    const desc = await admin.call<{ VdName: string }[]>('/Ajax/GetVideoListInAdmin', { VdtCode: vdtCode, OrderName: 'VD_NAME desc' });
    expect(desc.body.data.map((v) => v.VdName)).toEqual([...res.body.data.map((v) => v.VdName)].reverse());
  });

  it('refuses anything else with a 400 and changes nothing', async () => {
    const before = await snapshot();
    for (const OrderName of HOSTILE_ORDER) {
      for (const send of [
        () => admin.call('/Ajax/GetVideoListInAdmin', { VdtCode: vdtCode, OrderName }),
        () => admin.get('/Ajax/GetVideoListInAdmin', { VdtCode: vdtCode, OrderName: OrderName.slice(0, 2000) }),
      ]) {
        const res = await send();
        expect(res.status, OrderName.slice(0, 60)).toBe(400);
        expect(res.body.code).toBe(400);
        expect(JSON.stringify(res.body)).not.toMatch(/SQLITE|syntax|stack|at .*\.ts/i);
      }
    }
    expect(await snapshot()).toBe(before);
  });

  it('refuses an unsortable column such as the member password hash', async () => {
    const res = await admin.call('/Ajax/GetMemberListInAdmin', { OrderName: 'PASSWORD_HASH ASC' });
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]?.field).toBe('OrderName');
  });
});

describe('search fields', () => {
  it('treat quotes, wildcards and SQL as literal text', async () => {
    const before = await snapshot();
    const find = async (VdName: string) =>
      (await admin.call<{ VdName: string }[]>('/Ajax/GetVideoListInAdmin', { VdtCode: vdtCode, VdName })).body.data.map((v) => v.VdName);
    expect(await find("O'Brien")).toEqual(["O'Brien"]);
    expect(await find('_')).toEqual(['a_b']);
    expect(await find('%')).toEqual(['a%b']);
    for (const text of ["' OR '1'='1", "'; DROP TABLE VIDEO; --", '") OR 1=1 --', "甲' UNION SELECT PASSWORD_HASH FROM MEMBER --"]) {
      expect(await find(text), text).toEqual([]);
    }
    expect(await snapshot()).toBe(before);
  });

  it('refuses a 100 KB search string with a 400', async () => {
    const res = await admin.call('/Ajax/GetVideoListInAdmin', { VdtCode: vdtCode, VdName: 'x'.repeat(100000) });
    expect(res.status).toBe(400);
  });

  it('refuses malformed paging and bodies with a 400 envelope', async () => {
    for (const body of [{ pageIndex: 0 }, { pageSize: 101 }, { pageIndex: 'abc' }, { All: 2 }, { VdtCode: { $ne: 1 } }]) {
      const res = await admin.call('/Ajax/GetVideoListInAdmin', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const notJson = await admin.call('/Ajax/AddVideoType', '{"VdtName": ', { headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
    expect(notJson.body.code).toBe(400);
  });
});

// ---- every list call of every descriptor --------------------------------------------------------

type Row = Record<string, unknown> & { Id: number };

const MAX_SEARCH = 100;
const MAX_FILTER = 64;

/** Text searched for (search fields) or matched exactly (filters). */
/** Text the server refuses in any field: NUL and bidirectional controls (server/src/http/unstorable.ts). */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;
const unstorable = (text: string) => text.includes('\u0000') || BIDI_CONTROLS.test(text);

const TEXT_PAYLOADS = [
  "' OR '1'='1",
  "' OR 1=1 --",
  "') OR ('1'='1",
  '" OR ""="',
  "'; DROP TABLE VIDEO; --",
  "1; DELETE FROM MEMBER",
  "'; UPDATE MEMBER SET IS_ADMIN=1; --",
  "' UNION SELECT PASSWORD_HASH FROM MEMBER --",
  "' UNION ALL SELECT NULL,NULL,NULL--",
  "'||(SELECT PASSWORD_HASH FROM MEMBER LIMIT 1)||'",
  "' AND (SELECT CASE WHEN (1=1) THEN 1 ELSE 1/0 END)=1 --",
  '(CASE WHEN 1=1 THEN 1 ELSE 0 END)',
  '(SELECT 1)',
  "' AND 1=(SELECT COUNT(*) FROM sqlite_master) --",
  "'; SELECT pg_sleep(5); --",
  "' AND SLEEP(5) --",
  "1' AND randomblob(100000000) --",
  '/* comment */',
  '--',
  '#',
  ';',
  "'",
  "''",
  '"',
  '`',
  '\\',
  "\\'",
  '\\\\',
  '\\%',
  '%',
  '_',
  '%%',
  '%_%',
  "%' OR 1=1 --",
  "x' ESCAPE '!",
  '[a-z]',
  '*',
  '?',
  'PASSWORD_HASH',
  "O'Brien",
  'a_b',
  'a%b',
  '50%折扣',
  '视频',
  ' 视频 ',
  '😀',
  '\u202e',
  '\u00a0',
  'ＡＢＣ',
  '0',
  '-1',
  '1',
  'null',
  'x'.repeat(MAX_SEARCH),
  'x'.repeat(MAX_SEARCH + 1),
  'y'.repeat(100_000),
  'a\u0000b',
];

/** Hostile OrderName values for a descriptor: none is a sortable column of its own. */
function hostileOrders(d: ResourceDescriptor): string[] {
  const own = new Set(Object.keys(d.schema.properties).map(toColumn));
  const foreign = RESOURCES.flatMap((r) => Object.keys(r.schema.properties).map(toColumn)).find((c) => !own.has(c))!;
  const writeOnly = Object.entries(d.schema.properties).filter(([, s]) => s.writeOnly).map(([f]) => toColumn(f));
  const col = toColumn(Object.keys(d.schema.properties).find((f) => !d.schema.properties[f]!.writeOnly && d.schema.properties[f]!.type !== 'object')!);
  return [
    ...HOSTILE_ORDER.filter((o) => o !== 'VDT_SORT ASC'),
    `${col} DESC; DROP TABLE ${d.table}`,
    `${col}; SELECT PASSWORD_HASH FROM MEMBER`,
    `${col} DESC/**/`,
    `${col} -- x`,
    `(CASE WHEN (SELECT COUNT(*) FROM MEMBER)>0 THEN ${col} ELSE ID END)`,
    `${col} COLLATE NOCASE`,
    `${col}+0`,
    `${col}, (SELECT 1)`,
    `${col}\u0000`,
    `${d.table}.${col}`,
    `${col} ASC`.repeat(2),
    `${col},`.repeat(7) + col,
    'PASSWORD_HASH DESC',
    'password_hash',
    'MEMBER.PASSWORD_HASH',
    `${foreign} ASC`,
    ...writeOnly,
    `${col} %27`,
    `${col} \\' DESC`,
    'ＩＤ',
  ];
}

const lowerAscii = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
const codePoints = (s: string) => [...s].length;
const ids = (rows: Row[]) => rows.map((r) => r.Id).sort((a, b) => a - b);

const lists = RESOURCES.map((d) => ({ d, url: `/${d.service}/${d.calls.list}` }));

type OpenApi = { paths: Record<string, { post?: { requestBody?: { content: Record<string, { schema: { properties?: Record<string, { enum?: unknown[] }> } }> } } }> };

/** The values the call's own request schema allows for a parameter, when it lists them (a closed set). */
function allowedValues(url: string, field: string): readonly unknown[] | undefined {
  const content = (server.app.swagger() as unknown as OpenApi).paths[url]?.post?.requestBody?.content ?? {};
  return Object.values(content)[0]?.schema.properties?.[field]?.enum;
}

/** A filter value meaning "no filter": the root of the tree the field points into, when the field never holds it. */
function anywhere(d: ResourceDescriptor, field: string): string | undefined {
  const reference = d.references?.find((r) => r.field === field && r.root === undefined);
  const tree = reference && RESOURCES.find((t) => t.resource === reference.to);
  return tree?.references?.find((r) => r.to === tree.resource && r.root !== undefined)?.root;
}
const figures = { calls: 0, fields: 0, payloads: 0, requests: 0 };

describe.each(lists)('list call $url', ({ d, url }) => {
  let all: Row[];
  const list = async (params: Record<string, unknown>, via: 'POST' | 'GET' = 'POST') => {
    figures.requests++;
    if (via === 'GET') return admin.get<Row[]>(url, Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])));
    return admin.call<Row[]>(url, params);
  };

  beforeAll(async () => {
    figures.calls++;
    // Rows whose text holds the characters an injection plays with, so that a literal search has
    // something to find.
    if (d.resource === 'video') {
      for (const VdName of ["O'Brien 视频", 'a_b', 'a%b', '50%折扣', 'back\\slash', '引号"双', '😀 表情']) {
        await admin.call('/Ajax/AddVideo', { VdtCode: vdtCode, VdName, VdUrl: 'https://e.com/v.mp4' });
      }
    }
    if (d.resource === 'member') {
      for (const [UserName, AuName] of [['o_brien', "O'Brien"], ['a.b', 'a%b 视频'], ['back-slash', 'x\\y']]) {
        await admin.call('/Ajax/AddMember', { UserName, AuName, OrganizationName: '', Password: 'password-123', IsAdmin: 0, Modules: {} });
      }
    }
    const res = await list({ All: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    all = res.body.data;
    expect(all.length, `${url} needs rows to search`).toBeGreaterThan(0);
  });

  it('sorts by each of its readable columns, in both directions', async () => {
    for (const [field, s] of Object.entries(d.schema.properties)) {
      if (s.writeOnly || s.type === 'object') continue;
      for (const dir of ['ASC', 'desc']) {
        const res = await list({ All: 1, OrderName: `${toColumn(field)} ${dir}` });
        expect(res.status, `${field} ${dir}`).toBe(200);
        expect(ids(res.body.data)).toEqual(ids(all));
      }
    }
  });

  it('refuses every hostile OrderName with a 400 on POST and GET, changing nothing', async () => {
    const before = await snapshotTables(server);
    for (const OrderName of hostileOrders(d)) {
      figures.payloads++;
      for (const via of ['POST', 'GET'] as const) {
        if (via === 'GET' && OrderName.length > 2000) continue;
        const res = await list({ OrderName }, via);
        expect(res.status, `${via} ${OrderName.slice(0, 80)}`).toBe(400);
        expect(res.body.code).toBe(400);
        expect(res.body.msg).toMatch(/[\u4e00-\u9fff]/);
        expect(JSON.stringify(res.body)).not.toMatch(/SQLITE|syntax|stack|postgres|at .*\.ts/i);
      }
    }
    expect(changedTables(before, await snapshotTables(server))).toEqual([]);
  });

  it.each(d.searchFields.map((f) => [f]))('search field %s: a literal "contains", or 400 when too long', async (field) => {
    figures.fields++;
    const before = await snapshotTables(server);
    for (const text of TEXT_PAYLOADS) {
      figures.payloads++;
      const tooLong = codePoints(text) > MAX_SEARCH || unstorable(text);
      for (const via of ['POST', 'GET'] as const) {
        if (via === 'GET' && text.length > 2000) continue;
        const res = await list({ All: 1, [field]: text }, via);
        const what = `${via} ${field}=${JSON.stringify(text.slice(0, 60))}`;
        if (tooLong) {
          expect(res.status, what).toBe(400);
          continue;
        }
        expect(res.status, what).toBe(200);
        const needle = lowerAscii(text.trim());
        const expected = all.filter((r) => lowerAscii(String(r[field] ?? '')).includes(needle));
        expect(ids(res.body.data), what).toEqual(ids(expected));
      }
    }
    expect(changedTables(before, await snapshotTables(server))).toEqual([]);
  });

  it.each(d.filters.map((f) => [f]))('filter %s: an exact match, or 400', async (field) => {
    figures.fields++;
    const before = await snapshotTables(server);
    const property = (d.schema.properties as Record<string, { type?: string; enum?: readonly string[] }>)[field];
    const integer = property?.type === 'integer';
    // A filter over a closed set (the audit log's Resource and Action) refuses anything else.
    const closedSet = allowedValues(url, field);
    const existing = [...new Set(all.map((r) => String(r[field])))];
    for (const text of [...existing, ...TEXT_PAYLOADS]) {
      figures.payloads++;
      for (const via of ['POST', 'GET'] as const) {
        if (via === 'GET' && text.length > 2000) continue;
        const res = await list({ All: 1, [field]: text }, via);
        const what = `${via} ${field}=${JSON.stringify(text.slice(0, 60))}`;
        if (codePoints(text) > MAX_FILTER || unstorable(text)) {
          expect(res.status, what).toBe(400);
          continue;
        }
        if (closedSet && text !== '' && !closedSet.includes(text)) {
          expect(res.status, what).toBe(400);
          continue;
        }
        if (integer) {
          // Either refused as not a number, or the rows with exactly that number.
          if (res.status === 400) continue;
          expect(res.status, what).toBe(200);
          const n = Number(text);
          expect(Number.isInteger(n), what).toBe(true);
          expect(ids(res.body.data), what).toEqual(ids(all.filter((r) => r[field] === n)));
          continue;
        }
        expect(res.status, what).toBe(200);
        // '' and the root of the tree the field points into (an article's ScCode '0') mean no filter.
        const none = text === '' || text === anywhere(d, field);
        expect(ids(res.body.data), what).toEqual(ids(none ? all : all.filter((r) => r[field] === text)));
      }
    }
    expect(changedTables(before, await snapshotTables(server))).toEqual([]);
  });
});

describe('the login body', () => {
  it('never lets an injection in: 401 (or 429 once throttled), members unchanged', async () => {
    const before = await snapshotTables(server);
    for (const UserName of ["admin' --", "admin' OR '1'='1", "' OR 1=1 --", 'admin"--', "admin'/*", "' UNION SELECT * FROM MEMBER --"]) {
      for (const Password of ["' OR '1'='1", 'x']) {
        figures.payloads++;
        const res = await server.client().call('/Ajax/Login', { UserName, Password });
        expect([401, 429], `${UserName} / ${Password}`).toContain(res.status);
      }
    }
    const after = await snapshotTables(server);
    // Failed logins are counted by design; nothing else may change.
    expect(changedTables(before, after).filter((t) => t !== 'LOGIN_THROTTLE')).toEqual([]);
  });
});

afterAll(() => {
  console.log(
    `injection summary: ${figures.calls} list calls, ${figures.fields} search and filter fields, ${figures.payloads} payloads tried, ${figures.requests} list requests`,
  );
});
