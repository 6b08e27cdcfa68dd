// PostgreSQL restarted under load, the server left running: calls during the outage fail cleanly
// (a 503 envelope with a Chinese message, never a crash or a dropped connection), calls succeed
// again afterwards without restarting the server, and no acknowledged write is lost.
// Needs a cluster this test may restart, so it starts its own with scripts/pg-cluster.sh (a
// TEST_DATABASE_URL cluster belongs to someone else); skipped with the reason when that fails.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countMismatches } from '../helpers/integrity';
import { spawnServer, type ServerProcess } from '../helpers/process';
import type { Client } from '../helpers/server';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const WORKERS = 8;
const CHINESE = /[\u4e00-\u9fff]/;

const clusterDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-faults-'));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-pgfault-'));
let adminUrl: string | undefined;
let unavailable = '';
let server: ServerProcess | undefined;

/** pg_ctl of the cluster, as its owner (the 'postgres' user when we are root, as pg-cluster.sh does). */
async function pgCtl(...args: string[]): Promise<void> {
  const dir = path.join(clusterDir, 'data');
  const logFile = path.join(clusterDir, 'server.log');
  // -l: without a log file the postmaster would keep our pipes open.
  const cmd = ['pg_ctl', '-D', dir, '-l', logFile, '-w', '-t', '60', ...args];
  if (process.getuid?.() === 0) await run('runuser', ['-u', 'postgres', '--', ...cmd]);
  else await run(cmd[0]!, cmd.slice(1));
}

beforeAll(async () => {
  try {
    const { stdout } = await run('bash', [path.join(ROOT, 'scripts/pg-cluster.sh'), 'start', clusterDir], { cwd: ROOT });
    adminUrl = stdout.trim().split('\n').pop();
  } catch (err) {
    unavailable = `PostgreSQL could not be started by scripts/pg-cluster.sh: ${(err as { stderr?: string }).stderr ?? String(err)}`.trim();
  }
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await run('bash', [path.join(ROOT, 'scripts/pg-cluster.sh'), 'stop', clusterDir]).catch(() => undefined);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface Load {
  acked: Map<number, string>;
  likes: number;
  likesSent: number;
  ok: number;
  /** Answers other than 200, by status and message. */
  refused: Map<string, number>;
  /** Calls that got no HTTP answer at all (the server dropped or refused the connection). */
  dropped: number;
  stop: boolean;
}

function load(admin: Client, VdtCode: string, likeId: number, state: Load): Promise<void> {
  let n = 0;
  const record = (status: number, msg: string) => {
    const key = `${status} ${msg}`;
    state.refused.set(key, (state.refused.get(key) ?? 0) + 1);
  };
  async function one() {
    const i = n++;
    try {
      if (i % 3 === 0) {
        const VdName = `pg-${i}`;
        const res = await admin.call<{ Id: number }>('/Ajax/AddVideo', { VdtCode, VdName, VdUrl: 'https://example.com/v.mp4' });
        if (res.status === 200) state.acked.set(res.body.data.Id, VdName);
        else record(res.status, res.body.msg);
        if (res.status === 200) state.ok++;
      } else if (i % 3 === 1) {
        state.likesSent++;
        const res = await admin.call('/Ajax/UpdateVideoFabulousAdd', { Id: likeId });
        if (res.status === 200) {
          state.likes++;
          state.ok++;
        } else record(res.status, res.body.msg);
      } else {
        const res = await admin.get('/Ajax/GetVideoListInAdmin', { VdtCode, pageSize: 5 });
        if (res.status === 200) state.ok++;
        else record(res.status, res.body.msg);
      }
    } catch {
      state.dropped++;
    }
  }
  return Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (!state.stop) await one();
    }),
  ).then(() => undefined);
}

