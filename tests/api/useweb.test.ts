import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Client, type TestServer } from '../helpers/server';

let server: TestServer;
let admin: Client;

interface Site {
  Id: number;
  UwName: string;
  UwSort: number;
}

beforeAll(async () => {
  server = await startServer();
  admin = await server.admin();
});
afterAll(() => server?.close());

const list = async () =>
  (await admin.call<Site[]>('/Ajax/GetUsewebListInAdmin', { All: 1, OrderName: 'UW_SORT ASC' })).body.data.map((s) => s.UwName);

describe('common websites', () => {
  it('accepts only http(s) links', async () => {
    for (const UwUrl of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,<script>', 'ftp://x', '//evil.com', 'https://a b']) {
      const res = await admin.call('/Ajax/AddUseweb', { UwName: 'x', UwUrl });
      expect(res.status, UwUrl).toBe(400);
      expect(res.body.errors?.[0]?.field).toBe('UwUrl');
    }
    expect((await admin.call('/Ajax/AddUseweb', { UwName: '站', UwUrl: 'https://www.gov.cn/' })).status).toBe(200);
  });

  it('saves a drag sort numbered from 1, as JSON text or as an array', async () => {
    const ids: number[] = [];
    for (const [i, name] of ['甲', '乙', '丙'].entries()) {
      ids.push((await admin.call<Site>('/Ajax/AddUseweb', { UwName: name, UwUrl: 'https://e.com', UwSort: 10 + i })).body.data.Id);
    }
    const text = JSON.stringify([ids[2], ids[0], ids[1]].map((Id, i) => ({ Id, UwSort: i + 1 })));
    expect((await admin.call('/Ajax/UpdateUsewebSort', { modelList: text })).status).toBe(200);
    const mine = (names: string[]) => names.filter((n) => ['甲', '乙', '丙'].includes(n));
    expect(mine(await list())).toEqual(['丙', '甲', '乙']);
    const array = [ids[1], ids[2], ids[0]].map((Id, i) => ({ Id, UwSort: i + 1 }));
    expect((await admin.call('/Ajax/UpdateUsewebSort', { modelList: array })).status).toBe(200);
    expect(mine(await list())).toEqual(['乙', '丙', '甲']);
  });

  it('changes nothing when one entry of a sort is unknown or malformed', async () => {
    const before = await list();
    const sites = (await admin.call<Site[]>('/Ajax/GetUsewebListInAdmin', { All: 1 })).body.data;
    const bad = [...sites.map((s, i) => ({ Id: s.Id, UwSort: sites.length - i })), { Id: 999999, UwSort: 99 }];
    expect((await admin.call('/Ajax/UpdateUsewebSort', { modelList: bad })).status).toBe(404);
    expect(await list()).toEqual(before);
    expect((await admin.call('/Ajax/UpdateUsewebSort', { modelList: '[{"Id":"x"}]' })).status).toBe(400);
    expect((await admin.call('/Ajax/UpdateUsewebSort', { modelList: 'not json' })).status).toBe(400);
    expect(await list()).toEqual(before);
  });

  it('puts a new website without a sort last', async () => {
    const site = (await admin.call<Site>('/Ajax/AddUseweb', { UwName: '最后', UwUrl: 'https://e.com' })).body.data;
    const names = await list();
    expect(names[names.length - 1]).toBe('最后');
    expect(site.UwSort).toBeGreaterThan(0);
  });

  it('edits and deletes', async () => {
    const site = (await admin.call<Site>('/Ajax/AddUseweb', { UwName: '改名前', UwUrl: 'http://e.com' })).body.data;
    expect((await admin.call<Site>('/Ajax/UpdateUseweb', { Id: site.Id, UwName: '改名后' })).body.data.UwName).toBe('改名后');
    expect((await admin.call('/Ajax/DelUseweb', { Id: site.Id })).body.msg).toBe('删除成功!');
    expect(await list()).not.toContain('改名后');
  });
});
