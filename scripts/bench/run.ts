// npm run bench:server (the first half of npm run bench): generates the large data set into
// SQLite (and PostgreSQL when one can be had), starts the server as its own process on loopback,
// and measures each call with autocannon (bounded: a few seconds per figure), beside the same
// statements run in-process on the driver. The first page of the large category and the like
// counter are measured again on a cluster of one worker per core (WORKERS), beside one process,
// with the memory of each worker; the server against its ceiling, a bare Fastify answering the same
// bytes, and the play counter's write rate beside reads (ceiling.ts). Then the 500 MB upload, a
// flood of rich text by one member (richTextFlood.ts: /health and another member's comment
// meanwhile), a bulk delete (bulkDelete.ts), the export (export.ts) and the full-text search (fullText.ts). Prints tables and the
// budgets as met or not, and writes bench-results/latest.json.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { stealSince } from './cpuSteal';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type CompiledQuery } from 'kysely';
import pg from 'pg';
import type { ResourceDescriptor } from '../../schemas/descriptor';
import { articleResource, tykjArticleResource } from '../../schemas/standardArticle';
import { classifyResource } from '../../schemas/standardClassify';
import { usewebResource } from '../../schemas/useweb';
import { videoResource } from '../../schemas/video';
import { videoCommentResource } from '../../schemas/videoComment';
import { videoDailyResource } from '../../schemas/videoDaily';
import { videoTypeResource } from '../../schemas/videoType';
import { dayIn, DEFAULT_TIME_ZONE } from '../../schemas/businessTime';
import type { Db } from '../../server/src/db/database';
import type { Database } from '../../server/src/db/tables';
import { parseOrderName } from '../../server/src/db/orderName';
import { findRow, incrementCounter, listRows } from '../../server/src/db/repository';
import { MAX_ALL_ROWS } from '../../server/src/routes/requestSchemas';
import { DEFAULT_LIST_MAX_BYTES } from '../../schemas/lists';
import { usableCpus } from '../../server/src/cpus';
import { rssMb, startServerProcess, workerPids } from '../../tests/helpers/serverProcess';
import { benchDashboard, dashboardBudgets, printDashboard, type DashboardFigure } from './dashboard';
import { generate, generatePostgres, SIZES } from './generate';
import { benchExport, exportBudgets, printExport, type ExportFigure } from './export';
import { benchFullText, fullTextBudgets, printFullText, type FullTextFigure } from './fullText';
import { benchRichTextFlood, printRichTextFlood, richTextFloodBudgets, type RichTextFloodFigure } from './richTextFlood';
import { benchUpload, printUploadFigures, type UploadFigure } from './upload';
import { benchCeiling, ceilingBudgets, printCeiling, type CeilingResult } from './ceiling';
import { benchBulkDelete, bulkDeleteBudgets, printBulkDelete, type BulkDeleteFigure } from './bulkDelete';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
/** Workers of the cluster run: one per core, as `npm start` (BENCH_WORKERS to choose). */
const CLUSTER_WORKERS = Number(process.env.BENCH_WORKERS ?? usableCpus());
/** The calls measured on one process and on the cluster, side by side. */
const COMPARED = ['videos, first page', 'like counter'];
const PASSWORD = 'bench-password';
/** The video whose plays are counted. */
const COUNTED_VIDEO = 5001;
type Dialect = 'sqlite' | 'postgres';

interface Case {
  name: string;
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
  /** The same data access in-process, through the repository: its statements are replayed on the driver. */
  repo: (db: Db) => Promise<unknown>;
}

interface Figure {
  dialect: Dialect;
  cache: boolean;
  name: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  rssMb: number;
  /** The call's statements run in-process on the driver, per second (same concurrency on PostgreSQL). */
  inProcessPerSec?: number;
}

/** A call on a cluster of `workers` processes (WORKERS), beside the same call on one process. */
interface ClusterFigure {
  dialect: Dialect;
  name: string;
  connections: number;
  workers: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Peak resident memory of each worker, MB. */
  workerRssMb: number[];
  /** Peak resident memory of the primary, MB (it forks and watches; it serves nothing). */
  primaryRssMb: number;
}

const q = (p: Record<string, string | number>) => new URLSearchParams(Object.entries(p).map(([k, v]) => [k, String(v)])).toString();
const d = (r: unknown) => r as ResourceDescriptor;

