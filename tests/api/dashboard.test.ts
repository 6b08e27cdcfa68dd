// The start page's calls (server/src/routes/dashboard.ts, docs/api.md "Start page"): figures right
// for known data, the period's days being the business zone's (TIME_ZONE set to a zone whose day is
// not UTC's right now), and each call refused to a member who may not see its section. On SQLite,
// or on PostgreSQL when TEST_DATABASE_URL is set.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayIn } from '../../schemas/businessTime';
import {
  addDays,
  DASHBOARD_CALLS,
  type DashboardChange,
  type DashboardComment,
  type DashboardCount,
  type DashboardDaily,
  type DashboardStorage,
  type DashboardTopVideos,
  type DashboardVideo,
} from '../../schemas/dashboard';
import { ARTICLE_TYPES } from '../../schemas/standardArticle';
import { videoDailyResource } from '../../schemas/videoDaily';
import { rebuildCounts } from '../../server/src/db/rowCounts';
import { startServer, type Client, type TestServer } from '../helpers/server';

/** A zone whose calendar day is not UTC's right now (as in videoDaily.test.ts). */
const OTHER_DAY_ZONE = new Date().getUTCHours() >= 12 ? 'Etc/GMT-14' : 'Etc/GMT+12';

const call = (name: keyof typeof DASHBOARD_CALLS) => `/Ajax/${DASHBOARD_CALLS[name]}`;

let server: TestServer;
let admin: Client;
let today: string;
let categories: { VdtCode: string; VdtName: string }[];
let videos: { Id: number; VdCode: string; VdtCode: string; VdName: string }[];

async function ok<T>(c: Client, path: string, body: unknown = {}): Promise<T> {
  const res = await c.call<T>(path, body);
  expect(res.status, `${path}: ${res.body.msg}`).toBe(200);
  return res.body.data;
}

/** A day's figures of a video, written as the counters would have (no call writes past days). */
async function dailyRow(VdCode: string, Day: string, VdNum: number, VdFabulous: number) {
  await sql`insert into ${sql.table('VIDEO_DAILY')} (${sql.ref('VD_CODE')}, ${sql.ref('DAY')}, ${sql.ref('VD_NUM')}, ${sql.ref('VD_FABULOUS')})
    values (${VdCode}, ${Day}, ${VdNum}, ${VdFabulous})`.execute(server.app.database.db);
}

beforeAll(async () => {
  server = await startServer({ TIME_ZONE: OTHER_DAY_ZONE });
  admin = await server.admin();
  today = dayIn(OTHER_DAY_ZONE);
  categories = [];
  for (const [i, VdtName] of ['造价入门', '安装工程'].entries()) {
    categories.push({ VdtName, VdtCode: (await ok<{ VdtCode: string }>(admin, '/Ajax/AddVideoType', { VdtName, VdtSort: i + 1 })).VdtCode });
  }
  videos = [];
  // Three in the first category, one in the second; the last added is the newest.
  for (const [i, t] of [0, 0, 0, 1].entries()) {
    const VdName = `首页视频${i + 1}`;
    const v = await ok<{ Id: number; VdCode: string }>(admin, '/Ajax/AddVideo', {
      VdtCode: categories[t]!.VdtCode,
      VdName,
      VdUrl: 'https://media.example.com/home.mp4',
      VdTime: addDays(today, -10 + i),
    });
    videos.push({ ...v, VdtCode: categories[t]!.VdtCode, VdName });
  }
  const [v1, v2, v3] = videos;
  // Inside the 30 days: today (the business zone's), and its first day (today - 29).
  await dailyRow(v1!.VdCode, addDays(today, -29), 5, 1);
  await dailyRow(v2!.VdCode, addDays(today, -3), 7, 2);
  await dailyRow(v3!.VdCode, addDays(today, -3), 0, 4);
  // Outside the 30 days, inside the 90: the day before the first.
  await dailyRow(v3!.VdCode, addDays(today, -30), 100, 0);
  // Outside both: the day after today (UTC's today in that zone, or tomorrow), and 90 days back.
  await dailyRow(v2!.VdCode, addDays(today, 1), 1000, 1000);
  await dailyRow(v2!.VdCode, addDays(today, -90), 1000, 1000);
  // As after a bulk load, the kept totals are counted again from the rows (the figures of past days
  // are kept by the server under the number of rows).
  await rebuildCounts(server.app.database.db as never, videoDailyResource);
  // Today's play through the counter, as a viewer's.
  expect((await admin.call('/Ajax/UpdateVideoNumAdd', { Id: v1!.Id })).status).toBe(200);

  // Articles: two of 法律法规 (type 1), one of 标准图集 (type 0); a 统一口径 answer; two websites.
  const classify = async (service: string, type: number) =>
    (await ok<{ ScCode: string }>(admin, `/${service}/CreateStandardClassifyInAdmin`, { ScName: `首页分类${type}`, ScFatherCode: '0', ScSort: 1, type })).ScCode;
  const law = await classify('Xcx1', 1);
  const atlas = await classify('Xcx1', 0);
  for (const [ScCode, SaName] of [[law, '法规一'], [law, '法规二'], [atlas, '图集一']]) {
    await ok(admin, '/Xcx1/AddStandardArticleInAdmin', { ScCode, SaName, SaType: 1, SaPdfContent: '<p>正文</p>' });
  }
  await ok(admin, '/Xcx3/AddStandardArticleInAdmin', { ScCode: await classify('Xcx3', 0), SaName: '口径一', SaProblem: '<p>问</p>', SaAnswer: '<p>答</p>' });
  for (const UwName of ['网站一', '网站二']) await ok(admin, '/Ajax/AddUseweb', { UwName, UwUrl: 'https://example.com/' });
  // Comments: the last one is the latest.
  for (const [i, v] of [v1!, v2!].entries()) {
    await ok(admin, '/Ajax/AddVideoMessage', { VdCode: v.VdCode, VmName: '', VmDes: `<p>评论<b>${i + 1}</b></p>` });
  }
});
afterAll(() => server?.close());

