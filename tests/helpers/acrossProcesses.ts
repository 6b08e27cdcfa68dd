// Scenarios of several server processes on one database and one store of files, as behind a load
// balancer that sends each request to any of them: whatever is written through one process is what
// every other one answers next. Shared by tests/api/scaleout.test.ts (two processes, PostgreSQL,
// S3 or a shared disk) and tests/api/workers.test.ts (three processes on SQLite or PostgreSQL, and
// a cluster of workers). Each takes the base URLs of the processes (two or more) and checks with
// vitest's expect.
import http from 'node:http';
import { expect } from 'vitest';
import type { SignedUpload } from '../../schemas/types';
import { mp4Bytes } from './bytes';
import { ADMIN_PASSWORD, Client } from './server';

/** A client of the process at `url` carrying the session cookie obtained through another one. */
export function sameSession(from: Client, url: string): Client {
  const c = new Client(url);
  c.cookie = from.cookie;
  return c;
}

/** The built-in administrator logged in through the first process, with the same session on every process. */
export async function adminOnEach(urls: string[]): Promise<Client[]> {
  const first = new Client(urls[0]!);
  await first.login('admin', ADMIN_PASSWORD);
  return urls.map((url, i) => (i === 0 ? first : sameSession(first, url)));
}

/** A stored file's URL made absolute on `url` (the local driver answers `/files/…` paths). */
const absolute = (url: string, fileUrl: string) => (fileUrl.startsWith('/') ? url + fileUrl : fileUrl);

type VideoType = { Id: number; VdtName: string };

/**
 * Lists are answered from each process's read cache while the database is unchanged: a row added,
 * changed and deleted through one process shows at once in the lists and totals of every other,
 * whose caches were warm. The session made through the first process works on all of them.
 */
export async function writesSeenEverywhere(admins: Client[], tag: string): Promise<void> {
  const list = (c: Client) => c.get<VideoType[]>('/Ajax/GetVideoTypeListInAdmin', { pageIndex: 1, pageSize: 50 });
  const names = async (c: Client) => (await list(c)).body.data.map((t) => t.VdtName);
  const totals = async () => Promise.all(admins.map(async (c) => (await list(c)).body.total));
  // Twice on each: the second answer comes from the cache.
  const before = await totals();
  expect(await totals()).toEqual(before);

  const writer = admins.at(-1)!;
  const added = await writer.call<VideoType>('/Ajax/AddVideoType', { VdtName: `${tag}添加`, VdtSort: 1 });
  expect(added.status, added.body.msg).toBe(200);
  expect(await totals()).toEqual(before.map((n) => (n ?? 0) + 1));
  for (const c of admins) expect(await names(c), c.baseUrl).toContain(`${tag}添加`);

  const updated = await admins[0]!.call('/Ajax/UpdateVideoType', { Id: added.body.data.Id, VdtName: `${tag}修改`, VdtSort: 2 });
  expect(updated.status, updated.body.msg).toBe(200);
  for (const c of admins) expect(await names(c), c.baseUrl).toContain(`${tag}修改`);

  const removed = await admins[1]!.call('/Ajax/DelVideoType', { Id: added.body.data.Id });
  expect(removed.status, removed.body.msg).toBe(200);
  expect(await totals()).toEqual(before);
  for (const c of admins) expect(await names(c), c.baseUrl).not.toContain(`${tag}修改`);
}

/** A session logged out through one process is refused by every process at once. */
export async function logoutEndsEverywhere(urls: string[]): Promise<void> {
  const first = new Client(urls[0]!);
  await first.login('admin', ADMIN_PASSWORD);
  for (const url of urls) expect((await sameSession(first, url).call('/Ajax/GetCurrentMember')).status, url).toBe(200);
  expect((await sameSession(first, urls.at(-1)!).call('/Ajax/Logout')).status).toBe(200);
  for (const url of urls) expect((await sameSession(first, url).call('/Ajax/GetCurrentMember')).status, url).toBe(401);
}

/**
 * A permission granted through one process applies to the next call on every other, and so does
 * its removal (the member's session stays, its rights go).
 */
