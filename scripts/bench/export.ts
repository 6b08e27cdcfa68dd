// 导出 at scale (part of npm run bench; alone: npx tsx scripts/bench/export.ts). A data set of its
// own: 300,000 videos of 8 exported columns (a category's name, a name, a speaker, a date, a flag,
// a number, a video link, two handouts), 100,000 of them in one category; the compiled server of
// `npm start`, one process, on SQLite and on PostgreSQL (BENCH_DATABASE_URL, or a throwaway
// cluster; BENCH_POSTGRES=0 leaves it out). The administrator exports the category (100,000 rows)
// and then everything (300,000), each on a fresh server, reading the file as fast as it comes; the server's resident
// memory is sampled every 100 ms. Its growth over the idle server must not follow the row count:
// the rows stream from a cursor through the writer and are never held.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { toColumn } from '../../schemas/descriptor';
import { exportCall } from '../../schemas/lists';
import { videoResource } from '../../schemas/video';
import { videoTypeResource } from '../../schemas/videoType';
import { openDatabase } from '../../server/src/db/database';
import { rssMb, startServerProcess } from '../../tests/helpers/serverProcess';

const PASSWORD = 'bench-export-password';
const SMALL = Number(process.env.BENCH_EXPORT_ROWS ?? 100_000);
const LARGE = 3 * SMALL;
/**
 * Budgets: the server's peak memory growth under what exceljs's in-memory workbook took for 100,000
 * rows (155 MB), and not following the row count: three times the rows, less than twice the growth
 * (a writer holding the rows would triple it). The time is printed.
 */
export const EXPORT_GROWTH_BUDGET_MB = 155;
export const EXPORT_GROWTH_RATIO = 2;

export interface ExportFigure {
  dialect: 'sqlite' | 'postgres';
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  bytes: number;
  /** Resident memory of the idle server before the export, and its peak growth during it, MB. */
  baseRssMb: number;
  growthMb: number;
}

type Db = Awaited<ReturnType<typeof openDatabase>>;

/** The data set: two categories, SMALL videos in the first and 2 × SMALL in the second. */
async function fill(database: Db): Promise<string> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables by descriptor
  const db = database.db as any;
  const c = (field: string) => toColumn(field);
  const types = ['造价业务培训', '软件操作教程'].map((name, i) => ({ [c('VdtCode')]: `bench-type-${i}`, [c('VdtName')]: name, [c('VdtSort')]: i + 1 }));
  await db.insertInto(videoTypeResource.table).values(types).execute();
  const handouts = JSON.stringify([
    { name: '清单计价规范讲义.pdf', url: '/files/handout/a.pdf' },
    { name: '课后练习.docx', url: '/files/handout/b.docx' },
  ]);
  const BATCH = database.dialect === 'sqlite' ? 500 : 1000;
  for (let start = 0; start < LARGE; start += BATCH) {
    const values = Array.from({ length: Math.min(BATCH, LARGE - start) }, (_, k) => {
      const n = start + k;
      const day = new Date(Date.UTC(2020, 0, 1) + (n % 2000) * 86_400_000).toISOString().slice(0, 10);
      return {
        [c('VdCode')]: `bench-video-${n}`,
        [c('VdtCode')]: n < SMALL ? 'bench-type-0' : 'bench-type-1',
        [c('VdName')]: `建设工程工程量清单计价规范要点第${n}讲`,
        [c('VdPer')]: ['王工', '李老师', '张工'][n % 3],
        [c('VdTime')]: day,
        [c('IsTop')]: n % 50 === 0 ? 1 : 0,
        [c('VdNum')]: n % 1000,
        [c('VdUrl')]: `/files/video/${n}.mp4`,
        [c('VdEnclosure')]: handouts,
        [c('VdSort')]: 0,
        [c('VdFabulous')]: n % 7,
        [c('UpdateTime')]: '2026-01-01 00:00:00',
        [c('CreateUser')]: '管理员',
        [c('CreateAuCode')]: '',
      };
    });
    await db.insertInto(videoResource.table).values(values).execute();
  }
  return 'bench-type-0';
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

