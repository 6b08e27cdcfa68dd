// Several server processes on one machine, on one database (a SQLite file in WAL mode, or PostgreSQL
// when TEST_DATABASE_URL is set, as in scripts/test.sh's PostgreSQL pass) and one DATA_DIR:
//
// - the start-up work (migrations, the administrator and its password) done by the primary alone,
//   which a worker's app does not redo, and stale uploads removed by the one worker told to;
// - three separate processes, each addressed on its own port: whatever is written through one is
//   what the others answer next (read cache, sessions, logout, a permission removed, the login
//   limits, uploads in parts spread over them, counters raced with no increment lost), with the
//   scenarios of tests/helpers/acrossProcesses.ts that scaleout.test.ts runs over PostgreSQL;
// - one real cluster of `npm start` (WORKERS=3): the start-up work done once, connections spread over
//   distinct workers, sessions and counters exact across them, a killed worker replaced and logged,
//   and a stop (SIGTERM) that lets a slow upload in flight finish before the processes exit.
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedUpload } from '../../schemas/types';
import { buildApp } from '../../server/src/app';
import { runStartupWork } from '../../server/src/bootstrap';
import { loadConfig, type Config } from '../../server/src/config';
import {
  adminOnEach,
  concurrentWritesWait,
  countersExact,
  getOnNewConnection,
  loginLimitsShared,
  logoutEndsEverywhere,
  permissionChangesEverywhere,
  uploadsAcross,
  writesSeenEverywhere,
} from '../helpers/acrossProcesses';
import { mp4Bytes } from '../helpers/bytes';
import { Client, sharedDatabase, until, type SharedDatabase } from '../helpers/server';
import { startServerProcess, workerPids, type ServerProcess } from '../helpers/serverProcess';

