// The daily figures of the videos (schemas/videoDaily.ts): each play and like counts in the video's
// counter and in the video's row of the business day (TIME_ZONE) in one transaction, one row per
// video and day: exact under hundreds of concurrent calls, never one without the other, removed
// with the video, read by whoever may see videos and written by no call. On SQLite, or on
// PostgreSQL when TEST_DATABASE_URL is set; across processes: countersExact of
// tests/helpers/acrossProcesses.ts (workers.test.ts, scaleout.test.ts).
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayIn } from '../../schemas/businessTime';
import { MENU_ENTRIES, SCREENS } from '../../schemas/index';
import { dailyMismatches } from '../helpers/integrity';
import { startServer, type Client, type TestServer } from '../helpers/server';

/** A zone whose calendar day is not UTC's right now (as in timeZone.test.ts): 14 hours ahead late in the UTC day, 12 behind early in it. */
const OTHER_DAY_ZONE = new Date().getUTCHours() >= 12 ? 'Etc/GMT-14' : 'Etc/GMT+12';

const LIST = '/Ajax/GetVideoDailyListInAdmin';

interface Daily {
  Id: number;
  VdCode: string;
  Day: string;
  VdNum: number;
  VdFabulous: number;
}

let server: TestServer;
let admin: Client;
let vdtCode: string;

beforeAll(async () => {
  server = await startServer({ TIME_ZONE: OTHER_DAY_ZONE });
  admin = await server.admin();
  vdtCode = (await admin.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName: '每日', VdtSort: 1 })).body.data.VdtCode;
});
afterAll(() => server?.close());

async function addVideo(VdName: string): Promise<{ Id: number; VdCode: string }> {
  const res = await admin.call<{ Id: number; VdCode: string }>('/Ajax/AddVideo', { VdtCode: vdtCode, VdName, VdUrl: 'https://media.example.com/daily.mp4' });
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data;
}

const counters = async (Id: number) => (await admin.call<{ VdNum: number; VdFabulous: number }>('/Ajax/GetSingleVideoInAdmin', { Id })).body.data;
const play = (Id: number, c = admin) => c.call<number>('/Ajax/UpdateVideoNumAdd', { Id });
const like = (Id: number, c = admin) => c.call<number>('/Ajax/UpdateVideoFabulousAdd', { Id });

/** A video's daily rows through the list call, with its total. */
async function dailyOf(VdCode: string, c = admin): Promise<{ rows: Daily[]; total: number | undefined }> {
  const res = await c.call<Daily[]>(LIST, { VdCode, All: 1 });
  expect(res.status, res.body.msg).toBe(200);
  return { rows: res.body.data, total: res.body.total };
}

/** The rows straight from the table, the slow and certain way. */
async function stored(VdCode: string): Promise<{ DAY: string; VD_NUM: number; VD_FABULOUS: number }[]> {
  const { rows } = await sql<{ DAY: string; VD_NUM: number; VD_FABULOUS: number }>`
    select ${sql.ref('DAY')}, ${sql.ref('VD_NUM')}, ${sql.ref('VD_FABULOUS')} from ${sql.table('VIDEO_DAILY')}
    where ${sql.ref('VD_CODE')} = ${VdCode} order by ${sql.ref('DAY')}`.execute(server.app.database.db);
  return rows.map((r) => ({ DAY: r.DAY, VD_NUM: Number(r.VD_NUM), VD_FABULOUS: Number(r.VD_FABULOUS) }));
}

const sum = (rows: Daily[], field: 'VdNum' | 'VdFabulous') => rows.reduce((n, r) => n + r[field], 0);

/**
 * One row per day, each a business day of the calls (the day may turn while they run), adding up
 * to the video's counters; the list's kept total and the table agree.
 */
async function expectDailyMatch(video: { Id: number; VdCode: string }, days: readonly string[], plays: number, likes: number) {
  expect(await counters(video.Id)).toMatchObject({ VdNum: plays, VdFabulous: likes });
  const { rows, total } = await dailyOf(video.VdCode);
  expect(new Set(rows.map((r) => r.Day)).size, 'one row per day').toBe(rows.length);
  for (const r of rows) expect(days, r.Day).toContain(r.Day);
  expect(rows.every((r) => r.VdCode === video.VdCode)).toBe(true);
  expect({ plays: sum(rows, 'VdNum'), likes: sum(rows, 'VdFabulous') }).toEqual({ plays, likes });
  expect(total).toBe(rows.length);
  expect(await stored(video.VdCode)).toEqual(
    [...rows].sort((a, b) => a.Day.localeCompare(b.Day)).map((r) => ({ DAY: r.Day, VD_NUM: r.VdNum, VD_FABULOUS: r.VdFabulous })),
  );
}

