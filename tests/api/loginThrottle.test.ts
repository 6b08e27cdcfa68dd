// Login limits that hold under concurrency and cannot be turned against a member:
// - a burst of simultaneous logins gets no more password checks than the limit (the attempt is
//   reserved atomically before the password is verified), on SQLite and PostgreSQL, in one process
//   and over two;
// - failures are counted per (account, address) pair and per address, so wrong passwords sent from
//   other addresses do not lock a member out of an address that has not failed; the count of one
//   account over all addresses has a larger ceiling (100), which bounds distributed guessing.
// Loopback has many source addresses (127.0.0.0/8): the client binds 127.0.0.x and the server,
// listening on 127.0.0.1 without TRUST_PROXY, sees that address as the client's.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, Client, freshPostgres, startServer, type TestServer } from '../helpers/server';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess';

const THROTTLED = '登录失败次数过多，请15分钟后再试';
const WRONG = '用户名或密码错误';
const PASSWORD = 'password-123';

interface Answer {
  status: number;
  body: { code: number; msg: string };
}

/** POST /Ajax/Login over its own connection from the local address `from`. */
function loginFrom(baseUrl: string, from: string, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Answer> {
  const url = new URL('/Ajax/Login', baseUrl);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: from,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Answer['body'] });
          } catch (err) {
            reject(new Error(`not JSON (${res.statusCode}): ${text}`, { cause: err }));
          }
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function tally(answers: Answer[]) {
  const by = (status: number) => answers.filter((a) => a.status === status).length;
  return { checkedWrong: by(401), throttled: by(429), accepted: by(200), other: answers.length - by(401) - by(429) - by(200) };
}

async function addMember(admin: Client, UserName: string) {
  const res = await admin.call('/Ajax/AddMember', { UserName, AuName: `成员${UserName}`, Password: PASSWORD, Modules: { videoType: '2' } });
  expect(res.status, res.body.msg).toBe(200);
}

/**
 * 39 wrong passwords and then the right one, all at once from `from` (spread over `urls`):
 * at most 5 passwords are checked, and once 5 wrong ones were, the right one is refused too.
 */
async function burstOnOneAccount(urls: string[], from: string, UserName: string) {
  const bodies = [...Array.from({ length: 39 }, (_, i) => ({ UserName, Password: `wrong-${i}` })), { UserName, Password: PASSWORD }];
  const answers = await Promise.all(bodies.map((body, i) => loginFrom(urls[i % urls.length]!, from, body)));
  const right = answers[answers.length - 1]!;
  const t = tally(answers);
  console.info(`burst of 40 on one account from ${from}: ${t.checkedWrong} wrong checked (401), ${t.throttled} × 429, right password ${right.status}`);
  expect(t.other).toBe(0);
  expect(t.checkedWrong).toBeLessThanOrEqual(5);
  // The right one holds a slot only while it is checked: the wrong ones get the others.
  expect(t.checkedWrong).toBeGreaterThanOrEqual(4);
  if (right.status !== 200) {
    // It came after the limit was reached: refused like the rest, and exactly 5 were checked.
    expect(right.body).toMatchObject({ code: 429, msg: THROTTLED });
    expect(t.checkedWrong).toBe(5);
  }
  for (const a of answers) if (a.status === 401) expect(a.body.msg).toBe(WRONG);
  for (const a of answers) if (a.status === 429) expect(a.body.msg).toBe(THROTTLED);
  if (t.checkedWrong === 5) {
    // Within the window, the right password stays refused from that address.
    expect((await loginFrom(urls[0]!, from, { UserName, Password: PASSWORD })).status).toBe(429);
  }
}

/** 200 logins at once from `from` on 200 names (no pair limit applies): at most 20 checked. */
async function burstFromOneAddress(urls: string[], from: string) {
  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, i) => loginFrom(urls[i % urls.length]!, from, { UserName: `nobody_${i}`, Password: 'wrong-pass' })),
  );
  const t = tally(answers);
  console.info(`burst of 200 from ${from}: ${t.checkedWrong} checked (401), ${t.throttled} × 429`);
  expect(t.other).toBe(0);
  expect(t.checkedWrong).toBe(20);
  expect(t.throttled).toBe(180);
  // The address is locked, even for the administrator's right password; other addresses are not.
  const locked = await loginFrom(urls[0]!, from, { UserName: 'admin', Password: ADMIN_PASSWORD });
  expect(locked.body).toMatchObject({ code: 429, msg: THROTTLED });
}

