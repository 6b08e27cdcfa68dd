// Scale-out: two real server processes on one PostgreSQL database and one store of files behave
// as one system, as they would behind a load balancer that sends each request to either of them.
// A session made on one works on the other, logging out or a permission change on one applies on
// the other's next call, an upload signed by one is finished and used through the other, and
// counters and kept list totals stay exact under concurrent calls spread over both.
//
// Needs PostgreSQL (several processes on one SQLite file is not the deployment this is about):
// runs when TEST_DATABASE_URL is set, as scripts/test.sh does for its PostgreSQL pass.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedUpload } from '../../schemas/types';
import { mp4Bytes } from '../helpers/bytes';
import { storageEnv, type LocalS3 } from '../helpers/s3rver';
import { ADMIN_PASSWORD, Client, freshPostgres } from '../helpers/server';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess';

const pgUrl = process.env.TEST_DATABASE_URL;
const PART = 64 * 1024;

/** A client of process `to` carrying the session cookie obtained through another one. */
function sameSession(from: Client, to: ServerProcess): Client {
  const c = new Client(to.url);
  c.cookie = from.cookie;
  return c;
}

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
    const absolute = (server: ServerProcess, url: string) => (url.startsWith('/') ? server.url + url : url);

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
      adminA = new Client(a.url);
      await adminA.login('admin', ADMIN_PASSWORD);
      adminB = sameSession(adminA, b);
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

    it('accepts a session made on one process on the other: list, add, update, delete', async () => {
      const added = await adminB.call<{ Id: number; VdtCode: string }>('/Ajax/AddVideoType', { VdtName: '跨进程', VdtSort: 1 });
      expect(added.status, added.body.msg).toBe(200);
      const listA = await adminA.call<{ VdtName: string }[]>('/Ajax/GetVideoTypeListInAdmin', { All: 1 });
      expect(listA.body.data.map((t) => t.VdtName)).toContain('跨进程');
      const updated = await adminA.call('/Ajax/UpdateVideoType', { Id: added.body.data.Id, VdtName: '跨进程（改）', VdtSort: 2 });
      expect(updated.status, updated.body.msg).toBe(200);
      const one = await adminB.call<{ VdtName: string }[]>('/Ajax/GetVideoTypeListInAdmin', { All: 1 });
      expect(one.body.data.map((t) => t.VdtName)).toContain('跨进程（改）');
      expect((await adminB.call('/Ajax/DelVideoType', { Id: added.body.data.Id })).status).toBe(200);
      const after = await adminA.call<{ VdtName: string }[]>('/Ajax/GetVideoTypeListInAdmin', { All: 1 });
      expect(after.body.data.map((t) => t.VdtName)).not.toContain('跨进程（改）');
    });

    it('ends a session on both when it logs out on one', async () => {
      const onA = new Client(a.url);
      await onA.login('admin', ADMIN_PASSWORD);
      const onB = sameSession(onA, b);
      expect((await onA.call('/Ajax/GetCurrentMember')).status).toBe(200);
      expect((await onB.call('/Ajax/Logout')).status).toBe(200);
      expect((await onA.call('/Ajax/GetCurrentMember')).status).toBe(401);
      expect((await sameSession(onA, b).call('/Ajax/GetCurrentMember')).status).toBe(401);
    });

    it('applies a permission change made through one process to the next call on the other', async () => {
      const member = await adminA.call<{ Id: number }>('/Ajax/AddMember', {
        UserName: `scale_${driver}`,
        AuName: '扩容',
        OrganizationName: '测试部',
        Password: 'scale-pass-1',
        IsAdmin: 0,
        Modules: { videoType: '2' },
      });
      expect(member.status, member.body.msg).toBe(200);
      const onB = new Client(b.url);
      await onB.login(`scale_${driver}`, 'scale-pass-1');
      expect((await onB.call('/Ajax/GetVideoTypeListInAdmin', { All: 1 })).status).toBe(200);
      expect((await onB.call('/Ajax/AddVideoType', { VdtName: '无权', VdtSort: 1 })).status).toBe(403);

      expect((await adminA.call('/Ajax/UpdateMember', { Id: member.body.data.Id, Modules: { videoType: '1,2' } })).status).toBe(200);
      const added = await onB.call('/Ajax/AddVideoType', { VdtName: '已授权', VdtSort: 1 });
      expect(added.status, added.body.msg).toBe(200);

      expect((await adminB.call('/Ajax/UpdateMember', { Id: member.body.data.Id, Modules: {} })).status).toBe(200);
      expect((await sameSession(onB, a).call('/Ajax/GetVideoTypeListInAdmin', { All: 1 })).status).toBe(403);
    });

    // Storage plays no part here, and each failed login costs a password hash: once is enough.
    it.runIf(driver === 's3')('counts failed logins of an account and of an address over both processes', async () => {
      const user = `throttle_${driver}`;
      await adminA.call('/Ajax/AddMember', { UserName: user, AuName: '限流', OrganizationName: '', Password: 'right-pass-1', IsAdmin: 0, Modules: {} });
      // The balancer's X-Forwarded-For names the client (TRUST_PROXY=loopback): 5 failures split
      // over both processes lock the account on both, even for the right password.
      const from = { 'x-forwarded-for': '203.0.113.7' };
      for (let i = 0; i < 5; i++) {
        const res = await new Client(i % 2 ? a.url : b.url).call('/Ajax/Login', { UserName: user, Password: 'wrong' }, { headers: from });
        expect(res.status).toBe(401);
      }
      for (const server of [a, b]) {
        const res = await new Client(server.url).call('/Ajax/Login', { UserName: user, Password: 'right-pass-1' }, { headers: from });
        expect(res.status).toBe(429);
        expect(res.body.msg).toBe('登录失败次数过多，请15分钟后再试');
      }
      // 20 failures from one address lock that address only: another client behind the same
      // balancer still logs in.
      for (let i = 0; i < 20; i++) {
        await new Client(i % 2 ? a.url : b.url).call('/Ajax/Login', { UserName: `nobody${i}`, Password: 'x' }, { headers: { 'x-forwarded-for': '198.51.100.9' } });
      }
      const locked = await new Client(a.url).call('/Ajax/Login', { UserName: 'admin', Password: ADMIN_PASSWORD }, { headers: { 'x-forwarded-for': '198.51.100.9' } });
      expect(locked.status).toBe(429);
      const other = await new Client(b.url).call('/Ajax/Login', { UserName: 'admin', Password: ADMIN_PASSWORD }, { headers: { 'x-forwarded-for': '198.51.100.10' } });
      expect(other.status).toBe(200);
    });

    it('finishes and uses through one process an upload signed through the other', async () => {
      const vdt = (await adminA.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName: '上传', VdtSort: 1 })).body.data.VdtCode;

      // A whole file with one signed PUT: signed by A; on the local driver received by B.
      const bytes = mp4Bytes(3000);
      const signed = await adminA.call<SignedUpload & { FileUrl: string }>('/Ajax/SignUpload', {
        FileName: 'one.mp4',
        Size: bytes.length,
        Kind: 'video',
        ContentType: 'video/mp4',
      });
      expect(signed.status, signed.body.msg).toBe(200);
      const put = await fetch(absolute(b, signed.body.data.Url), {
        method: signed.body.data.Method,
        headers: signed.body.data.Headers,
        body: new Uint8Array(bytes),
      });
      expect(put.status, await put.clone().text()).toBe(200);
      const record = await adminB.call('/Ajax/AddVideo', { VdtCode: vdt, VdName: '单次上传', VdUrl: signed.body.data.FileUrl });
      expect(record.status, record.body.msg).toBe(200);
      // Files are for signed-in members; A's session is good on both processes (one database).
      const read = await fetch(absolute(a, signed.body.data.FileUrl), { headers: { cookie: adminA.cookie } });
      expect(Buffer.from(await read.arrayBuffer()).equals(bytes)).toBe(true);

      // In parts, as the video screen uploads: created on A, parts signed and sent through both,
      // completed on B, and the record made on A.
      const file = mp4Bytes(PART * 2 + 500);
      const created = await adminA.call<{ UploadId: string; Key: string; FileUrl: string; PartSize: number }>('/Ajax/CreateMultipartUpload', {
        FileName: 'parts.mp4',
        Size: file.length,
        Kind: 'video',
        ContentType: 'video/mp4',
      });
      expect(created.status, created.body.msg).toBe(200);
      const up = created.body.data;
      expect(up.PartSize).toBe(PART);
      const parts: { PartNumber: number; ETag: string }[] = [];
      for (const n of [1, 2, 3]) {
        const [signer, receiver] = n % 2 ? [adminA, b] : [adminB, a];
        const part = await signer.call<{ Url: string; Headers: Record<string, string> }>('/Ajax/SignUploadPart', {
          Key: up.Key,
          UploadId: up.UploadId,
          PartNumber: n,
        });
        expect(part.status, part.body.msg).toBe(200);
        const res = await fetch(absolute(receiver, part.body.data.Url), {
          method: 'PUT',
          headers: part.body.data.Headers,
          body: new Uint8Array(file.subarray((n - 1) * PART, n * PART)),
        });
        expect(res.status, await res.clone().text()).toBe(200);
        parts.push({ PartNumber: n, ETag: res.headers.get('etag')! });
      }
      const done = await adminB.call<{ FileUrl: string }>('/Ajax/CompleteMultipartUpload', { Key: up.Key, UploadId: up.UploadId, Parts: parts });
      expect(done.status, done.body.msg).toBe(200);
      expect(await count(`select count(*) as n from "UPLOAD" where "UPLOAD_ID" = $1`, [up.UploadId])).toBe(0);
      const used = await adminA.call('/Ajax/AddVideo', { VdtCode: vdt, VdName: '分片上传', VdUrl: done.body.data.FileUrl });
      expect(used.status, used.body.msg).toBe(200);
      for (const server of [a, b]) {
        const got = await fetch(absolute(server, done.body.data.FileUrl), { headers: { cookie: adminA.cookie } });
        expect(Buffer.from(await got.arrayBuffer()).equals(file)).toBe(true);
      }
    });

    it('loses no like or play counted concurrently on both processes, and answers each count once', async () => {
      const vdt = (await adminA.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName: '计数', VdtSort: 1 })).body.data.VdtCode;
      const video = await adminA.call<{ Id: number }>('/Ajax/AddVideo', { VdtCode: vdt, VdName: '热门', VdUrl: 'https://media.example.com/hot.mp4' });
      const Id = video.body.data.Id;
      const N = 150;
      const calls: Promise<{ call: string; status: number; value: number }>[] = [];
      for (let i = 0; i < N; i++) {
        for (const call of ['UpdateVideoFabulousAdd', 'UpdateVideoNumAdd']) {
          const client = (i + call.length) % 2 ? adminA : adminB;
          calls.push(client.call<number>(`/Ajax/${call}`, { Id }).then((r) => ({ call, status: r.status, value: r.body.data })));
        }
      }
      const answers = await Promise.all(calls);
      for (const [call, field] of [
        ['UpdateVideoFabulousAdd', 'VdFabulous'],
        ['UpdateVideoNumAdd', 'VdNum'],
      ] as const) {
        const mine = answers.filter((r) => r.call === call);
        const acknowledged = mine.filter((r) => r.status === 200);
        expect(acknowledged.length, call).toBe(N);
        // Every answer saw its own increment: the values are exactly 1..N, each once.
        expect(acknowledged.map((r) => r.value).sort((x, y) => x - y)).toEqual(Array.from({ length: N }, (_, i) => i + 1));
        for (const server of [adminA, adminB]) {
          const one = await server.get<Record<string, number>>('/Ajax/GetSingleVideoInAdmin', { Id });
          expect(one.body.data[field], `${field} on ${server.baseUrl}`).toBe(acknowledged.length);
        }
      }
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