function list(name: string, descriptor: ResourceDescriptor, params: Record<string, string | number>, equals: Record<string, string | number>, page?: number): Case {
  const all = params.All === 1;
  return {
    name,
    path: `/${descriptor.service}/${descriptor.calls.list}?${q({ ...params, ...(all ? {} : { pageIndex: page ?? 1, pageSize: 15 }) })}`,
    repo: (db) =>
      listRows(db, descriptor, {
        equals,
        contains: {},
        order: parseOrderName(params.OrderName as string | undefined, descriptor),
        page: all ? undefined : { index: page ?? 1, size: 15 },
        limit: MAX_ALL_ROWS,
        // As the server reads a list: the rows' sizes first, then the rows that fit.
        maxBytes: DEFAULT_LIST_MAX_BYTES,
      }),
  };
}

function cases(data: { bigVdtCode: string; busyVdCode: string }): Case[] {
  const video = d(videoResource);
  const comment = d(videoCommentResource);
  const videoOrder = { VdtCode: data.bigVdtCode, OrderName: 'IS_TOP DESC, VD_TIME DESC' };
  // As the server counts: the video's counter and its row of the day (the server's zone is the default).
  const daily = { descriptor: d(videoDailyResource), day: dayIn(DEFAULT_TIME_ZONE) };
  return [
    list('videos, first page', video, videoOrder, { VdtCode: data.bigVdtCode }),
    list('videos, page 2000', video, videoOrder, { VdtCode: data.bigVdtCode }, 2000),
    list('video types', d(videoTypeResource), {}, {}),
    list('comments of a busy video, first page', comment, { VdCode: data.busyVdCode }, { VdCode: data.busyVdCode }),
    list('comments of a busy video, page 2000', comment, { VdCode: data.busyVdCode }, { VdCode: data.busyVdCode }, 2000),
    list('websites, first page', d(usewebResource), {}, {}),
    list('websites, all (2,000)', d(usewebResource), { All: 1 }, {}),
    list('articles of type 0, first page', d(articleResource), { type: 0 }, { type: 0 }),
    list('articles of type 0, page 2000', d(articleResource), { type: 0 }, { type: 0 }, 2000),
    list('统一口径 (Xcx3), first page', d(tykjArticleResource), { type: 0 }, { type: 0 }),
    list('classification tree (5,000)', d(classifyResource), { All: 1, OrderName: 'SC_SORT ASC' }, {}),
    { name: 'video, single', path: `/Ajax/GetSingleVideoInAdmin?${q({ Id: 5000 })}`, repo: (db) => findRow(db, video, 'Id', 5000) },
    {
      name: 'like counter',
      path: '/Ajax/UpdateVideoFabulousAdd',
      method: 'POST',
      body: JSON.stringify({ Id: 5000 }),
      repo: (db) => incrementCounter(db, video, 5000, 'VdFabulous', daily),
    },
    {
      name: 'play counter',
      path: '/Ajax/UpdateVideoNumAdd',
      method: 'POST',
      body: JSON.stringify({ Id: COUNTED_VIDEO }),
      repo: (db) => incrementCounter(db, video, COUNTED_VIDEO, 'VdNum', daily),
    },
  ];
}

/**
 * The statements a repository call runs, recorded through a logging Kysely on the same database, on
 * its second run: the first count of a day also makes the day's row, which later counts do not.
 */
async function statementsOf(target: { sqlite?: SQLite.Database; pool?: pg.Pool }, repo: Case['repo']): Promise<CompiledQuery[]> {
  let seen: CompiledQuery[] = [];
  const log = (event: { query: CompiledQuery }) => void seen.push(event.query);
  const db = target.sqlite
    ? new Kysely<Database>({ dialect: new SqliteDialect({ database: target.sqlite }), log })
    : new Kysely<Database>({ dialect: new PostgresDialect({ pool: target.pool! }), log });
  const database: Db = { db, dialect: target.sqlite ? 'sqlite' : 'postgres', dataVersion: () => Promise.resolve(undefined), close: async () => {} };
  await repo(database);
  seen = [];
  await repo(database);
  return seen;
}

/** Clients of the in-process PostgreSQL figures, and connections of their pool. */
const PG_CLIENTS = 10;