describe('figures for known data', () => {
  it('counts each content type, videos per category and articles per document type, each linking to its screen', async () => {
    const counts = await ok<DashboardCount[]>(admin, call('counts'));
    const byResource = Object.fromEntries(counts.map((c) => [c.Resource, c]));
    expect(Object.keys(byResource).sort()).toEqual(['article', 'tykjArticle', 'useweb', 'video']);
    expect(byResource.video).toMatchObject({ Label: '视频', Total: 4, Link: '/video' });
    expect(byResource.video!.Groups.map((g) => [g.Label, g.Count])).toEqual([
      ['造价入门', 3],
      ['安装工程', 1],
    ]);
    expect(byResource.article!.Total).toBe(3);
    expect(byResource.article!.Groups).toEqual(
      ARTICLE_TYPES.map((Label, type) => ({ Value: String(type), Label, Count: [1, 2, 0, 0][type], Link: `/Knowledge/Article/Catalogue?type=${type}` })),
    );
    expect(byResource.tykjArticle).toMatchObject({ Label: '统一口径', Total: 1, Groups: [] });
    expect(byResource.useweb).toMatchObject({ Total: 2, Groups: [] });
  });

  it('sums plays and likes per business day of the last 30 and 90 days, every day listed, today the zone’s', async () => {
    const [v1] = videos;
    for (const days of [30, 90] as const) {
      const daily = await ok<DashboardDaily>(admin, call('daily'), { Days: days });
      expect(daily.To).toBe(today);
      expect(daily.From).toBe(addDays(today, -(days - 1)));
      expect(daily.Days).toHaveLength(days);
      expect(daily.Days.map((d) => d.Day)).toEqual(Array.from({ length: days }, (_, i) => addDays(today, i - days + 1)));
      const at = (offset: number) => daily.Days.find((d) => d.Day === addDays(today, offset));
      expect(at(0)).toEqual({ Day: today, VdNum: 1, VdFabulous: 0 });
      expect(at(-29)).toEqual({ Day: addDays(today, -29), VdNum: 5, VdFabulous: 1 });
      expect(at(-3)).toEqual({ Day: addDays(today, -3), VdNum: 7, VdFabulous: 6 });
      const total = daily.Days.reduce((n, d) => n + d.VdNum, 0);
      expect(total).toBe(days === 30 ? 13 : 113);
      expect(at(-30)?.VdNum).toBe(days === 30 ? undefined : 100);
    }
    // The counter's own row is the zone's today.
    const { rows } = await sql<{ DAY: string }>`select ${sql.ref('DAY')} from ${sql.table('VIDEO_DAILY')} where ${sql.ref('VD_CODE')} = ${v1!.VdCode} and ${sql.ref('VD_NUM')} = 1`.execute(
      server.app.database.db,
    );
    expect(rows.map((r) => r.DAY)).toEqual([today]);
  });

  it('lists the most watched videos of the period, and how many were watched of how many', async () => {
    const [v1, v2, v3] = videos;
    const top30 = await ok<DashboardTopVideos>(admin, call('topVideos'), { Days: 30 });
    expect(top30.Rows.map((r) => [r.VdName, r.VdNum, r.VdFabulous])).toEqual([
      [v2!.VdName, 7, 2],
      [v1!.VdName, 6, 1],
    ]);
    expect(top30.Rows[0]).toMatchObject({ Id: v2!.Id, VdCode: v2!.VdCode, VdtCode: v2!.VdtCode });
    expect({ Watched: top30.Watched, Total: top30.Total }).toEqual({ Watched: 2, Total: 4 });
    const top90 = await ok<DashboardTopVideos>(admin, call('topVideos'), { Days: 90 });
    expect(top90.Rows.map((r) => [r.VdName, r.VdNum])).toEqual([
      [v3!.VdName, 100],
      [v2!.VdName, 7],
      [v1!.VdName, 6],
    ]);
    expect(top90.Watched).toBe(3);
  });

  it('lists the videos nobody played in the period, pinned then newest first', async () => {
    const [, , v3, v4] = videos;
    const names = async (Days: number) => (await ok<DashboardVideo[]>(admin, call('unwatchedVideos'), { Days })).map((v) => v.VdName);
    // v3 was only liked in the 30 days; v4 never counted.
    expect(await names(30)).toEqual([v4!.VdName, v3!.VdName]);
    expect(await names(90)).toEqual([v4!.VdName]);
  });

  it('lists the latest comments, newest first, as plain text, each with its video', async () => {
    const [v1, v2] = videos;
    const comments = await ok<DashboardComment[]>(admin, call('comments'));
    expect(comments.map((c) => [c.Text, c.Video.VdName])).toEqual([
      ['评论2', v2!.VdName],
      ['评论1', v1!.VdName],
    ]);
    expect(comments[0]!.Video).toEqual({ Id: v2!.Id, VdCode: v2!.VdCode, VdtCode: v2!.VdtCode, VdName: v2!.VdName });
    expect(comments[0]!.AuName).toBeTruthy();
  });

  it('lists the latest changes of the audit log for administrators, newest first', async () => {
    const changes = await ok<DashboardChange[]>(admin, call('auditLog'));
    expect(changes).toHaveLength(10);
    expect(changes[0]).toMatchObject({ Action: 'create', Resource: 'videoComment', ResourceLabel: '视频评论' });
    expect(changes[2]).toMatchObject({ Action: 'create', Resource: 'useweb', ResourceLabel: '常用网站', RecordName: '网站二' });
  });

  it('adds up the storage of uploads by kind, from the sizes their signatures allow, and forgets a removed file', async () => {
    const before = await ok<DashboardStorage[]>(admin, call('storage'));
    expect(before.map((s) => [s.Kind, s.Label])).toEqual([
      ['video', '视频'],
      ['handout', '讲义'],
      ['image', '图片'],
    ]);
    const image = () => before.find((s) => s.Kind === 'image')!;
    const signed = await ok<{ FileUrl: string }>(admin, '/Ajax/SignUpload', { FileName: '示意图.png', Size: 12_345, ContentType: 'image/png', Kind: 'image' });
    const after = await ok<DashboardStorage[]>(admin, call('storage'));
    expect(after.find((s) => s.Kind === 'image')).toEqual({ ...image(), Files: image().Files + 1, Bytes: image().Bytes + 12_345 });
    // Never used by a record: removed by the sweeper a day later, and with it from the totals.
    const key = signed.FileUrl.replace(/^.*\/files\//, '');
    await server.app.files.sweep({ now: new Date(Date.now() + 2 * 86_400_000) });
    const { rows } = await sql`select 1 from ${sql.table('FILE_NAME')} where ${sql.ref('KEY')} = ${key}`.execute(server.app.database.db);
    expect(rows).toEqual([]);
    const swept = await ok<DashboardStorage[]>(admin, call('storage'));
    expect(swept.find((s) => s.Kind === 'image')).toEqual(image());
  });
});

describe('figures after changes', () => {
  it('a play today counts at once; a deleted video’s days leave the sums', async () => {
    const [v1] = videos;
    const before = await ok<DashboardDaily>(admin, call('daily'), { Days: 90 });
    expect((await admin.call('/Ajax/UpdateVideoNumAdd', { Id: v1!.Id })).status).toBe(200);
    const after = await ok<DashboardDaily>(admin, call('daily'), { Days: 90 });
    expect(after.Days.at(-1)!.VdNum).toBe(before.Days.at(-1)!.VdNum + 1);
    // The video with 100 plays 30 days ago goes, and its days with it.
    const v = await ok<{ Id: number; VdCode: string }>(admin, '/Ajax/AddVideo', { VdtCode: categories[1]!.VdtCode, VdName: '将删除', VdUrl: 'https://media.example.com/gone.mp4' });
    await dailyRow(v.VdCode, addDays(today, -20), 50, 0);
    await rebuildCounts(server.app.database.db as never, videoDailyResource);
    const withIt = await ok<DashboardTopVideos>(admin, call('topVideos'), { Days: 30 });
    expect(withIt.Rows[0]).toMatchObject({ VdName: '将删除', VdNum: 50 });
    expect((await admin.call('/Ajax/DelVideo', { Id: v.Id })).status).toBe(200);
    const without = await ok<DashboardTopVideos>(admin, call('topVideos'), { Days: 30 });
    expect(without.Rows.map((r) => r.VdName)).not.toContain('将删除');
    expect(without.Watched).toBe(withIt.Watched - 1);
    const day = (await ok<DashboardDaily>(admin, call('daily'), { Days: 30 })).Days.find((d) => d.Day === addDays(today, -20));
    expect(day?.VdNum).toBe(0);
  });
});

describe('each section only for members who may view its module', () => {
  const refused = async (c: Client, name: keyof typeof DASHBOARD_CALLS, body: unknown = {}) => {
    const res = await c.call(call(name), body);
    expect(res.status, `${name}`).toBe(403);
    expect(res.body.msg).toMatch(/[\u4e00-\u9fff]/);
  };

  it('a member of 常用网站 only: its count and nothing else', async () => {
    const member = await server.member({ useweb: '2' });
    const counts = await ok<DashboardCount[]>(member, call('counts'));
    expect(counts.map((c) => c.Resource)).toEqual(['useweb']);
    for (const name of ['daily', 'topVideos', 'unwatchedVideos', 'comments', 'auditLog', 'storage'] as const) await refused(member, name, name === 'daily' ? { Days: 30 } : {});
  });

  it('a viewer of 在线视频: the videos’ count, plays, comments and the storage of their files; no changes', async () => {
    const viewer = await server.member({ videoView: '2' });
    const counts = await ok<DashboardCount[]>(viewer, call('counts'));
    expect(counts.map((c) => [c.Resource, c.Link])).toEqual([['video', '/Knowledge/VideoView']]);
    expect((await ok<DashboardDaily>(viewer, call('daily'), { Days: 30 })).Days).toHaveLength(30);
    expect((await ok<DashboardTopVideos>(viewer, call('topVideos'), { Days: 30 })).Rows.length).toBeGreaterThan(0);
    expect((await ok<DashboardComment[]>(viewer, call('comments'))).length).toBe(2);
    expect((await ok<DashboardStorage[]>(viewer, call('storage'))).map((s) => s.Kind)).toEqual(['video', 'handout']);
    await refused(viewer, 'auditLog');
    expect(await viewer.call(call('auditLog'), {})).toMatchObject({ body: { msg: '仅管理员可以查看操作日志' } });
  });

  it('a member with article codes but no video ones: no play figures, no comments', async () => {
    const reader = await server.member({ article: '1,2,3,4' });
    const counts = await ok<DashboardCount[]>(reader, call('counts'));
    expect(counts.map((c) => c.Resource)).toEqual(['article']);
    for (const name of ['daily', 'topVideos', 'unwatchedVideos', 'comments', 'auditLog'] as const) await refused(reader, name);
    // Handouts and images belong to articles too; videos do not.
    expect((await ok<DashboardStorage[]>(reader, call('storage'))).map((s) => s.Kind)).toEqual(['handout', 'image']);
  });

  it('a member without any code: every call refused; without a session: 401', async () => {
    const nobody = await server.member({});
    for (const name of Object.keys(DASHBOARD_CALLS) as (keyof typeof DASHBOARD_CALLS)[]) await refused(nobody, name);
    expect((await server.client().call(call('counts'))).status).toBe(401);
  });

  it('a period other than 30 or 90 days is refused', async () => {
    expect((await admin.call(call('daily'), { Days: 7 })).status).toBe(400);
  });
});