const DIALECT = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite';
const PART = 64 * 1024;
/** Both test files' processes compile TypeScript at start on two shared cores: be generous. */
const START_MS = 300_000;

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe(`the start-up work and the removal of stale uploads, each in one process (${DIALECT})`, () => {
  let shared: SharedDatabase;
  beforeAll(async () => {
    shared = await sharedDatabase('zhishi-once-');
  });
  afterAll(() => shared?.close());

  const configOf = (extra: Partial<Config>): Config => ({ ...loadConfig({ ...shared.env, LOG: '0', DEMO_DATA: '0' }), ...extra });
  const worker = { startupWork: false, housekeeping: false };

  it('leaves migrations, the administrator and its password to the primary, once', async () => {
    // A worker's app does not migrate: on a database no primary prepared, it finds no tables.
    await expect(buildApp(configOf(worker))).rejects.toThrow(/SETTING/);
    const first = await runStartupWork(configOf({ adminPassword: undefined }));
    expect(first.generatedAdminPassword).toMatch(/^\S{8,}$/);
    // A restart of the primary finds the work done: no new password to print.
    expect(await runStartupWork(configOf({ adminPassword: undefined }))).toEqual({ generatedAdminPassword: undefined, generatedDemoStaffPassword: undefined });
    const { app } = await buildApp(configOf(worker));
    try {
      expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      const login = await app.inject({ method: 'POST', url: '/Ajax/Login', payload: { UserName: 'admin', Password: first.generatedAdminPassword } });
      expect(login.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('removes what a crashed upload left in the one process that does the housekeeping only', async () => {
    const tmpDir = path.join(shared.dataDir, 'uploads', '.tmp');
    fs.mkdirSync(tmpDir, { recursive: true });
    const partial = path.join(tmpDir, 'crashed.part');
    fs.writeFileSync(partial, 'half an upload');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    fs.utimesSync(partial, twoDaysAgo, twoDaysAgo);
    for (const housekeeping of [false, true]) {
      const { app } = await buildApp(configOf({ ...worker, housekeeping }));
      await app.ready();
      await app.close();
      expect(fs.existsSync(partial), `housekeeping ${housekeeping}`).toBe(!housekeeping);
    }
  });
});

describe(`three server processes on one ${DIALECT} database`, () => {
  let shared: SharedDatabase;
  const servers: ServerProcess[] = [];
  let urls: string[];
  let admins: Client[];

  beforeAll(async () => {
    shared = await sharedDatabase('zhishi-workers-');
    const env = { ...shared.env, UPLOAD_PART_SIZE: String(PART), DATABASE_POOL_SIZE: '5', TRUST_PROXY: 'loopback' };
    // The first makes the database; the other two then start together on it.
    servers.push(await startServerProcess(env, START_MS));
    servers.push(...(await Promise.all([startServerProcess(env, START_MS), startServerProcess(env, START_MS)])));
    urls = servers.map((s) => s.url);
    admins = await adminOnEach(urls);
  }, 3 * START_MS);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await shared?.close();
  });

  it('runs three processes, each answering on its own port', async () => {
    expect(new Set(servers.map((s) => s.pid)).size).toBe(3);
    expect(new Set(urls).size).toBe(3);
    for (const url of urls) {
      const health = await fetch(`${url}/health`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as { data: { database: string } }).data.database).toBe(shared.dialect);
    }
  });

  it('shows at once, on the warm read cache of every other process, what one wrote', async () => {
    await writesSeenEverywhere(admins, '三进程');
  });

  it('ends a session on every process when it logs out on one', async () => {
    await logoutEndsEverywhere(urls);
  });

  it('applies a permission granted or removed through one process to the next call on the others', async () => {
    await permissionChangesEverywhere(admins, urls, 'workers_perm');
  });

  it('counts failed logins of an account and of an address over every process', async () => {
    await loginLimitsShared(urls, admins[0]!, 'workers_throttle');
  });

  it('takes an upload in parts signed, sent and completed through different processes', async () => {
    await uploadsAcross(admins, urls, PART);
  });

  it('loses no like or play counted concurrently on every process', async () => {
    await countersExact(admins, 100);
  });

  it('makes concurrent writes that read first wait for the write lock, never 503 数据库繁忙', async () => {
    await concurrentWritesWait(admins, 6, 30);
  });
});

describe(`a cluster of three workers (WORKERS=3) on ${DIALECT}`, () => {
  let shared: SharedDatabase;
  let primary: ServerProcess;
  let admin: Client;

  beforeAll(async () => {
    shared = await sharedDatabase('zhishi-cluster-');
    // The demo data and the staff member's password made up once, by the primary.
    primary = await startServerProcess({ ...shared.env, WORKERS: '3', DEMO_DATA: '1' }, START_MS);
    admin = (await adminOnEach([primary.url]))[0]!;
  }, START_MS);

  afterAll(async () => {
    await primary?.stop();
    await shared?.close();
  });

  it('does the start-up work once and prints the address once, after every worker listens', async () => {
    const out = primary.stdout();
    expect(occurrences(out, '知识学习后台: ')).toBe(1);
    expect(occurrences(out, '已就绪')).toBe(3);
    // Every worker was ready before the address was printed.
    expect(out.lastIndexOf('已就绪')).toBeLessThan(out.indexOf('知识学习后台: '));
    expect(occurrences(out, '演示员工已创建')).toBe(1);
    expect(workerPids(primary.pid)).toHaveLength(3);

    // Demo data loaded once (three video categories, not three times three), and its staff member
    // logs in with the one password printed.
    const types = await admin.get('/Ajax/GetVideoTypeListInAdmin', { pageIndex: 1, pageSize: 50 });
    expect(types.body.total).toBe(3);
    const password = /用户名 staff {2}密码 (\S+)/.exec(out)?.[1];
    expect(password).toBeTruthy();
    expect((await new Client(primary.url).call('/Ajax/Login', { UserName: 'staff', Password: password })).status).toBe(200);
  });

  it('hands new connections to distinct workers, named by the x-worker header', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const res = await getOnNewConnection(primary.url, '/health');
      expect(res.status).toBe(200);
      seen.add(String(res.headers['x-worker']));
    }
    expect([...seen].sort()).toEqual(['1', '2', '3']);
  });

  it('keeps sessions and counters exact across its workers', async () => {
    // Three clients with one session: concurrent calls open several connections, which the
    // primary spreads over the workers.
    const workers = await countersExact([admin, ...(await adminOnEach([primary.url, primary.url]))], 100);
    expect(new Set(workers).size).toBeGreaterThan(1);
  });

  it('replaces a worker that dies, and logs it', async () => {
    const before = workerPids(primary.pid);
    const victim = before[1]!;
    process.kill(victim, 'SIGKILL');
    await until(() => primary.stderr().includes(`(pid ${victim}) 意外退出 (signal SIGKILL)`), 'the death to be logged');
    await until(() => occurrences(primary.stdout(), '已就绪') === 4, 'a replacement to be ready', START_MS);
    const after = workerPids(primary.pid);
    expect(after).toHaveLength(3);
    expect(after).not.toContain(victim);
    expect(primary.stdout()).toContain('工作进程 4 已就绪');
    // The replacement (worker 4) takes its share of new connections; the session still holds.
    const seen = new Set<string>();
    for (let i = 0; i < 12; i++) seen.add(String((await getOnNewConnection(primary.url, '/health')).headers['x-worker']));
    expect(seen).toContain('4');
    expect((await admin.call('/Ajax/GetCurrentMember')).status).toBe(200);
  }, START_MS);

  it('lets a slow upload in flight finish on SIGTERM, refuses new connections, then exits', async () => {
    const bytes = mp4Bytes(96 * 1024);
    const signed = await admin.call<SignedUpload & { FileUrl: string }>('/Ajax/SignUpload', {
      FileName: 'slow.mp4',
      Size: bytes.length,
      Kind: 'video',
      ContentType: 'video/mp4',
    });
    expect(signed.status, signed.body.msg).toBe(200);
    const { Url, Method, Headers } = signed.body.data;
    const req = http.request(primary.url + Url, { method: Method, agent: false, headers: { ...Headers, 'content-length': String(bytes.length) } });
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
    });
    // Awaited below; a failure (a worker that did not wait for the body) is reported there, not as unhandled.
    answered.catch(() => {});
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const chunk = 8 * 1024;
    req.write(bytes.subarray(0, chunk));
    await pause(500);

    const exited = once(primary.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    primary.child.kill('SIGTERM');
    // The rest of the body trickles in over about two seconds while the cluster stops.
    for (let at = chunk; at < bytes.length; at += chunk) {
      req.write(bytes.subarray(at, at + chunk));
      await pause(180);
      if (at === chunk * 3) {
        // By now every worker has closed its listener: the shared socket is gone.
        await until(
          () => getOnNewConnection(primary.url, '/health').then(() => false, () => true),
          'new connections to be refused',
          10_000,
        );
      }
    }
    req.end();

    const answer = await answered;
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 0, data: { FileUrl: signed.body.data.FileUrl } });
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(primary.stderr()).not.toContain('强制');
    // The whole file was stored before the worker exited.
    const key = signed.body.data.FileUrl.replace(/^\/files\//, '');
    expect(fs.readFileSync(path.join(shared.dataDir, 'uploads', key)).equals(bytes)).toBe(true);
  }, START_MS);
});