describe('the business day of a count', () => {
  it('is the day in TIME_ZONE: a play at 23:30 UTC counts on the next day in Asia/Shanghai', () => {
    expect(dayIn('Asia/Shanghai', '2026-03-01T23:30:00Z')).toBe('2026-03-02');
    expect(dayIn('Asia/Shanghai', '2026-03-01T15:59:59Z')).toBe('2026-03-01');
    expect(dayIn('Asia/Shanghai', '2026-03-01T16:00:00Z')).toBe('2026-03-02');
    expect(dayIn('UTC', '2026-03-01T23:30:00Z')).toBe('2026-03-01');
  });

  it("stores a play and a like on today's business day, not the host's or UTC's", async () => {
    const video = await addVideo('今天');
    const before = dayIn(OTHER_DAY_ZONE);
    expect((await play(video.Id)).body.data).toBe(1);
    expect((await play(video.Id)).body.data).toBe(2);
    expect((await like(video.Id)).body.data).toBe(1);
    const after = dayIn(OTHER_DAY_ZONE);
    expect(before).not.toBe(new Date().toISOString().slice(0, 10));
    await expectDailyMatch(video, [before, after], 2, 1);
    if (before === after) expect((await dailyOf(video.VdCode)).rows).toMatchObject([{ Day: before, VdNum: 2, VdFabulous: 1 }]);
  });
});

describe('daily figures under concurrent counts', () => {
  it('equal the counters after hundreds of plays and likes sent at once, one row per day', async () => {
    const video = await addVideo('热门');
    const N = 250;
    const before = dayIn(OTHER_DAY_ZONE);
    const answers = await Promise.all(
      Array.from({ length: N }, () => [play(video.Id).then((r) => ({ call: 'play', ...r })), like(video.Id).then((r) => ({ call: 'like', ...r }))]).flat(),
    );
    const after = dayIn(OTHER_DAY_ZONE);
    for (const call of ['play', 'like']) {
      const mine = answers.filter((a) => a.call === call);
      expect(mine.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.body.msg}`), call).toEqual([]);
      // Each answer saw its own increment: 1..N, each once.
      expect(mine.map((a) => a.body.data).sort((x, y) => x - y)).toEqual(Array.from({ length: N }, (_, i) => i + 1));
    }
    await expectDailyMatch(video, [before, after], N, N);
  });

  it('keep each video apart: counts spread over several videos add up per video', async () => {
    const videos = await Promise.all([addVideo('甲'), addVideo('乙'), addVideo('丙')]);
    const before = dayIn(OTHER_DAY_ZONE);
    await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const v = videos[i % 3]!;
        return i % 2 === 0 ? play(v.Id) : like(v.Id);
      }),
    );
    const after = dayIn(OTHER_DAY_ZONE);
    // Video i gets the calls i, i+3, …: 20 calls, alternating play and like by the call's parity.
    for (const [i, v] of videos.entries()) {
      const calls = Array.from({ length: 60 }, (_, k) => k).filter((k) => k % 3 === i);
      await expectDailyMatch(v, [before, after], calls.filter((k) => k % 2 === 0).length, calls.filter((k) => k % 2 === 1).length);
    }
  });
});

describe('a count and its day’s row, together or not at all', () => {
  const postgres = () => server.dialect === 'postgres';
  const run = (text: string) => sql.raw(text).execute(server.app.database.db);

  /** Makes every write of a table fail, as a full disk or a broken constraint would, until the returned undo runs. */
  async function failWrites(table: string, event: 'insert' | 'update' | 'insert or update'): Promise<() => Promise<void>> {
    const name = `FAIL_${table}`;
    if (postgres()) {
      await run(`create or replace function fail_write() returns trigger language plpgsql as $$ begin raise exception 'write refused by the test'; end $$`);
      await run(`create trigger "${name}" before ${event} on "${table}" for each row execute function fail_write()`);
      return async () => void (await run(`drop trigger "${name}" on "${table}"`));
    }
    const events = event.split(' or ');
    for (const e of events) await run(`create trigger "${name}_${e}" before ${e} on "${table}" begin select raise(abort, 'write refused by the test'); end`);
    return async () => {
      for (const e of events) await run(`drop trigger "${name}_${e}"`);
    };
  }

  it("adds nothing to the video when its first row of the day cannot be written", async () => {
    const video = await addVideo('首次失败');
    const undo = await failWrites('VIDEO_DAILY', 'insert or update');
    try {
      const res = await play(video.Id);
      expect(res.status).toBeGreaterThanOrEqual(500);
    } finally {
      await undo();
    }
    expect(await counters(video.Id)).toMatchObject({ VdNum: 0, VdFabulous: 0 });
    expect(await stored(video.VdCode)).toEqual([]);
    // Once it can be written, counts go on from there.
    expect((await play(video.Id)).body.data).toBe(1);
    await expectDailyMatch(video, [dayIn(OTHER_DAY_ZONE)], 1, 0);
  });

  it("adds nothing to the video when the day's row cannot grow", async () => {
    const video = await addVideo('追加失败');
    expect((await play(video.Id)).status).toBe(200);
    const day = (await stored(video.VdCode))[0]!.DAY;
    const undo = await failWrites('VIDEO_DAILY', 'insert or update');
    try {
      expect((await like(video.Id)).status).toBeGreaterThanOrEqual(500);
      expect((await play(video.Id)).status).toBeGreaterThanOrEqual(500);
    } finally {
      await undo();
    }
    expect(await counters(video.Id)).toMatchObject({ VdNum: 1, VdFabulous: 0 });
    expect(await stored(video.VdCode)).toEqual([{ DAY: day, VD_NUM: 1, VD_FABULOUS: 0 }]);
  });

  it("writes no day's row when the video's counter cannot be written", async () => {
    const video = await addVideo('计数失败');
    const undo = await failWrites('VIDEO', 'update');
    try {
      expect((await like(video.Id)).status).toBeGreaterThanOrEqual(500);
    } finally {
      await undo();
    }
    expect(await counters(video.Id)).toMatchObject({ VdNum: 0, VdFabulous: 0 });
    expect(await stored(video.VdCode)).toEqual([]);
  });

  it('counts nothing for a video that does not exist', async () => {
    expect((await play(987654)).status).toBe(404);
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table('VIDEO_DAILY')} where ${sql.ref('VD_CODE')} not in (select ${sql.ref('VD_CODE')} from ${sql.table('VIDEO')})`.execute(
      server.app.database.db,
    );
    expect(Number(rows[0]!.n)).toBe(0);
  });
});

describe('a deleted video', () => {
  it('takes its daily rows with it, counted in its log entry', async () => {
    const video = await addVideo('删除');
    await play(video.Id);
    await like(video.Id);
    expect((await dailyOf(video.VdCode)).total).toBe(1);
    const deleted = await admin.call('/Ajax/DelVideo', { Id: video.Id });
    expect(deleted.status, deleted.body.msg).toBe(200);
    expect(await dailyOf(video.VdCode)).toEqual({ rows: [], total: 0 });
    expect(await stored(video.VdCode)).toEqual([]);
    const log = await admin.call<{ Changes: unknown[] }[]>('/Ajax/GetAuditLogListInAdmin', { Resource: 'video', Action: 'delete', pageSize: 1 });
    expect(log.body.data[0]!.Changes).toContainEqual({ field: 'videoDaily', label: '随之删除的视频每日统计', before: 1 });
  });

  it('leaves no daily row behind when it is deleted while being played', async () => {
    const video = await addVideo('边播边删');
    await play(video.Id);
    const plays = Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? play(video.Id) : like(video.Id)));
    const deleted = admin.call('/Ajax/DelVideo', { Id: video.Id });
    const statuses = (await Promise.all(plays)).map((r) => r.status);
    expect((await deleted).status).toBe(200);
    // Each count went in before the delete, or found no video.
    expect(statuses.filter((s) => s !== 200 && s !== 404)).toEqual([]);
    expect(await stored(video.VdCode)).toEqual([]);
    expect(await dailyOf(video.VdCode)).toEqual({ rows: [], total: 0 });
  });
});

