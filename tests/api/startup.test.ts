// Start-up: demo data on an empty database (videos with their daily figures), nothing rewritten on a restart, the demo video served
// with Range, API documentation, and the admin app's routes falling back to index.html.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayIn } from '../../schemas/businessTime';
import { buildApp } from '../../server/src/app';
import { DEMO_STAFF } from '../../server/src/demoData';
import { DEMO_STAFF_PASSWORD, startServer, type Client, type TestServer } from '../helpers/server';

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await startServer({ DEMO_DATA: '1', DEMO_STAFF_PASSWORD });
  fs.mkdirSync(server.config.publicDir, { recursive: true });
  admin = await server.admin();
});
afterAll(() => server?.close());

describe('demo data', () => {
  it('fills an empty database with every kind of content', async () => {
    const types = await admin.call<{ VdtCode: string }[]>('/Ajax/GetVideoTypeListInAdmin', { All: 1 });
    expect(types.body.data.length).toBeGreaterThanOrEqual(3);
    const videos = await admin.call<{ VdUrl: string; VdEnclosure: string }[]>('/Ajax/GetVideoListInAdmin', { All: 1 });
    expect(videos.body.data.length).toBeGreaterThanOrEqual(5);
    expect(videos.body.data.some((v) => JSON.parse(v.VdEnclosure).length > 0)).toBe(true);
    expect((await admin.call<unknown[]>('/Ajax/GetUsewebListInAdmin', { All: 1 })).body.data.length).toBeGreaterThan(0);
    for (const type of [0, 1, 2, 3]) {
      const articles = await admin.call('/Xcx1/GetStandardArticleListInAdmin', { type });
      expect(articles.body.total, `type ${type}`).toBeGreaterThan(0);
    }
    expect((await admin.call('/Xcx3/GetStandardArticleListInAdmin', {})).body.total).toBeGreaterThan(0);
  });

  it("gives each video its plays and likes per business day, adding up to its counters", async () => {
    const videos = await admin.call<{ VdCode: string; VdNum: number; VdFabulous: number }[]>('/Ajax/GetVideoListInAdmin', { All: 1 });
    const today = dayIn(server.config.timeZone);
    let days = 0;
    for (const v of videos.body.data) {
      const daily = await admin.call<{ Day: string; VdNum: number; VdFabulous: number }[]>('/Ajax/GetVideoDailyListInAdmin', { VdCode: v.VdCode, All: 1 });
      const rows = daily.body.data;
      expect(new Set(rows.map((r) => r.Day)).size).toBe(rows.length);
      expect(rows.every((r) => r.Day <= today)).toBe(true);
      expect([rows.reduce((n, r) => n + r.VdNum, 0), rows.reduce((n, r) => n + r.VdFabulous, 0)]).toEqual([v.VdNum, v.VdFabulous]);
      days += rows.length;
    }
    // Spread over several days, for a chart to show.
    expect(days).toBeGreaterThan(videos.body.data.length);
  });

  it('serves the demo video as a playable MP4 with Range support', async () => {
    const videos = await admin.call<{ VdUrl: string }[]>('/Ajax/GetVideoListInAdmin', { pageSize: 1 });
    const url = server.url + videos.body.data[0]!.VdUrl;
    // As the player asks for it: a Range request with the member's session cookie.
    const res = await fetch(url, { headers: { range: 'bytes=0-15', cookie: admin.cookie } });
    expect(res.status).toBe(206);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBe(16);
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  it('has a staff member with limited permissions', async () => {
    const staff = server.client();
    const me = await staff.login(DEMO_STAFF.UserName, DEMO_STAFF_PASSWORD);
    expect((me.body.data as { IsAdmin: number }).IsAdmin).toBe(0);
    expect((await staff.call('/Ajax/GetMemberListInAdmin', {})).status).toBe(403);
    expect((await staff.call('/Ajax/GetVideoListInAdmin', {})).status).toBe(200);
  });

  it('is not loaded again, and nothing is rewritten, when the server restarts', async () => {
    const before = await admin.call('/Ajax/GetVideoListInAdmin', { All: 1 });
    const { app } = await buildApp(server.config);
    await app.close();
    const after = await admin.call('/Ajax/GetVideoListInAdmin', { All: 1 });
    expect(after.body).toEqual(before.body);
  });
});

describe('documentation and the admin app', () => {
  it('publishes an OpenAPI document listing every call', async () => {
    const res = await fetch(`${server.url}/docs/json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    for (const call of [
      '/Ajax/GetVideoListInAdmin',
      '/Ajax/UpdateVideoFabulousAdd',
      '/Ajax/UpdateUsewebSort',
      '/Ajax/SignUpload',
      '/Ajax/Login',
      '/Xcx1/GetStandardArticleInfoInAdmin',
      '/Xcx3/CreateStandardClassifyInAdmin',
    ]) {
      expect(doc.paths, call).toHaveProperty([call]);
    }
    expect((await fetch(`${server.url}/docs`, { redirect: 'follow' })).status).toBe(200);
  });

  it('answers unknown API calls with a 404 envelope and app routes with index.html', async () => {
    const api = await admin.call('/Ajax/NoSuchCall', {});
    expect(api.status).toBe(404);
    expect(api.body.code).toBe(404);
    fs.writeFileSync(path.join(server.config.publicDir, 'index.html'), '<!doctype html><title>app</title>');
    const { app } = await buildApp(server.config);
    try {
      const deep = await app.inject({ method: 'GET', url: '/Knowledge/VideoView/Details?Id=1&VdtCode=x' });
      expect(deep.statusCode).toBe(200);
      expect(deep.body).toContain('<title>app</title>');
    } finally {
      await app.close();
    }
  });
});