/** Replays the statements in-process for `seconds`: SQLite in a loop, PostgreSQL from PG_CLIENTS clients, each on a connection of the pool. */
async function inProcessRate(target: { sqlite?: SQLite.Database; pool?: pg.Pool }, statements: CompiledQuery[], seconds = 2): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  if (target.sqlite) {
    const prepared = statements.map((s) => ({ statement: target.sqlite!.prepare(s.sql), parameters: s.parameters as unknown[] }));
    while (performance.now() < until) {
      for (const { statement, parameters } of prepared) {
        if (statement.reader) statement.all(...parameters);
        else statement.run(...parameters);
      }
      done++;
    }
  } else {
    // One connection per client: a call's statements may be a transaction (begin … commit), which
    // must run on the connection that began it, as the server's pool runs it.
    await Promise.all(
      Array.from({ length: PG_CLIENTS }, async () => {
        const client = await target.pool!.connect();
        try {
          while (performance.now() < until) {
            for (const s of statements) await client.query(s.sql, s.parameters as unknown[]);
            done++;
          }
        } finally {
          client.release();
        }
      }),
    );
  }
  return done / seconds;
}

async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/Ajax/Login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ UserName: 'admin', Password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
  return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
}

/** Load on `url`; the peak memory of each of `pids` (the server, or a cluster's primary and workers) is sampled. */
async function measure(url: string, pids: number[], cookie: string, c: Case, connections: number, seconds = DURATION_S) {
  const peaks = pids.map(() => 0);
  const sampler = setInterval(() => pids.forEach((pid, i) => (peaks[i] = Math.max(peaks[i]!, rssMb(pid) ?? 0))), 200);
  try {
    const result = await autocannon({
      url: url + c.path,
      method: c.method ?? 'GET',
      body: c.body,
      headers: { cookie, ...(c.body ? { 'content-type': 'application/json' } : {}) },
      connections,
      duration: seconds,
    });
    return {
      rps: Math.round(result.requests.average),
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.non2xx,
      rssMb: peaks.map((p) => Math.round(p)),
    };
  } finally {
    clearInterval(sampler);
  }
}

async function suite(
  dialect: Dialect,
  env: Record<string, string>,
  target: { sqlite?: SQLite.Database; pool?: pg.Pool },
  data: { bigVdtCode: string; busyVdCode: string },
): Promise<{ figures: Figure[]; cluster: ClusterFigure[] }> {
  const figures: Figure[] = [];
  const cluster: ClusterFigure[] = [];
  const all = cases(data);
  const rates = new Map<string, number>();
  for (const c of all) rates.set(c.name, Math.round(await inProcessRate(target, await statementsOf(target, c.repo))));
  for (const cache of [true, false]) {
    // The server as `npm start` runs it: compiled to JavaScript (built once in main()).
    const server = await startServerProcess({ ...env, ADMIN_PASSWORD: PASSWORD, READ_CACHE: cache ? '1' : '0', WORKERS: '1' }, 180_000, { built: true });
    try {
      const cookie = await login(server.url);
      // Without the cache only the budget lines are measured again, at 16: the rest is the same code.
      const measured = cache ? all : all.filter((c) => c.name.startsWith('videos,'));
      // Warm-up: the first calls compile code paths and fill the cache; they are not measured.
      for (const c of measured) await measure(server.url, [server.pid], cookie, c, 16, 1);
      for (const connections of cache ? [16, 64] : [16]) {
        for (const c of measured) {
          const { rssMb: [rss], ...f } = await measure(server.url, [server.pid], cookie, c, connections);
          figures.push({ dialect, cache, name: c.name, connections, ...f, rssMb: rss!, inProcessPerSec: rates.get(c.name) });
          process.stdout.write('.');
        }
      }
    } finally {
      await server.stop();
    }
  }
  if (CLUSTER_WORKERS > 1) cluster.push(...(await clusterSuite(dialect, env, all.filter((c) => COMPARED.includes(c.name)))));
  process.stdout.write('\n');
  return { figures, cluster };
}

