// The counters' writes gathered (counterBatch.ts): many counts at once take the write lock a few
// times, not once each, and every count is still exact, answered with its own value, durable before
// its answer, and counted in the day's row and the kept totals.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { videoResource } from '../../../schemas/video';
import { videoDailyResource } from '../../../schemas/videoDaily';
import { videoTypeResource } from '../../../schemas/videoType';
import { countMismatches } from '../../../tests/helpers/integrity';
import { CounterBatch } from './counterBatch';
import { openDatabase, type Db } from './database';
import { findRow, insertRow } from './repository';

let dir: string;
let database: Db;
let vdtCode: string;
const DAY = '2026-03-02';
const daily = { descriptor: videoDailyResource, day: DAY };

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'counter-batch-'));
  database = await openDatabase({ dataDir: dir });
  vdtCode = String((await insertRow(database, videoTypeResource, { VdtCode: 'vt-count', VdtName: '计数', VdtSort: 1 })).VdtCode);
});
afterAll(async () => {
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

let made = 0;
const addVideo = async (VdName: string) =>
  (await insertRow(database, videoResource, { VdCode: `vd-count-${++made}`, VdtCode: vdtCode, VdName, VdUrl: 'https://media.example.com/a.mp4' })) as { Id: number; VdCode: string };
const stored = async (id: number) => (await findRow(database, videoResource, 'Id', id)) as { VdNum: number; VdFabulous: number };

describe('counts gathered into few transactions', () => {
  it('answers each of 200 counts at once with its own value, in a few transactions', async () => {
    const batch = new CounterBatch(database, { intervalMs: 20 });
    const video = await addVideo('热门');
    const transactions = vi.spyOn(database.db, 'transaction');
    try {
      const values = await Promise.all(Array.from({ length: 200 }, () => batch.increment(videoResource, video.Id, 'VdNum', daily)));
      expect([...values].sort((a, b) => a! - b!)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
      expect(transactions.mock.calls.length).toBeLessThanOrEqual(3);
    } finally {
      transactions.mockRestore();
      await batch.close();
    }
    expect(await stored(video.Id)).toMatchObject({ VdNum: 200, VdFabulous: 0 });
    expect(await countMismatches(database.db as never)).toEqual([]);
  });

  it('keeps videos and counters apart, and answers a missing video with nothing', async () => {
    const batch = new CounterBatch(database, { intervalMs: 20 });
    const [a, b] = [await addVideo('甲'), await addVideo('乙')];
    const calls = Array.from({ length: 60 }, (_, i) => {
      const video = i % 3 === 0 ? a : b;
      return batch.increment(videoResource, video.Id, i % 2 === 0 ? 'VdNum' : 'VdFabulous', daily);
    });
    const missing = batch.increment(videoResource, 987654, 'VdNum', daily);
    await Promise.all(calls);
    expect(await missing).toBeUndefined();
    await batch.close();
    expect(await stored(a.Id)).toMatchObject({ VdNum: 10, VdFabulous: 10 });
    expect(await stored(b.Id)).toMatchObject({ VdNum: 20, VdFabulous: 20 });
    expect(await countMismatches(database.db as never)).toEqual([]);
  });

  it('answers a lone count at once, without waiting for the interval', async () => {
    const batch = new CounterBatch(database, { intervalMs: 60_000 });
    const video = await addVideo('单次');
    expect(await batch.increment(videoResource, video.Id, 'VdNum', daily)).toBe(1);
    await batch.close();
  });

  it('fails every count of a transaction that fails, and counts none of them', async () => {
    const batch = new CounterBatch(database, { intervalMs: 20 });
    const video = await addVideo('失败');
    await sql.raw(`create trigger FAIL_DAILY before insert on "${videoDailyResource.table}" begin select raise(abort, 'refused by the test'); end`).execute(database.db);
    try {
      const results = await Promise.allSettled(Array.from({ length: 20 }, () => batch.increment(videoResource, video.Id, 'VdNum', daily)));
      expect(results.every((r) => r.status === 'rejected')).toBe(true);
    } finally {
      await sql.raw('drop trigger FAIL_DAILY').execute(database.db);
    }
    expect(await stored(video.Id)).toMatchObject({ VdNum: 0 });
    expect(await batch.increment(videoResource, video.Id, 'VdNum', daily)).toBe(1);
    await batch.close();
  });

  it('writes the counts still waiting when it closes', async () => {
    const batch = new CounterBatch(database, { intervalMs: 60_000 });
    const video = await addVideo('关闭');
    const first = batch.increment(videoResource, video.Id, 'VdNum', daily);
    const rest = Array.from({ length: 5 }, () => batch.increment(videoResource, video.Id, 'VdNum', daily));
    await batch.close();
    expect(await Promise.all([first, ...rest])).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await stored(video.Id)).toMatchObject({ VdNum: 6 });
  });
});