export async function permissionChangesEverywhere(admins: Client[], urls: string[], userName: string): Promise<void> {
  const member = await admins[0]!.call<{ Id: number }>('/Ajax/AddMember', {
    UserName: userName,
    AuName: '跨进程成员',
    OrganizationName: '测试部',
    Password: 'across-pass-1',
    IsAdmin: 0,
    Modules: { videoType: '2' },
  });
  expect(member.status, member.body.msg).toBe(200);
  const staff = new Client(urls.at(-1)!);
  await staff.login(userName, 'across-pass-1');
  const on = urls.map((url) => sameSession(staff, url));
  for (const c of on) {
    expect((await c.call('/Ajax/GetVideoTypeListInAdmin', { All: 1 })).status, c.baseUrl).toBe(200);
    expect((await c.call('/Ajax/AddVideoType', { VdtName: '无权', VdtSort: 1 })).status, c.baseUrl).toBe(403);
  }

  expect((await admins[0]!.call('/Ajax/UpdateMember', { Id: member.body.data.Id, Modules: { videoType: '1,2' } })).status).toBe(200);
  for (const [i, c] of on.entries()) {
    const added = await c.call('/Ajax/AddVideoType', { VdtName: `已授权${i}`, VdtSort: 1 });
    expect(added.status, `${c.baseUrl}: ${added.body.msg}`).toBe(200);
  }

  expect((await admins.at(-1)!.call('/Ajax/UpdateMember', { Id: member.body.data.Id, Modules: {} })).status).toBe(200);
  for (const c of on) {
    expect((await c.call('/Ajax/GetVideoTypeListInAdmin', { All: 1 })).status, c.baseUrl).toBe(403);
    expect((await c.call('/Ajax/AddVideoType', { VdtName: '已收回', VdtSort: 1 })).status, c.baseUrl).toBe(403);
  }
}

/**
 * Failed logins spread over every process count once (TRUST_PROXY=loopback: the balancer's
 * X-Forwarded-For names the client): 5 lock the account on all of them, even for the right
 * password, and 20 from one address lock that address only.
 */
export async function loginLimitsShared(urls: string[], admin: Client, userName: string): Promise<void> {
  const added = await admin.call('/Ajax/AddMember', { UserName: userName, AuName: '限流', OrganizationName: '', Password: 'right-pass-1', IsAdmin: 0, Modules: {} });
  expect(added.status, added.body.msg).toBe(200);
  const at = (i: number) => urls[i % urls.length]!;
  const from = { 'x-forwarded-for': '203.0.113.7' };
  for (let i = 0; i < 5; i++) {
    const res = await new Client(at(i)).call('/Ajax/Login', { UserName: userName, Password: 'wrong' }, { headers: from });
    expect(res.status).toBe(401);
  }
  for (const url of urls) {
    const res = await new Client(url).call('/Ajax/Login', { UserName: userName, Password: 'right-pass-1' }, { headers: from });
    expect(res.status, url).toBe(429);
    expect(res.body.msg).toBe('登录失败次数过多，请15分钟后再试');
  }
  // Another client behind the same balancer still logs in while one address is locked.
  for (let i = 0; i < 20; i++) {
    await new Client(at(i)).call('/Ajax/Login', { UserName: `nobody${i}`, Password: 'x' }, { headers: { 'x-forwarded-for': '198.51.100.9' } });
  }
  for (const url of urls) {
    const locked = await new Client(url).call('/Ajax/Login', { UserName: 'admin', Password: ADMIN_PASSWORD }, { headers: { 'x-forwarded-for': '198.51.100.9' } });
    expect(locked.status, url).toBe(429);
  }
  const other = await new Client(urls.at(-1)!).call('/Ajax/Login', { UserName: 'admin', Password: ADMIN_PASSWORD }, { headers: { 'x-forwarded-for': '198.51.100.10' } });
  expect(other.status).toBe(200);
}

/**
 * Uploads go through any process: a whole file signed by one and sent to the next; a file in parts
 * created on the first, each part signed by one process and sent to another, completed on the last
 * and used on the first; every process then serves the joined bytes.
 */