/** The compared calls on a cluster of CLUSTER_WORKERS workers (the compiled server of `npm start`, read cache on). */
async function clusterSuite(dialect: Dialect, env: Record<string, string>, compared: Case[]): Promise<ClusterFigure[]> {
  const out: ClusterFigure[] = [];
  const primary = await startServerProcess({ ...env, ADMIN_PASSWORD: PASSWORD, WORKERS: String(CLUSTER_WORKERS) }, 180_000, { built: true });
  try {
    const pids = [primary.pid, ...workerPids(primary.pid)];
    if (pids.length !== CLUSTER_WORKERS + 1) throw new Error(`expected ${CLUSTER_WORKERS} workers, found ${pids.length - 1}`);
    const cookie = await login(primary.url);
    // Warm-up of every worker: the connections are spread over them.
    for (const c of compared) await measure(primary.url, pids, cookie, c, 16, 1);
    for (const connections of [16, 64]) {
      for (const c of compared) {
        const { rssMb: [primaryRss, ...workerRss], ...f } = await measure(primary.url, pids, cookie, c, connections);
        out.push({ dialect, name: c.name, connections, workers: CLUSTER_WORKERS, ...f, workerRssMb: workerRss, primaryRssMb: primaryRss! });
        process.stdout.write('.');
      }
    }
  } finally {
    await primary.stop();
  }
  return out;
}

