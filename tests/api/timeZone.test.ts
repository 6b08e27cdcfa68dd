// One business time zone (TIME_ZONE, Asia/Shanghai by default): the server's "today" defaults and
// the audit log's day ranges follow it, not the host's clock zone. The zone is chosen so that its
// date differs from UTC's at the moment the test runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config';
import { startServer, type Client, type TestServer } from '../helpers/server';

/** A zone whose calendar day is not UTC's right now: 14 hours ahead late in the UTC day, 12 behind early in it. */
const OTHER_DAY_ZONE = new Date().getUTCHours() >= 12 ? 'Etc/GMT-14' : 'Etc/GMT+12';
const dayIn = (zone: string, at = new Date()) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(at);

describe('the business time zone', () => {
  let server: TestServer;
  let admin: Client;

  beforeAll(async () => {
    server = await startServer({ TIME_ZONE: OTHER_DAY_ZONE });
    admin = await server.admin();
  });
  afterAll(() => server?.close());

  it('is checked at start, Asia/Shanghai unless set', () => {
    expect(loadConfig({}).timeZone).toBe('Asia/Shanghai');
    expect(loadConfig({ TIME_ZONE: 'Europe/Berlin' }).timeZone).toBe('Europe/Berlin');
    expect(() => loadConfig({ TIME_ZONE: 'Mars/Olympus' })).toThrow(/TIME_ZONE/);
  });

  it('dates a record created without its date by the business day, not the host’s', async () => {
    const before = dayIn(OTHER_DAY_ZONE);
    const type = await admin.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName: '时区', VdtSort: 1 });
    const video = await admin.call<{ VdTime: string }>('/Ajax/AddVideo', { VdtCode: type.body.data.VdtCode, VdName: '今天', VdUrl: 'https://media.example.com/a.mp4' });
    expect(video.status, video.body.msg).toBe(200);
    const after = dayIn(OTHER_DAY_ZONE);
    expect(before).not.toBe(new Date().toISOString().slice(0, 10));
    expect([before, after]).toContain(video.body.data.VdTime);
  });

  it('takes a bare day of the audit log’s range as that day in the business zone', async () => {
    await admin.call('/Ajax/AddVideoType', { VdtName: '审计时区', VdtSort: 2 });
    const today = dayIn(OTHER_DAY_ZONE);
    const list = (params: Record<string, unknown>) => admin.call<{ At: string }[]>('/Ajax/GetAuditLogListInAdmin', { pageSize: 100, ...params });
    const inDay = await list({ AtFrom: today, AtTo: today });
    expect(inDay.status, inDay.body.msg).toBe(200);
    expect(inDay.body.total).toBeGreaterThan(0);
    // UTC's day is another one: none of today's entries falls in it.
    const utcDay = new Date().toISOString().slice(0, 10);
    expect((await list({ AtFrom: utcDay, AtTo: utcDay })).body.total).toBe(0);
  });
});