export async function uploadsAcross(admins: Client[], urls: string[], partSize: number): Promise<void> {
  const n = urls.length;
  const vdt = (await admins[0]!.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName: '上传', VdtSort: 1 })).body.data.VdtCode;

  const bytes = mp4Bytes(3000);
  const signed = await admins[0]!.call<SignedUpload & { FileUrl: string }>('/Ajax/SignUpload', {
    FileName: 'one.mp4',
    Size: bytes.length,
    Kind: 'video',
    ContentType: 'video/mp4',
  });
  expect(signed.status, signed.body.msg).toBe(200);
  const put = await fetch(absolute(urls[1]!, signed.body.data.Url), { method: signed.body.data.Method, headers: signed.body.data.Headers, body: new Uint8Array(bytes) });
  expect(put.status, await put.clone().text()).toBe(200);
  const record = await admins[1]!.call('/Ajax/AddVideo', { VdtCode: vdt, VdName: '单次上传', VdUrl: signed.body.data.FileUrl });
  expect(record.status, record.body.msg).toBe(200);
  const read = await fetch(absolute(urls.at(-1)!, signed.body.data.FileUrl), { headers: { cookie: admins[0]!.cookie } });
  expect(Buffer.from(await read.arrayBuffer()).equals(bytes)).toBe(true);

  // One more part than processes, so that each signs one and receives another.
  const count = n + 1;
  const file = mp4Bytes(partSize * (count - 1) + 500);
  const created = await admins[0]!.call<{ UploadId: string; Key: string; PartSize: number }>('/Ajax/CreateMultipartUpload', {
    FileName: 'parts.mp4',
    Size: file.length,
    Kind: 'video',
    ContentType: 'video/mp4',
  });
  expect(created.status, created.body.msg).toBe(200);
  const up = created.body.data;
  expect(up.PartSize).toBe(partSize);
  const parts: { PartNumber: number; ETag: string }[] = [];
  for (let p = 1; p <= count; p++) {
    const signer = admins[p % n]!;
    const receiver = urls[(p + 1) % n]!;
    const part = await signer.call<{ Url: string; Headers: Record<string, string> }>('/Ajax/SignUploadPart', { Key: up.Key, UploadId: up.UploadId, PartNumber: p });
    expect(part.status, part.body.msg).toBe(200);
    const res = await fetch(absolute(receiver, part.body.data.Url), {
      method: 'PUT',
      headers: part.body.data.Headers,
      body: new Uint8Array(file.subarray((p - 1) * partSize, p * partSize)),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    parts.push({ PartNumber: p, ETag: res.headers.get('etag')! });
  }
  const done = await admins.at(-1)!.call<{ FileUrl: string }>('/Ajax/CompleteMultipartUpload', { Key: up.Key, UploadId: up.UploadId, Parts: parts });
  expect(done.status, done.body.msg).toBe(200);
  // Finished for every process: none signs another part of it.
  for (const c of admins) {
    const again = await c.call('/Ajax/SignUploadPart', { Key: up.Key, UploadId: up.UploadId, PartNumber: 1 });
    expect(again.status, c.baseUrl).toBe(404);
  }
  const used = await admins[0]!.call('/Ajax/AddVideo', { VdtCode: vdt, VdName: '分片上传', VdUrl: done.body.data.FileUrl });
  expect(used.status, used.body.msg).toBe(200);
  for (const url of urls) {
    const got = await fetch(absolute(url, done.body.data.FileUrl), { headers: { cookie: admins[0]!.cookie } });
    expect(Buffer.from(await got.arrayBuffer()).equals(file), url).toBe(true);
  }
}

/**
 * `perCall` likes and as many plays of one video sent at once, spread over every client: each
 * answered with a different count (exactly 1…perCall) and the stored counts equal the acknowledged
 * increments, read through every client; so do the video's daily figures (one row per business
 * day, GetVideoDailyListInAdmin), written in the same transactions. Returns the x-worker headers
 * seen (a cluster's workers).
 */
export async function countersExact(admins: Client[], perCall: number): Promise<string[]> {
  const vdt = (await admins[0]!.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName: '计数', VdtSort: 1 })).body.data.VdtCode;
  const video = await admins[0]!.call<{ Id: number; VdCode: string }>('/Ajax/AddVideo', { VdtCode: vdt, VdName: '热门', VdUrl: 'https://media.example.com/hot.mp4' });
  expect(video.status, video.body.msg).toBe(200);
  const { Id, VdCode } = video.body.data;
  const calls: Promise<{ call: string; status: number; value: number; worker: string | null }>[] = [];
  for (let i = 0; i < perCall; i++) {
    for (const call of ['UpdateVideoFabulousAdd', 'UpdateVideoNumAdd']) {
      const client = admins[(i + call.length) % admins.length]!;
      calls.push(client.call<number>(`/Ajax/${call}`, { Id }).then((r) => ({ call, status: r.status, value: r.body.data, worker: r.headers.get('x-worker') })));
    }
  }
  const answers = await Promise.all(calls);
  for (const [call, field] of [
    ['UpdateVideoFabulousAdd', 'VdFabulous'],
    ['UpdateVideoNumAdd', 'VdNum'],
  ] as const) {
    const acknowledged = answers.filter((r) => r.call === call && r.status === 200);
    expect(acknowledged.length, call).toBe(perCall);
    // Every answer saw its own increment: the values are exactly 1..N, each once.
    expect(acknowledged.map((r) => r.value).sort((x, y) => x - y)).toEqual(Array.from({ length: perCall }, (_, i) => i + 1));
    for (const c of admins) {
      const one = await c.get<Record<string, number>>('/Ajax/GetSingleVideoInAdmin', { Id });
      expect(one.body.data[field], `${field} on ${c.baseUrl}`).toBe(perCall);
    }
  }
  for (const c of admins) {
    const daily = await c.call<{ VdCode: string; Day: string; VdNum: number; VdFabulous: number }[]>('/Ajax/GetVideoDailyListInAdmin', { VdCode, All: 1 });
    expect(daily.status, daily.body.msg).toBe(200);
    const rows = daily.body.data;
    // Usually one row; two when the business day turned during the calls.
    expect(rows.length, `daily rows on ${c.baseUrl}`).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.Day)).size, `one row per day on ${c.baseUrl}`).toBe(rows.length);
    expect(daily.body.total).toBe(rows.length);
    const total = (field: 'VdNum' | 'VdFabulous') => rows.reduce((n, r) => n + r[field], 0);
    expect({ VdNum: total('VdNum'), VdFabulous: total('VdFabulous') }, `daily sums on ${c.baseUrl}`).toEqual({ VdNum: perCall, VdFabulous: perCall });
  }
  return answers.map((r) => r.worker).filter((w): w is string => w !== null);
}

