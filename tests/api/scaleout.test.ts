// Scale-out: two real server processes on one PostgreSQL database and one store of files behave
// as one system, as they would behind a load balancer that sends each request to either of them.
// A session made on one works on the other, logging out or a permission change on one applies on
// the other's next call, an upload signed by one is finished and used through the other, and
// counters and kept list totals stay exact under concurrent calls spread over both.
//
// Needs PostgreSQL (servers on several machines share PostgreSQL and a bucket, not a SQLite file;
// the scenarios come from tests/helpers/acrossProcesses.ts, which workers.test.ts runs on one
// machine, SQLite included): runs when TEST_DATABASE_URL is set, as scripts/test.sh does for its
// PostgreSQL pass.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminOnEach,
  countersExact,
  loginLimitsShared,
  logoutEndsEverywhere,
  permissionChangesEverywhere,
  uploadsAcross,
  writesSeenEverywhere,
} from '../helpers/acrossProcesses';
import { storageEnv, type LocalS3 } from '../helpers/s3rver';
import { ADMIN_PASSWORD, type Client, freshPostgres } from '../helpers/server';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess';

const pgUrl = process.env.TEST_DATABASE_URL;
const PART = 64 * 1024;

describe.skipIf(!pgUrl).each(['s3', 'local'] as const)(
  'two server processes on one PostgreSQL and one %s store (skipped without TEST_DATABASE_URL)',
  (driver) => {
    let a: ServerProcess;
    let b: ServerProcess;
    let s3: LocalS3;
    let database: { url: string; drop(): Promise<void> };
    let sqlClient: pg.Client;
    let dataDir: string;
    /** The built-in administrator logged in through A. */
    let adminA: Client;
    let adminB: Client;

    beforeAll(async () => {
      database = await freshPostgres(pgUrl!);
      s3 = await storageEnv(driver);
      // One DATA_DIR for both (the local driver's shared disk); with S3 it holds nothing shared.
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-scaleout-'));
      const env = {
        ...s3.env,
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        PUBLIC_DIR: path.join(dataDir, 'no-public'),
        ADMIN_PASSWORD,
        UPLOAD_PART_SIZE: String(PART),
        DATABASE_POOL_SIZE: '5',
        TRUST_PROXY: 'loopback',
      };
      // Both start at once on the new database: migrations and start-up data must not collide.
      [a, b] = await Promise.all([startServerProcess(env, 200_000), startServerProcess(env, 200_000)]);
      sqlClient = new pg.Client({ connectionString: database.url });
      await sqlClient.connect();
      [adminA, adminB] = (await adminOnEach([a.url, b.url])) as [Client, Client];
      // Two processes compiling TypeScript at start-up on a busy machine: be generous.
    }, 240_000);

    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await sqlClient?.end();
      await database?.drop();
      await s3?.close();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    const count = async (query: string, params: unknown[] = []) => Number((await sqlClient.query<{ n: string }>(query, params)).rows[0]!.n);

    it('started together on a new database with one administrator and one upload secret', async () => {
      expect(a.pid).not.toBe(b.pid);
      for (const server of [a, b]) {
        const health = await fetch(`${server.url}/health`);
        expect(health.status).toBe(200);
        expect(await health.json()).toMatchObject({ code: 0, data: { database: 'postgres', storage: driver } });
      }
      expect(await count(`select count(*) as n from "MEMBER" where "USER_NAME" = 'admin'`)).toBe(1);
      expect(await count(`select count(*) as n from "SETTING" where "NAME" = 'upload_secret'`)).toBe(1);
    });

    it('accepts a session made on one process on the other, and shows at once what the other wrote', async () => {
      await writesSeenEverywhere([adminA, adminB], '跨进程');
    });

    it('ends a session on both when it logs out on one', async () => {
      await logoutEndsEverywhere([a.url, b.url]);
    });

    it('applies a permission change made through one process to the next call on the other', async () => {
      await permissionChangesEverywhere([adminA, adminB], [a.url, b.url], `scale_${driver}`);
    });

    // Storage plays no part here, and each failed login costs a password hash: once is enough.
    it.runIf(driver === 's3')('counts failed logins of an account and of an address over both processes', async () => {
      await loginLimitsShared([a.url, b.url], adminA, `throttle_${driver}`);
    });

    it('finishes and uses through one process an upload signed through the other', async () => {
      await uploadsAcross([adminA, adminB], [a.url, b.url], PART);
    });

    it('loses no like or play counted concurrently on both processes, and answers each count once', async () => {
      await countersExact([adminA, adminB], 150);
    });

    it('keeps list totals exact under concurrent adds, moves and deletes spread over both processes', async () => {
      const types: string[] = [];
      for (let i = 0; i < 3; i++) {
        types.push((await adminA.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName: `总数${i}`, VdtSort: i })).body.data.VdtCode);
      }
      const video = (client: Client, i: number) =>
        client.call<{ Id: number; VdCode: string }>('/Ajax/AddVideo', { VdtCode: types[i % 3], VdName: `v${i}`, VdUrl: 'https://media.example.com/v.mp4' });
      const first = await Promise.all(Array.from({ length: 30 }, (_, i) => video(i % 2 ? adminA : adminB, i)));
      expect(first.every((r) => r.status === 200)).toBe(true);
      const existing = first.map((r) => r.body.data);

      const ops: Promise<{ op: string; status: number }>[] = [];
      const track = (op: string, p: Promise<{ status: number }>) => ops.push(p.then((r) => ({ op, status: r.status })));
      for (let i = 0; i < 40; i++) track('add', video(i % 2 ? adminB : adminA, 100 + i));
      for (const [i, v] of existing.entries()) {
        const [one, other] = i % 2 ? [adminA, adminB] : [adminB, adminA];
        if (i % 3 === 0) {
          // Deleted on one process while the other moves it and comments on it.
          track('delete', one.call('/Ajax/DelVideo', { Id: v.Id }));
          track('move of a deleted video', other.call('/Ajax/UpdateVideo', { Id: v.Id, VdtCode: types[(i + 1) % 3] }));
          track('comment', other.call('/Ajax/AddVideoMessage', { VdCode: v.VdCode, VmDes: `<p>c${i}</p>` }));
        } else if (i % 3 === 1) {
          // Moved to two different types at once, one on each process.
          track('move', one.call('/Ajax/UpdateVideo', { Id: v.Id, VdtCode: types[(i + 1) % 3] }));
          track('move', other.call('/Ajax/UpdateVideo', { Id: v.Id, VdtCode: types[(i + 2) % 3] }));
        }
        track('comment', one.call('/Ajax/AddVideoMessage', { VdCode: v.VdCode, VmDes: `<p>d${i}</p>` }));
      }
      const results = await Promise.all(ops);
      for (const r of results) {
        // What loses the race against a deletion gets a clear 404, never a 500.
        const allowed = r.op === 'comment' || r.op === 'move of a deleted video' ? [200, 404] : [200];
        expect(allowed, `${r.op} answered ${r.status}`).toContain(r.status);
      }
      expect(results.filter((r) => r.op === 'add' || r.op === 'delete' || r.op === 'move').length).toBe(40 + 10 + 20);

      const total = async (client: Client, call: string, params: Record<string, unknown>) =>
        (await client.call(call, { ...params, pageSize: 1 })).body.total;
      for (const client of [adminA, adminB]) {
        expect(await total(client, '/Ajax/GetVideoListInAdmin', {})).toBe(await count(`select count(*) as n from "VIDEO"`));
        for (const code of types) {
          expect(await total(client, '/Ajax/GetVideoListInAdmin', { VdtCode: code })).toBe(
            await count(`select count(*) as n from "VIDEO" where "VDT_CODE" = $1`, [code]),
          );
        }
        expect(await total(client, '/Ajax/GetVideoMessageListInAdmin', {})).toBe(await count(`select count(*) as n from "VIDEO_MESSAGE"`));
        for (const v of existing) {
          expect(await total(client, '/Ajax/GetVideoMessageListInAdmin', { VdCode: v.VdCode })).toBe(
            await count(`select count(*) as n from "VIDEO_MESSAGE" where "VD_CODE" = $1`, [v.VdCode]),
          );
        }
      }
    });
  },
  // Hundreds of concurrent calls through two processes on two shared cores: no timing is asserted.
  120_000,
);
