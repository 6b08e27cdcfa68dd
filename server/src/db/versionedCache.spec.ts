import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, openSqlite, type Db } from './database';
import { oncePerTurn, VersionedCache } from './versionedCache';

describe('VersionedCache', () => {
  it('keeps a value while the version stays, reloads when it moves, and keeps nothing without one', async () => {
    let loads = 0;
    const cache = new VersionedCache<string>({ maxEntries: 10 });
    const load = () => Promise.resolve(`v${++loads}`);
    expect(await cache.get('k', 'a', load)).toBe('v1');
    expect(await cache.get('k', 'a', load)).toBe('v1');
    expect(await cache.get('k', 'b', load)).toBe('v2');
    expect(await cache.get('k', undefined, load)).toBe('v3');
    expect(await cache.get('k', undefined, load)).toBe('v4');
  });

  it('loads a value once for the calls that ask for it at once under one version', async () => {
    const cache = new VersionedCache<string>({ maxEntries: 10 });
    let loads = 0;
    const load = async () => {
      const n = ++loads;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return `v${n}`;
    };
    expect(await Promise.all(Array.from({ length: 16 }, () => cache.get('k', 'a', load)))).toEqual(Array(16).fill('v1'));
    expect(loads).toBe(1);
    // Another version is another load, even while the first is under way.
    const [old, fresh] = await Promise.all([cache.get('k2', 'a', load), cache.get('k2', 'b', load)]);
    expect(old).not.toBe(fresh);
    expect(loads).toBe(3);
    // A failed load is not kept: the next call loads again.
    await expect(Promise.all([cache.get('f', 'a', () => Promise.reject(new Error('no'))), cache.get('f', 'a', () => Promise.reject(new Error('no')))])).rejects.toThrow('no');
    expect(await cache.get('f', 'a', () => Promise.resolve('yes'))).toBe('yes');
  });

  it('drops the least recently used values beyond its byte limit', async () => {
    const cache = new VersionedCache<string>({ maxEntries: 100, maxBytes: 10, sizeOf: (s) => s.length });
    let loads = 0;
    const load = (text: string) => () => {
      loads++;
      return Promise.resolve(text);
    };
    await cache.get('a', 'v', load('123456'));
    await cache.get('b', 'v', load('123456')); // a is dropped: 12 bytes would exceed 10
    await cache.get('b', 'v', load('123456'));
    expect(loads).toBe(2);
    await cache.get('a', 'v', load('123456'));
    expect(loads).toBe(3);
  });
});

describe('oncePerTurn', () => {
  it('reads once for the calls of one turn of the event loop, and again for calls made after that reading began', async () => {
    let reads = 0;
    const read = oncePerTurn(() => Promise.resolve(`r${++reads}`));
    const first = Array.from({ length: 16 }, () => read());
    expect(reads).toBe(0);
    expect(await Promise.all(first)).toEqual(Array(16).fill('r1'));
    expect(await read()).toBe('r2');
    // A call made while a reading is under way gets a reading begun after it.
    let release!: () => void;
    let slowReads = 0;
    const slow = oncePerTurn(() => {
      const n = ++slowReads;
      return new Promise<string>((resolve) => (release = () => resolve(`s${n}`)));
    });
    const early = slow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(slowReads).toBe(1);
    const late = slow();
    const firstRelease = release;
    await new Promise((resolve) => setImmediate(resolve));
    expect(slowReads).toBe(2);
    firstRelease();
    release();
    expect([await early, await late]).toEqual(['s1', 's2']);
  });
});

describe('the SQLite change clock', () => {
  let database: Db | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await database?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('moves on a write through this connection and on a commit by another connection, not on reads', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-clock-'));
    database = await openDatabase({ dataDir: dir });
    const v0 = await database.dataVersion();
    expect(v0).toBeDefined();
    await database.db.selectFrom('SETTING').selectAll().execute();
    expect(await database.dataVersion()).toBe(v0);
    // Reads written as raw SQL (the full-text search's) are reads too: otherwise every search would
    // empty the process's read cache.
    await sql`select count(*) from VIDEO_TYPE`.execute(database.db);
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 3) select i from n`.execute(database.db);
    expect(await database.dataVersion()).toBe(v0);
    await sql`insert into VIDEO_TYPE (VDT_CODE, VDT_NAME, VDT_SORT) values ('a', '甲', 1)`.execute(database.db);
    const v1 = await database.dataVersion();
    expect(v1).not.toBe(v0);
    const other = openSqlite(path.join(dir, 'zhishi.sqlite'));
    other.prepare("insert into VIDEO_TYPE (VDT_CODE, VDT_NAME, VDT_SORT) values ('b', '乙', 2)").run();
    other.close();
    expect(await database.dataVersion()).not.toBe(v1);
  });

  // PostgreSQL's clock is its snapshot: checked when the suite has a cluster (TEST_DATABASE_URL).
  it.skipIf(!process.env.TEST_DATABASE_URL)('on PostgreSQL, moves on a commit by another client and not on reads', async () => {
    database = await openDatabase({ dataDir: '', databaseUrl: process.env.TEST_DATABASE_URL });
    const v0 = await database.dataVersion();
    await database.db.selectFrom('SETTING').selectAll().execute();
    expect(await database.dataVersion()).toBe(v0);
    const other = await openDatabase({ dataDir: '', databaseUrl: process.env.TEST_DATABASE_URL });
    try {
      await sql`insert into "SETTING" ("NAME", "VALUE") values (${`clock-${Date.now()}`}, 'x')`.execute(other.db);
    } finally {
      await other.close();
    }
    expect(await database.dataVersion()).not.toBe(v0);
  });
});