/** One export read to its end; the server's memory sampled meanwhile. */
async function exportOnce(base: string, pid: number, cookie: string, params: Record<string, unknown>) {
  const baseRss = rssMb(pid) ?? 0;
  let peak = baseRss;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid) ?? 0)), 100);
  const started = performance.now();
  try {
    const res = await fetch(`${base}${exportCall(videoResource)}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify(params),
    });
    if (res.status !== 200) throw new Error(`export failed: ${res.status} ${await res.text()}`);
    const rows = Number(res.headers.get('x-export-rows'));
    let bytes = 0;
    const reader = res.body!.getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read()) bytes += part.value.byteLength;
    const seconds = (performance.now() - started) / 1000;
    return { rows, bytes, seconds, baseRss, growth: peak - baseRss };
  } finally {
    clearInterval(sampler);
  }
}

async function measureOn(dialect: ExportFigure['dialect'], env: Record<string, string>, database: Db): Promise<ExportFigure[]> {
  const small = await fill(database);
  await database.close();
  const out: ExportFigure[] = [];
  // Each export on a fresh server, so that both grow from the same idle process.
  for (const params of [{ VdtCode: small }, {}]) {
    const server = await startServerProcess({ ...env, ADMIN_PASSWORD: PASSWORD }, 180_000, { built: true });
    try {
      const cookie = await login(server.url);
      // Warm-up: a small export compiles the code paths.
      await exportOnce(server.url, server.pid, cookie, { VdName: '第1讲' });
      const f = await exportOnce(server.url, server.pid, cookie, params);
      out.push({
        dialect,
        rows: f.rows,
        seconds: Number(f.seconds.toFixed(2)),
        rowsPerSecond: Math.round(f.rows / f.seconds),
        bytes: f.bytes,
        baseRssMb: Math.round(f.baseRss),
        growthMb: Math.round(f.growth),
      });
      process.stdout.write('.');
    } finally {
      await server.stop();
    }
  }
  return out;
}

/** A throwaway PostgreSQL database: BENCH_DATABASE_URL's cluster, or one of scripts/pg-cluster.sh. */
async function postgresDatabase(): Promise<{ url: string; stop(): void } | undefined> {
  let clusterUrl = process.env.BENCH_DATABASE_URL;
  let stop = () => {};
  if (!clusterUrl) {
    if (process.env.BENCH_POSTGRES === '0') return undefined;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-bench-export-pg-'));
    try {
      const started = execFileSync('scripts/pg-cluster.sh', ['start', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
      clusterUrl = started.trim().split('\n').at(-1)!;
      stop = () => execFileSync('scripts/pg-cluster.sh', ['stop', dir], { stdio: 'inherit' });
    } catch {
      console.log('PostgreSQL could not be started (see above): its export figures are left out.');
      return undefined;
    }
  }
  const admin = new pg.Client({ connectionString: clusterUrl });
  await admin.connect();
  await admin.query('drop database if exists zhishi_bench_export');
  await admin.query('create database zhishi_bench_export');
  await admin.end();
  const url = new URL(clusterUrl);
  url.pathname = '/zhishi_bench_export';
  return { url: url.toString(), stop };
}

export async function benchExport(): Promise<ExportFigure[]> {
  const figures: ExportFigure[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-bench-export-'));
  try {
    const env = { DATA_DIR: dataDir, PUBLIC_DIR: path.join(dataDir, 'no-public') };
    figures.push(...(await measureOn('sqlite', env, await openDatabase({ dataDir }))));
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const postgres = await postgresDatabase();
  if (postgres) {
    const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-bench-export-pgdata-'));
    try {
      const env = { DATABASE_URL: postgres.url, DATA_DIR: pgDir, PUBLIC_DIR: path.join(pgDir, 'no-public') };
      figures.push(...(await measureOn('postgres', env, await openDatabase({ dataDir: pgDir, databaseUrl: postgres.url }))));
    } finally {
      fs.rmSync(pgDir, { recursive: true, force: true });
      postgres.stop();
    }
  }
  process.stdout.write('\n');
  return figures;
}

export function exportBudgets(figures: readonly ExportFigure[]): [label: string, met: boolean, value: string][] {
  const out: [string, boolean, string][] = [];
  for (const dialect of ['sqlite', 'postgres'] as const) {
    const small = figures.find((f) => f.dialect === dialect && f.rows === SMALL);
    const large = figures.find((f) => f.dialect === dialect && f.rows === LARGE);
    if (!small || !large) continue;
    out.push(
      [`export's peak memory growth (${dialect}) under ${EXPORT_GROWTH_BUDGET_MB} MB`, Math.max(small.growthMb, large.growthMb) < EXPORT_GROWTH_BUDGET_MB, `${small.growthMb} MB at ${SMALL.toLocaleString('en-US')} rows (${small.seconds} s, ${small.rowsPerSecond.toLocaleString('en-US')} rows/s), ${large.growthMb} MB at ${LARGE.toLocaleString('en-US')} (${large.seconds} s)`],
      [`export's memory does not follow the rows (${dialect}): 3 × the rows, under ${EXPORT_GROWTH_RATIO} × the growth`, large.growthMb < EXPORT_GROWTH_RATIO * small.growthMb, `× ${(large.growthMb / Math.max(1, small.growthMb)).toFixed(2)}`],
    );
  }
  return out;
}

export function printExport(figures: readonly ExportFigure[]): void {
  console.log('\nExport (导出) of videos, 8 columns (compiled server, one process):');
  console.log('| database | rows | seconds | rows/s | file MB | idle RSS MB | peak growth MB |');
  console.log('|---|---|---|---|---|---|---|');
  for (const f of figures) {
    console.log(`| ${f.dialect} | ${f.rows.toLocaleString('en-US')} | ${f.seconds} | ${f.rowsPerSecond.toLocaleString('en-US')} | ${(f.bytes / 1024 / 1024).toFixed(1)} | ${f.baseRssMb} | ${f.growthMb} |`);
  }
  console.log('Budgets (export):');
  for (const [label, met, value] of exportBudgets(figures)) console.log(`  ${met ? 'MET    ' : 'NOT MET'}  ${label}: ${value}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
  const figures = await benchExport();
  printExport(figures);
  if (!exportBudgets(figures).every(([, met]) => met)) process.exitCode = 1;
}