describe('login limits on one server', () => {
  let server: TestServer;
  let admin: Client;
  beforeAll(async () => {
    server = await startServer();
    admin = await server.admin();
  });
  afterAll(() => server?.close());

  it('the server sees the local source address of the client', async () => {
    // Guards the method of this file: 20 failures from 127.0.0.250 would lock it, not 127.0.0.1.
    const res = await loginFrom(server.url, '127.0.0.250', { UserName: 'nobody', Password: 'x' }, { 'x-forwarded-for': '127.0.0.1' });
    expect(res.body).toMatchObject({ code: 401, msg: WRONG });
    const rows = await server.app.database.db.selectFrom('LOGIN_THROTTLE').select('THROTTLE_KEY').execute();
    expect(rows.map((r) => r.THROTTLE_KEY)).toContain('ip:127.0.0.250');
  });

  it('checks at most 5 passwords of one account in a burst of 40 from one address', async () => {
    await addMember(admin, 'burst1');
    await burstOnOneAccount([server.url], '127.0.0.3', 'burst1');
    // Another address is not locked by that burst.
    expect((await loginFrom(server.url, '127.0.0.1', { UserName: 'burst1', Password: PASSWORD })).status).toBe(200);
  });

  it('checks at most 20 passwords in a burst of 200 from one address', async () => {
    await burstFromOneAddress([server.url], '127.0.0.4');
    expect((await loginFrom(server.url, '127.0.0.1', { UserName: 'admin', Password: ADMIN_PASSWORD })).status).toBe(200);
  });

  it('wrong passwords from other addresses do not lock the administrator out of an address that has not failed', async () => {
    for (const from of ['127.0.0.2', '127.0.0.5', '127.0.0.6']) {
      for (let i = 0; i < 5; i++) {
        expect((await loginFrom(server.url, from, { UserName: 'admin', Password: `wrong-${i}` })).status).toBe(401);
      }
      // Locked where it failed, even with the right password...
      expect((await loginFrom(server.url, from, { UserName: 'admin', Password: ADMIN_PASSWORD })).body).toMatchObject({ code: 429, msg: THROTTLED });
    }
    // ...but not from here.
    const mine = await loginFrom(server.url, '127.0.0.1', { UserName: 'admin', Password: ADMIN_PASSWORD });
    expect(mine.status).toBe(200);
    // The locked addresses may still log in to other accounts (under 20 failures each).
    await addMember(admin, 'pair1');
    expect((await loginFrom(server.url, '127.0.0.2', { UserName: 'pair1', Password: PASSWORD })).status).toBe(200);
  });

  it('counts one pair however the name is written, whatever the request carries', async () => {
    await addMember(admin, 'pair2');
    const from = '127.0.0.7';
    const variants = ['pair2', 'PAIR2', ' pair2', 'pair2 ', 'ｐａｉｒ２'];
    for (const [i, UserName] of variants.entries()) {
      const res = await loginFrom(server.url, from, { UserName, Password: `wrong-${i}`, reset: true }, { 'x-forwarded-for': `10.9.${i}.1` });
      expect(res.body).toMatchObject({ code: 401, msg: WRONG });
    }
    for (const UserName of ['pair2', 'Pair2 ']) {
      const res = await loginFrom(server.url, from, { UserName, Password: PASSWORD }, { 'x-forwarded-for': '127.0.0.1' });
      expect(res.body).toMatchObject({ code: 429, msg: THROTTLED });
    }
    expect((await loginFrom(server.url, '127.0.0.1', { UserName: 'pair2', Password: PASSWORD })).status).toBe(200);
  });

  it('a successful login does not count as a failure', async () => {
    await addMember(admin, 'pair3');
    const from = '127.0.0.8';
    for (let i = 0; i < 10; i++) {
      expect((await loginFrom(server.url, from, { UserName: 'pair3', Password: PASSWORD })).status).toBe(200);
    }
    for (let i = 0; i < 4; i++) {
      expect((await loginFrom(server.url, from, { UserName: 'pair3', Password: `wrong-${i}` })).status).toBe(401);
    }
    expect((await loginFrom(server.url, from, { UserName: 'pair3', Password: PASSWORD })).status).toBe(200);
  });

  it('caps one account at 100 failures over all addresses, also in a burst', async () => {
    await addMember(admin, 'ceiling1');
    // 25 addresses × 5 wrong passwords at once: each pair is within its 5, the account is not.
    const sources = Array.from({ length: 25 }, (_, i) => `127.0.1.${i + 1}`);
    const answers = await Promise.all(
      sources.flatMap((from) => Array.from({ length: 5 }, (_, i) => loginFrom(server.url, from, { UserName: 'ceiling1', Password: `wrong-${i}` }))),
    );
    const t = tally(answers);
    console.info(`burst of 125 on one account from 25 addresses: ${t.checkedWrong} checked (401), ${t.throttled} × 429`);
    expect(t.other).toBe(0);
    expect(t.checkedWrong).toBe(100);
    expect(t.throttled).toBe(25);
    // Distributed guessing is held to 100 per window: the account is then refused everywhere
    // until the window ends (the price of bounding it), though no single address reached its 5.
    expect((await loginFrom(server.url, '127.0.0.1', { UserName: 'ceiling1', Password: PASSWORD })).body).toMatchObject({ code: 429, msg: THROTTLED });
    // Other accounts, from the same addresses, are not affected.
    expect((await loginFrom(server.url, '127.0.1.1', { UserName: 'admin', Password: ADMIN_PASSWORD })).status).toBe(200);
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!pgUrl)('login limits over two server processes on one PostgreSQL (skipped without TEST_DATABASE_URL)', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let database: { url: string; drop(): Promise<void> };
  let dataDir: string;

  beforeAll(async () => {
    database = await freshPostgres(pgUrl!);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-throttle-'));
    const env = { DATABASE_URL: database.url, DATA_DIR: dataDir, PUBLIC_DIR: path.join(dataDir, 'no-public'), ADMIN_PASSWORD, DATABASE_POOL_SIZE: '5' };
    // One after the other: starting together is scaleout.test.ts's concern.
    a = await startServerProcess(env, 200_000);
    b = await startServerProcess(env, 200_000);
    const admin = new Client(a.url);
    await admin.login('admin', ADMIN_PASSWORD);
    await addMember(admin, 'procburst1');
  }, 420_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('checks at most 5 passwords of one account in a burst of 40 spread over both', async () => {
    await burstOnOneAccount([a.url, b.url], '127.0.0.3', 'procburst1');
    expect((await loginFrom(b.url, '127.0.0.1', { UserName: 'procburst1', Password: PASSWORD })).status).toBe(200);
  });

  it('checks at most 20 passwords in a burst of 200 from one address spread over both', async () => {
    await burstFromOneAddress([a.url, b.url], '127.0.0.4');
    expect((await loginFrom(a.url, '127.0.0.1', { UserName: 'admin', Password: ADMIN_PASSWORD })).status).toBe(200);
  });

  it('failures from other addresses, on either process, do not lock the administrator out', async () => {
    for (const from of ['127.0.0.2', '127.0.0.5']) {
      for (let i = 0; i < 5; i++) {
        expect((await loginFrom(i % 2 ? a.url : b.url, from, { UserName: 'admin', Password: `wrong-${i}` })).status).toBe(401);
      }
      expect((await loginFrom(a.url, from, { UserName: 'admin', Password: ADMIN_PASSWORD })).status).toBe(429);
    }
    for (const server of [a, b]) {
      expect((await loginFrom(server.url, '127.0.0.1', { UserName: 'admin', Password: ADMIN_PASSWORD })).status).toBe(200);
    }
  });
});
