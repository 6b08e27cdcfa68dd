// `npm run reindex` (server/src/fullText/reindexCli.ts) run as people run it: `npm run reindex` in a
// process group of its own, stopped by SIGINT to the group as Ctrl-C sends it, part way through
// articles whose PDFs (tests/fixtures/documents/makePdf.ts) were never indexed. What was indexed
// stays, the rest stays queued; run again, it resumes and finishes with every page indexed once,
// and its progress lines count up to what it had to do. On the pass's database (SQLite, or
// PostgreSQL with TEST_DATABASE_URL); the server beside it has stopped its own indexer.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedUpload } from '../../schemas/types';
import { makePdf } from '../fixtures/documents/makePdf';
import type { AnyDb } from '../../server/src/fullText/store';
import { startServer, until, type Client, type TestServer } from '../helpers/server';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ARTICLES = 40;
const PAGES = 6;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run reindex` in a process group of its own; `interrupt` resolves when the caller wants Ctrl-C sent. */
function reindex(server: TestServer, interrupt?: (stdout: () => string) => Promise<void>): Promise<Run> {
  const env = {
    ...process.env,
    DATA_DIR: server.config.dataDir,
    DATABASE_URL: server.config.databaseUrl ?? '',
    STORAGE: 'local',
    LOG: '0',
    REINDEX_THREADS: '1',
  };
  const child = spawn('npm', ['run', '--silent', 'reindex'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<Run>((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  if (interrupt) {
    void interrupt(() => stdout).then(() => {
      // Ctrl-C: the terminal signals every process of the foreground group (npm, the shell, tsx, node).
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGINT');
    });
  }
  const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 240_000);
  return exited.finally(() => clearTimeout(timer));
}

/** The progress lines (`done/total 条记录 …`) of a run: done, total, and the seconds said to be left, if said. */
function progress(stdout: string): (readonly [number, number, number | undefined])[] {
  return [...stdout.matchAll(/^(\d+)\/(\d+) 条记录.*?(?:剩余约 (\d+) 秒)?\s*$/gm)].map((m) => [Number(m[1]), Number(m[2]), m[3] === undefined ? undefined : Number(m[3])] as const);
}

/** Sane lines: done never past the total nor going back, and no end in sight said before one is known or before the end. */
function expectSane(lines: ReturnType<typeof progress>, total: number) {
  expect(lines.length).toBeGreaterThan(0);
  for (const [done, all, left] of lines) {
    expect(all).toBe(total);
    expect(done).toBeLessThanOrEqual(all);
    if (done === 0) expect(left, 'a time left guessed from nothing done').toBeUndefined();
    if (done < all && left !== undefined) expect(left, 'no time left while records are').toBeGreaterThan(0);
  }
  const done = lines.map(([d]) => d);
  expect(done).toEqual([...done].sort((a, b) => a - b));
}

async function upload(server: TestServer, admin: Client, FileName: string, bytes: Uint8Array<ArrayBuffer>) {
  const signed = await admin.call<SignedUpload>('/Ajax/SignUpload', { FileName, Size: bytes.length, Kind: 'handout', ContentType: 'application/pdf' });
  expect(signed.status, signed.body.msg).toBe(200);
  const put = await fetch(server.url + signed.body.data.Url, { method: 'PUT', headers: signed.body.data.Headers, body: bytes });
  expect(put.status).toBe(200);
  return { name: FileName, url: signed.body.data.FileUrl };
}

let server: TestServer;
let db: AnyDb;
const ids: number[] = [];

beforeAll(async () => {
  server = await startServer();
  db = server.app.database.db as unknown as AnyDb;
  // The server's own indexer stops: the articles below wait in the queue, never indexed.
  await server.app.fullText?.stop();
  const admin = await server.admin();
  const classify = await admin.call<{ ScCode: string }>('/Xcx1/CreateStandardClassifyInAdmin', { ScName: '重建', type: 0, ScSort: 0, IsShow: 1, ScIsFirst: 0 });
  for (let n = 1; n <= ARTICLES; n++) {
    const pages = Array.from({ length: PAGES }, (_, p) => `第${n}篇第${p + 1}页 建设工程造价由分部分项工程费、措施项目费、其他项目费组成。`.repeat(8));
    const file = await upload(server, admin, `文件${n}.pdf`, new Uint8Array(makePdf(pages)));
    const res = await admin.call<{ Id: number }>('/Xcx1/AddStandardArticleInAdmin', { ScCode: classify.body.data.ScCode, SaName: `文章${n}`, SaType: 0, SaPdfUrl: JSON.stringify([file]) });
    expect(res.status, res.body.msg).toBe(200);
    ids.push(res.body.data.Id);
  }
}, 240_000);

afterAll(async () => {
  await server?.close();
});

const count = async (query: ReturnType<typeof sql>) => Number(((await query.execute(db)).rows[0] as { n: number | string }).n);
const jobs = () => db.selectFrom('FT_JOB').select(['RECORD_ID', 'STATE', 'LEASE_UNTIL']).where('TBL', '=', 'DOC_ARTICLE').execute() as Promise<{ RECORD_ID: number; STATE: string; LEASE_UNTIL: string | null }[]>;
/** Pages of each record, by record Id. */
async function pagesByRecord(): Promise<Map<number, number>> {
  const { rows } = await sql<{ RECORD_ID: number; n: number | string }>`select "RECORD_ID", count(*) as n from "FT_PAGE" where "TBL" = 'DOC_ARTICLE' group by "RECORD_ID"`.execute(db);
  return new Map(rows.map((r) => [Number(r.RECORD_ID), Number(r.n)]));
}

describe('npm run reindex, stopped by Ctrl-C and run again', () => {
  it('keeps what it indexed, leaves the rest queued, and resumes to every page indexed once', async () => {
    expect(await pagesByRecord()).toEqual(new Map());

    // Stopped once the first records are written.
    const first = await reindex(server, async (stdout) => {
      await until(() => stdout().includes('已将全部记录加入队列'), 'the records queued', 120_000);
      await until(async () => (await jobs()).length < ARTICLES, 'a record indexed', 120_000);
    });
    expect(first.stdout).toContain('正在停止');
    const stopped = /已停止：(\d+) 条待索引/.exec(first.stdout);
    expect(stopped, `${first.stdout}\n${first.stderr}`).not.toBeNull();
    expect(first.code).not.toBe(0);

    const left = await jobs();
    const indexed = await pagesByRecord();
    expect(Number(stopped![1])).toBe(left.length);
    expect(left.length, 'stopped part way').toBeGreaterThan(0);
    expect(indexed.size, 'stopped part way').toBeGreaterThan(0);
    // Every record either indexed (all its pages, its job gone) or waiting, claimable at once.
    for (const id of ids) {
      const job = left.find((j) => Number(j.RECORD_ID) === id);
      if (job) {
        expect(job.STATE, `article ${id}`).toBe('waiting');
        expect(indexed.has(id), `article ${id}`).toBe(false);
      } else {
        expect(indexed.get(id), `article ${id}`).toBe(PAGES);
      }
    }
    const firstLines = progress(first.stdout);
    expectSane(firstLines, ARTICLES);
    expect(firstLines.at(-1)![0]).toBe(ARTICLES - left.length);

    // Run again: it resumes with what is left, not everything.
    const second = await reindex(server);
    expect(second.code, `${second.stdout}\n${second.stderr}`).toBe(0);
    expect(second.stdout).toContain('继续');
    expect(second.stdout).not.toContain('已将全部记录加入队列');
    expect(second.stdout).toMatch(new RegExp(`完成：${left.length} 条记录`));
    const secondLines = progress(second.stdout);
    expectSane(secondLines, left.length);
    expect(secondLines.at(-1)!.slice(0, 2)).toEqual([left.length, left.length]);

    // Every article indexed once: its pages, each once, and one source read.
    expect(await jobs()).toEqual([]);
    expect(await pagesByRecord()).toEqual(new Map(ids.map((id) => [id, PAGES])));
    expect(
      await count(sql`select count(*) as n from (select 1 from "FT_PAGE" where "TBL" = 'DOC_ARTICLE' group by "RECORD_ID", "SOURCE", "FILE_URL", "PAGE" having count(*) > 1) d`),
    ).toBe(0);
    expect(await count(sql`select count(*) as n from "FT_SOURCE" where "TBL" = 'DOC_ARTICLE' and "STATE" = 'indexed'`)).toBe(ARTICLES);
    if (server.dialect === 'sqlite') {
      // The FTS5 table holds one row per page too.
      expect(await count(sql`select count(*) as n from "DOC_ARTICLE_FTS"`)).toBe(ARTICLES * PAGES);
    }
    // Finished: the next run starts afresh.
    expect(await db.selectFrom('SETTING').select('VALUE').where('NAME', '=', 'full_text_reindex').executeTakeFirst()).toBeUndefined();
  });
});