/** GET `path` on a connection of its own (no keep-alive), so that a cluster may hand it to any worker. */
export function getOnNewConnection(url: string, path: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url + path, { agent: false, headers: { connection: 'close' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
  });
}

/**
 * Bursts of writes that read before they write (upload signings checking the quota, record updates
 * and deletions reading the row first) sent to every process at once: each waits for the database's
 * write lock instead of failing with 503 数据库繁忙.
 */
export async function concurrentWritesWait(admins: Client[], rounds: number, burst: number): Promise<void> {
  const statuses = new Map<string, number[]>();
  const note = (what: string, status: number) => statuses.set(what, [...(statuses.get(what) ?? []), status]);
  for (let round = 0; round < rounds; round++) {
    const types = await Promise.all(
      Array.from({ length: burst }, (_, i) => admins[0]!.call<{ Id: number }>('/Ajax/AddVideoType', { VdtName: `并发${round}-${i}`, VdtSort: 2 })),
    );
    await Promise.all(
      Array.from({ length: burst }, async (_, i) => {
        const client = admins[i % admins.length]!;
        const signed = await client.call('/Ajax/SignUpload', { FileName: `b${round}-${i}.mp4`, Size: 1024, Kind: 'video', ContentType: 'video/mp4' });
        note('SignUpload', signed.status);
        const Id = types[i]!.body.data.Id;
        note('UpdateVideoType', (await client.call('/Ajax/UpdateVideoType', { Id, VdtName: `改${round}-${i}`, VdtSort: 3 })).status);
        note('DelVideoType', (await admins[(i + 1) % admins.length]!.call('/Ajax/DelVideoType', { Id })).status);
      }),
    );
  }
  for (const [what, list] of statuses) expect(list.filter((s) => s !== 200), what).toEqual([]);
}