async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (server && server.child.exitCode !== null) throw new Error(`the server died (${server.child.exitCode}) waiting for ${what}: ${server.stderr()}`);
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('PostgreSQL restart under load', () => {
  it('answers 503 during the outage, recovers without a server restart, and loses no acknowledged write', { timeout: 300_000 }, async (ctx) => {
    if (!adminUrl) {
      console.log(`[faults] PostgreSQL restart: skipped (${unavailable})`);
      ctx.skip(unavailable);
      return;
    }
    const setup = new pg.Client({ connectionString: adminUrl });
    await setup.connect();
    await setup.query('create database faults');
    await setup.end();
    const url = new URL(adminUrl);
    url.pathname = '/faults';
    server = await spawnServer(dataDir, { DATABASE_URL: url.toString() });
    const admin = await server.admin();
    const VdtCode = (await admin.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName: '重启测试', VdtSort: 1 })).body.data.VdtCode;
    const liked = (await admin.call<{ Id: number }>('/Ajax/AddVideo', { VdtCode, VdName: 'liked', VdUrl: 'https://example.com/l.mp4' })).body.data.Id;

    const state: Load = { acked: new Map(), likes: 0, likesSent: 0, ok: 0, refused: new Map(), dropped: 0, stop: false };
    const running = load(admin, VdtCode, liked, state);
    const refusedCount = () => [...state.refused.values()].reduce((a, b) => a + b, 0);

    // Round 1: pg_ctl restart -m fast, as an operator would, in the middle of the load.
    await until(() => state.ok >= 100, 'load before the restart');
    await pgCtl('restart', '-m', 'fast');
    const okAfterRestart = state.ok;
    await until(() => state.ok >= okAfterRestart + 100, 'calls succeeding after pg_ctl restart');

    // Round 2: the same restart in two steps, holding the outage until calls were seen failing.
    const refusedBefore = refusedCount();
    await pgCtl('stop', '-m', 'fast');
    await until(() => refusedCount() >= refusedBefore + 30, 'calls refused during the outage');
    await pgCtl('start', '-o', `-p ${url.port} -c listen_addresses=127.0.0.1 -k ${clusterDir} -c fsync=off -c max_connections=300`);
    const okAfterStart = state.ok;
    await until(() => state.ok >= okAfterStart + 100, 'calls succeeding after the outage');
    state.stop = true;
    await running;

    // The same server process throughout, and every failure a clean envelope.
    expect(server.child.exitCode).toBeNull();
    expect(state.dropped).toBe(0);
    expect(server.stderr()).not.toMatch(/Error|uncaught/i);
    for (const key of state.refused.keys()) {
      const [status, msg] = [Number(key.split(' ')[0]), key.slice(key.indexOf(' ') + 1)];
      expect(status, key).toBe(503);
      expect(msg, key).toMatch(CHINESE);
    }

    // Every acknowledged write is stored; totals are exact.
    const db = new Kysely<never>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url.toString(), max: 1 }) }) });
    try {
      const raw = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const rows = (await raw.selectFrom('VIDEO').select(['ID', 'VD_NAME', 'VD_FABULOUS']).execute()) as { ID: number; VD_NAME: string; VD_FABULOUS: number }[];
      const stored = new Map(rows.map((r) => [Number(r.ID), r]));
      const lost = [...state.acked].filter(([id, name]) => stored.get(id)?.VD_NAME !== name);
      expect(lost).toEqual([]);
      const likes = Number(stored.get(liked)!.VD_FABULOUS);
      expect(likes).toBeGreaterThanOrEqual(state.likes);
      expect(likes).toBeLessThanOrEqual(state.likesSent);
      expect(await countMismatches(raw)).toEqual([]);
    } finally {
      await db.destroy();
    }
    const refused = refusedCount();
    console.log(
      `[faults] PostgreSQL restarted twice under load (pg_ctl restart -m fast; stop/start): server kept running (pid ${server.pid}), ` +
        `${state.ok} calls succeeded, ${refused} refused during the outages (${[...state.refused.entries()].map(([k, v]) => `${v}× ${k}`).join('; ')}), ` +
        `${state.dropped} dropped; ${state.acked.size + state.likes} writes acknowledged, 0 lost`,
    );
  });
});