describe('who reads the daily figures', () => {
  it('lets whoever may see videos read them, and nobody else', async () => {
    const video = await addVideo('可见');
    await play(video.Id);
    for (const modules of [{ video: '2' }, { videoView: '2' }] as Record<string, string>[]) {
      const member = await server.member(modules);
      expect((await dailyOf(video.VdCode, member)).rows.map((r) => r.VdNum), JSON.stringify(modules)).toEqual([1]);
    }
    const other = await server.member({ videoType: '1,2,3,4,a', useweb: '1,2,3,4,a' });
    expect((await other.call(LIST, { VdCode: video.VdCode })).status).toBe(403);
  });

  it('has a list call only, and no screen or menu entry', () => {
    const paths = Object.keys((server.app.swagger() as { paths: Record<string, unknown> }).paths).filter((p) => /VideoDaily/i.test(p));
    expect(paths).toEqual([LIST]);
    expect(SCREENS.filter((s) => s.resource === 'videoDaily')).toEqual([]);
    expect(MENU_ENTRIES.filter((e) => e.screen.resource === 'videoDaily')).toEqual([]);
  });
});

describe("the fault tests' check of the daily figures (tests/helpers/integrity.ts)", () => {
  it("finds every video's rows adding up to its counters, and a counter changed behind their back", async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- raw tables
    const db = server.app.database.db as unknown as Kysely<any>;
    expect(await dailyMismatches(db)).toEqual([]);
    const video = await addVideo('核对');
    await play(video.Id);
    await db.updateTable('VIDEO').set({ VD_NUM: 5 }).where('VD_CODE', '=', video.VdCode).execute();
    expect(await dailyMismatches(db)).toEqual([`VIDEO ${video.VdCode} VD_NUM: counter 5 ≠ days 1`]);
  });
});
