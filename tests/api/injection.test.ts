// OrderName and search fields with hostile input: a 400 (or a literal search), never SQL, and the
// database unchanged afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  server = await startServer();
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
