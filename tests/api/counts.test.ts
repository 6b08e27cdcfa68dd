// The totals of the lists are kept in ROW_COUNT rather than counted per request; they must stay
// exact after every add, move and delete, including comments removed with their video.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Client, type TestServer } from '../helpers/server';

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await startServer();
  admin = await server.admin();
});
afterAll(() => server?.close());

/** count(*) straight from the table, the slow and certain way. */
async function counted(table: string, where: Record<string, string | number> = {}): Promise<number> {
  const conditions = Object.entries(where).map(([c, v]) => sql`${sql.ref(c)} = ${v}`);
  const filter = conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
  const result = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)} ${filter}`.execute(server.app.database.db);
  return Number(result.rows[0]!.n);
}

const total = async (path: string, params: Record<string, unknown>) => (await admin.call(path, { ...params, pageSize: 1 })).body.total;

// A small deterministic pseudo-random sequence, so a failure can be replayed.
function random(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
}

describe('kept totals', () => {
  it('stay exact through random adds, moves and deletes of videos and comments', async () => {
    const rnd = random(42);
    const types: string[] = [];
    for (let i = 0; i < 3; i++) types.push((await admin.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName: `t${i}`, VdtSort: i })).body.data.VdtCode);
    const videos: { Id: number; VdCode: string }[] = [];
    for (let step = 0; step < 60; step++) {
      const r = rnd();
      if (r < 0.45 || videos.length === 0) {
        const v = (await admin.call<{ Id: number; VdCode: string }>('/Ajax/AddVideo', {
          VdtCode: types[Math.floor(rnd() * 3)],
          VdName: `v${step}`,
          VdUrl: 'https://e.com/v.mp4',
        })).body.data;
        videos.push(v);
      } else if (r < 0.65) {
        const v = videos[Math.floor(rnd() * videos.length)]!;
        await admin.call('/Ajax/UpdateVideo', { Id: v.Id, VdtCode: types[Math.floor(rnd() * 3)] });
      } else if (r < 0.85) {
        const v = videos[Math.floor(rnd() * videos.length)]!;
        await admin.call('/Ajax/AddVideoMessage', { VdCode: v.VdCode, VmDes: `<p>c${step}</p>` });
      } else {
        const [v] = videos.splice(Math.floor(rnd() * videos.length), 1);
        await admin.call('/Ajax/DelVideo', { Id: v!.Id });
      }
    }
    expect(await total('/Ajax/GetVideoListInAdmin', {})).toBe(await counted('VIDEO'));
    for (const code of types) {
      expect(await total('/Ajax/GetVideoListInAdmin', { VdtCode: code })).toBe(await counted('VIDEO', { VDT_CODE: code }));
    }
    for (const v of videos) {
      expect(await total('/Ajax/GetVideoMessageListInAdmin', { VdCode: v.VdCode })).toBe(await counted('VIDEO_MESSAGE', { VD_CODE: v.VdCode }));
    }
    expect(await total('/Ajax/GetVideoMessageListInAdmin', {})).toBe(await counted('VIDEO_MESSAGE'));
  });

  it('stay exact for articles moved between categories and types, and for classification levels', async () => {
    const make = async (name: string, type: number, father = '0') =>
      (await admin.call<{ ScCode: string; Id: number }>('/Xcx1/CreateStandardClassifyInAdmin', { ScName: name, type, ScFatherCode: father })).body.data;
    const a = await make('a', 0);
    const b = await make('b', 1);
    const a1 = await make('a1', 0, a.ScCode);
    const ids: number[] = [];
    for (const [i, sc] of [a, a, b, a1, b].entries()) {
      ids.push((await admin.call<{ Id: number }>('/Xcx1/AddStandardArticleInAdmin', { ScCode: sc.ScCode, SaName: `s${i}` })).body.data.Id);
    }
    await admin.call('/Xcx1/UpdateStandardArticleInAdmin', { Id: ids[0], ScCode: b.ScCode });
    await admin.call('/Xcx1/DelStandardArticleInAdmin', { Id: ids[1] });
    for (const [params, where] of [
      [{}, {}],
      [{ type: 0 }, { TYPE: 0 }],
      [{ type: 1 }, { TYPE: 1 }],
      [{ ScCode: a.ScCode }, { SC_CODE: a.ScCode }],
      [{ ScCode: b.ScCode, type: 1 }, { SC_CODE: b.ScCode, TYPE: 1 }],
      [{ ScCode: b.ScCode, type: 0 }, { SC_CODE: b.ScCode, TYPE: 0 }],
    ] as const) {
      expect(await total('/Xcx1/GetStandardArticleListInAdmin', params), JSON.stringify(params)).toBe(await counted('DOC_ARTICLE', where));
    }
    await admin.call('/Xcx1/UpdateStandardClassifyInAdmin', { Id: a1.Id, ScFatherCode: '0' });
    expect(await total('/Xcx1/GetStandardClassifyListInAdmin', { ScFatherCode: '0', type: 0 })).toBe(await counted('DOC_CLASSIFY', { SC_FATHER_CODE: '0', TYPE: 0 }));
    expect(await total('/Xcx1/GetStandardClassifyListInAdmin', { ScFatherCode: a.ScCode })).toBe(0);
  });

  it('count a search the slow way, and answer 0 for an unknown filter value', async () => {
    expect(await total('/Ajax/GetVideoListInAdmin', { VdName: 'v1' })).toBe(
      Number((await sql<{ n: number }>`select count(*) as n from ${sql.table('VIDEO')} where ${sql.ref('VD_NAME')} like ${'%v1%'}`.execute(server.app.database.db)).rows[0]!.n),
    );
    expect(await total('/Ajax/GetVideoListInAdmin', { VdtCode: 'no-such-code' })).toBe(0);
    expect(await total('/Ajax/GetVideoListInAdmin', { VdtCode: 'odd value|TYPE=1' })).toBe(0);
  });
});