/** A throwaway PostgreSQL: BENCH_DATABASE_URL, or a cluster made by scripts/pg-cluster.sh; undefined when none. */
function postgresCluster(): { url: string; stop(): void } | undefined {
  if (process.env.BENCH_DATABASE_URL) return { url: process.env.BENCH_DATABASE_URL, stop: () => {} };
  if (process.env.BENCH_POSTGRES === '0') return undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-bench-pg-'));
  try {
    const out = execFileSync('scripts/pg-cluster.sh', ['start', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    return { url: out.trim().split('\n').at(-1)!, stop: () => execFileSync('scripts/pg-cluster.sh', ['stop', dir], { stdio: 'inherit' }) };
  } catch {
    console.log('PostgreSQL could not be started (see above): its figures are left out.');
    return undefined;
  }
}

function printFigures(figures: Figure[]) {
  console.log('\n| database | cache | call | conn | req/s | p50 ms | p99 ms | errors | server RSS MB | in-process /s | HTTP ÷ in-process |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const f of figures) {
    const ratio = f.inProcessPerSec ? (f.rps / f.inProcessPerSec).toFixed(2) : '';
    console.log(`| ${f.dialect} | ${f.cache ? 'on' : 'off'} | ${f.name} | ${f.connections} | ${f.rps} | ${f.p50} | ${f.p99} | ${f.errors} | ${f.rssMb} | ${f.inProcessPerSec ?? ''} | ${ratio} |`);
  }
}

/** One line of the comparison: a call at one concurrency on one process and on the cluster. */
export interface WorkersRow {
  dialect: Dialect;
  name: string;
  connections: number;
  single: { rps: number; p99: number; rssMb: number };
  cluster: { workers: number; rps: number; p99: number; workerRssMb: number[]; primaryRssMb: number };
}

function workersSideBySide(figures: Figure[], clusterFigures: ClusterFigure[]): WorkersRow[] {
  return clusterFigures.flatMap((c) => {
    const one = figures.find((f) => f.dialect === c.dialect && f.cache && f.name === c.name && f.connections === c.connections);
    if (!one) return [];
    return [
      {
        dialect: c.dialect,
        name: c.name,
        connections: c.connections,
        single: { rps: one.rps, p99: one.p99, rssMb: one.rssMb },
        cluster: { workers: c.workers, rps: c.rps, p99: c.p99, workerRssMb: c.workerRssMb, primaryRssMb: c.primaryRssMb },
      },
    ];
  });
}

/** The side-by-side table of one process and one worker per core (all.ts sums it up again from latest.json). */
function printWorkers(rows: WorkersRow[]) {
  if (rows.length === 0) {
    console.log(`\nWorkers: not compared (${usableCpus()} core; BENCH_WORKERS=2 or more to measure a cluster)`);
    return;
  }
  const n = rows[0]!.cluster.workers;
  console.log(`\nOne process (WORKERS=1) and one worker per core (WORKERS=${n}), read cache on; memory is the peak RSS under the load:`);
  console.log(`| database | call | conn | 1 worker req/s | p99 ms | RSS MB | ${n} workers req/s | p99 ms | RSS MB per worker | primary RSS MB | ${n} ÷ 1 |`);
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const ratio = r.single.rps ? (r.cluster.rps / r.single.rps).toFixed(2) : '';
    console.log(
      `| ${r.dialect} | ${r.name} | ${r.connections} | ${r.single.rps} | ${r.single.p99} | ${r.single.rssMb} | ${r.cluster.rps} | ${r.cluster.p99} | ${r.cluster.workerRssMb.join(' / ')} | ${r.cluster.primaryRssMb} | ${ratio} |`,
    );
  }
}

type Budget = readonly [label: string, met: boolean, value: string];

function serverBudgets(figures: Figure[], clusterFigures: ClusterFigure[]): Budget[] {
  const at16 = (dialect: Dialect, name: string) => figures.find((f) => f.dialect === dialect && f.cache && f.name === name && f.connections === 16);
  const budgets: Budget[] = [];
  const first = at16('sqlite', 'videos, first page')!;
  const deep = at16('sqlite', 'videos, page 2000')!;
  const sqliteRss = Math.max(...figures.filter((f) => f.dialect === 'sqlite' && f.name.startsWith('videos,')).map((f) => f.rssMb));
  budgets.push(
    ['first page with total, category of 100,317, ≥ 8,000 req/s at 16 (SQLite)', first.rps >= 8000, `${first.rps} req/s`],
    ['first page p99 under 20 ms (SQLite)', first.p99 < 20, `${first.p99} ms`],
    ['page 2000 ≥ 600 req/s (SQLite)', deep.rps >= 600, `${deep.rps} req/s`],
    ['server memory under 200 MB under that load (SQLite)', sqliteRss < 200, `${sqliteRss} MB`],
  );
  const pgFirst = at16('postgres', 'videos, first page');
  if (pgFirst) {
    const pgDeep = at16('postgres', 'videos, page 2000')!;
    budgets.push(
      ['first page with total ≥ 2,000 req/s at 16 (PostgreSQL)', pgFirst.rps >= 2000, `${pgFirst.rps} req/s`],
      ['first page p99 under 20 ms (PostgreSQL)', pgFirst.p99 < 20, `${pgFirst.p99} ms`],
      ['page 2000 ≥ 600 req/s (PostgreSQL)', pgDeep.rps >= 600, `${pgDeep.rps} req/s`],
    );
  } else {
    budgets.push(['PostgreSQL figures', false, 'not measured: no PostgreSQL (install Debian postgresql or set BENCH_DATABASE_URL)']);
  }
  const errors = [...figures, ...clusterFigures].reduce((n, f) => n + f.errors, 0);
  budgets.push(['no errors in any call', errors === 0, `${errors} errors`]);
  return budgets;
}

function printBudgets(title: string, budgets: Budget[]) {
  console.log(`\nBudgets (${title}):`);
  for (const [label, met, value] of budgets) console.log(`  ${met ? 'MET    ' : 'NOT MET'}  ${label}: ${value}`);
}

async function main() {
  const started = Date.now();
  const figures: Figure[] = [];
  const clusterFigures: ClusterFigure[] = [];
  const ceiling: CeilingResult = { ceiling: [], writes: [] };
  const addCeiling = (r: CeilingResult) => {
    ceiling.ceiling.push(...r.ceiling);
    ceiling.writes.push(...r.writes);
  };
  const dashboard: DashboardFigure[] = [];
  const steal = stealSince();
  console.log(`machine: ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; ${DURATION_S} s per figure`);

  execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-bench-'));
  let sqliteSeconds = 0;
  let postgresSeconds: number | undefined;
  try {
    console.log(`SQLite: generating ${SIZES.videos.toLocaleString()} videos, ${SIZES.comments.toLocaleString()} comments, ${SIZES.articles.toLocaleString()} articles…`);
    const data = await generate(dataDir);
    sqliteSeconds = data.seconds;
    console.log(`generated in ${data.seconds.toFixed(1)} s; measuring`);
    const sqlite = new SQLite(path.join(dataDir, 'zhishi.sqlite'));
    try {
      const env = { DATA_DIR: dataDir, PUBLIC_DIR: path.join(dataDir, 'no-public') };
      const measured = await suite('sqlite', env, { sqlite }, data);
      figures.push(...measured.figures);
      clusterFigures.push(...measured.cluster);
      console.log('SQLite: the ceiling (a bare Fastify) and the write rate beside the reads');
      addCeiling(await benchCeiling('sqlite', env, { bigVdtCode: data.bigVdtCode, videoId: COUNTED_VIDEO }, PASSWORD, DURATION_S));
      dashboard.push(...(await benchDashboard('sqlite', env)));
    } finally {
      sqlite.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const cluster = postgresCluster();
  if (cluster) {
    try {
      const admin = new pg.Client({ connectionString: cluster.url });
      await admin.connect();
      await admin.query('drop database if exists zhishi_bench');
      await admin.query('create database zhishi_bench');
      await admin.end();
      const url = new URL(cluster.url);
      url.pathname = '/zhishi_bench';
      console.log('PostgreSQL: generating the same data set…');
      const data = await generatePostgres(url.toString());
      postgresSeconds = data.seconds;
      console.log(`generated in ${data.seconds.toFixed(1)} s; measuring`);
      const pool = new pg.Pool({ connectionString: url.toString(), max: PG_CLIENTS });
      try {
        const dataDir2 = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-bench-pgdata-'));
        const env = { DATABASE_URL: url.toString(), DATA_DIR: dataDir2, PUBLIC_DIR: path.join(dataDir2, 'no-public') };
        const measured = await suite('postgres', env, { pool }, data);
        figures.push(...measured.figures);
        clusterFigures.push(...measured.cluster);
        console.log('PostgreSQL: the ceiling (a bare Fastify) and the write rate beside the reads');
        addCeiling(await benchCeiling('postgres', env, { bigVdtCode: data.bigVdtCode, videoId: COUNTED_VIDEO }, PASSWORD, DURATION_S));
        dashboard.push(...(await benchDashboard('postgres', env)));
        fs.rmSync(dataDir2, { recursive: true, force: true });
      } finally {
        await pool.end();
      }
    } finally {
      cluster.stop();
    }
  }

  printFigures(figures);
  const workers = workersSideBySide(figures, clusterFigures);
  printWorkers(workers);
  const budgets = serverBudgets(figures, clusterFigures);
  printCeiling(ceiling);
  budgets.push(...ceilingBudgets(ceiling));
  printBudgets('server', budgets);
  printDashboard(dashboard);
  budgets.push(...dashboardBudgets(dashboard));
  printBudgets('start page', dashboardBudgets(dashboard));

  let uploads: UploadFigure[] = [];
  if (process.env.BENCH_UPLOAD !== '0') {
    console.log('\nUpload: a 500 MB video through the local driver…');
    uploads = await benchUpload({ paths: ['multipart'] });
    printUploadFigures(uploads);
  }

  let richTextFlood: RichTextFloodFigure | undefined;
  if (process.env.BENCH_RICHTEXT !== '0') {
    console.log('\nRich text: one member floods the rich-text queue…');
    richTextFlood = await benchRichTextFlood();
    printRichTextFlood(richTextFlood);
    budgets.push(...richTextFloodBudgets(richTextFlood));
  }

  let bulkDelete: BulkDeleteFigure[] | undefined;
  if (process.env.BENCH_BULK !== '0') {
    console.log('\nBulk delete: 1,000 videos in one call, on SQLite and PostgreSQL…');
    bulkDelete = await benchBulkDelete();
    printBulkDelete(bulkDelete);
    budgets.push(...bulkDeleteBudgets(bulkDelete));
  }

  let exports: ExportFigure[] = [];
  if (process.env.BENCH_EXPORT !== '0') {
    console.log('\nExport: 100,000 and 300,000 videos to .xlsx…');
    exports = await benchExport();
    printExport(exports);
    budgets.push(...exportBudgets(exports));
  }

  let fullText: FullTextFigure[] = [];
  if (process.env.BENCH_FULLTEXT !== '0') {
    console.log('\n全文: 10,000 documents × 20 pages, indexed and searched…');
    fullText = await benchFullText();
    printFullText(fullText);
    budgets.push(...fullTextBudgets(fullText));
  }

  fs.mkdirSync('bench-results', { recursive: true });
  fs.writeFileSync(
    'bench-results/latest.json',
    JSON.stringify(
      {
        when: new Date().toISOString(),
        machine: { cores: os.cpus().length, load: os.loadavg(), stealPercent: steal() },
        sizes: SIZES,
        generated: { sqliteSeconds, postgresSeconds },
        figures,
        clusterFigures,
        workers,
        ceiling,
        budgets,
        uploads,
        richTextFlood,
        bulkDelete,
        dashboard,
        exports,
        fullText,
      },
      null,
      2,
    ),
  );
  console.log(`\nCPU steal by the host during the run: ${steal() ?? 'unknown'} %`);
  console.log(`written: bench-results/latest.json (${((Date.now() - started) / 1000).toFixed(0)} s in all)`);
}

await main();
