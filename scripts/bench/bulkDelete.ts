// 批量删除 of 1,000 rows (part of npm run bench; alone: npx tsx scripts/bench/bulkDelete.ts).
// The compiled server of `npm start`, one process, on a fresh SQLite file and on PostgreSQL (a
// throwaway cluster by scripts/pg-cluster.sh, or BENCH_DATABASE_URL; BENCH_POSTGRES=0 leaves it
// out): 1,000 videos of one category, each with its daily figures (which go with it), are deleted
// by one call meaning "every video of the category" (DelVideoBatch, All=1). Its time, and /health
// asked every 20 ms meanwhile, beside /health before it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { startServerProcess } from '../../tests/helpers/serverProcess';
import { call, pollHealth, type Latencies } from './health';

const ROWS = 1000;
const PASSWORD = 'bench-bulk-password';
/** Targets: a person waits a few seconds for 1,000 rows; a load balancer's check stays quick. */
export const BULK_DELETE_BUDGET_S = 10;
export const BULK_HEALTH_P99_BUDGET_MS = 100;

export interface BulkDeleteFigure {
  dialect: 'sqlite' | 'postgres';
  rows: number;
  deleted: number;
  seconds: number;
  rowsPerSecond: number;
  healthBefore: Latencies;
  health: Latencies;
}

async function measure(dialect: BulkDeleteFigure['dialect'], env: Record<string, string>): Promise<BulkDeleteFigure> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-bench-bulk-'));
  const server = await startServerProcess({ DATA_DIR: dataDir, PUBLIC_DIR: path.join(dataDir, 'no-public'), ADMIN_PASSWORD: PASSWORD, ...env }, 180_000, { built: true });
  try {
    const base = server.url;
    const admin = (await call(base, '', 'Login', { UserName: 'admin', Password: PASSWORD })).cookie;
    const VdtCode = (await call<{ VdtCode: string }>(base, admin, 'AddVideoType', { VdtName: '批量删除', VdtSort: 1 })).data.VdtCode;
    // Eight at a time: a play and a like each, so that every video has its row of daily figures.
    for (let i = 0; i < ROWS; i += 8) {
      await Promise.all(
        Array.from({ length: Math.min(8, ROWS - i) }, async (_, j) => {
          const { data } = await call<{ Id: number }>(base, admin, 'AddVideo', { VdtCode, VdName: `视频${i + j + 1}`, VdUrl: 'https://media.example.com/a.mp4' });
          await call(base, admin, 'UpdateVideoNumAdd', { Id: data.Id });
          await call(base, admin, 'UpdateVideoFabulousAdd', { Id: data.Id });
        }),
      );
    }
    const healthBefore = await pollHealth(base, () => true, 20, 2000);
    let running = true;
    const healthPoll = pollHealth(base, () => running, 20);
    const t = performance.now();
    const { data } = await call<{ Deleted: number }>(base, admin, 'DelVideoBatch', { All: 1, VdtCode });
    const seconds = (performance.now() - t) / 1000;
    running = false;
    const health = await healthPoll;
    return { dialect, rows: ROWS, deleted: data.Deleted, seconds: Math.round(seconds * 100) / 100, rowsPerSecond: Math.round(data.Deleted / seconds), healthBefore, health };
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function postgresCluster(): { url: string; stop(): void } | undefined {
  if (process.env.BENCH_DATABASE_URL) return { url: process.env.BENCH_DATABASE_URL, stop: () => {} };
  if (process.env.BENCH_POSTGRES === '0') return undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-bench-bulk-pg-'));
  try {
    const out = execFileSync('scripts/pg-cluster.sh', ['start', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    return { url: out.trim().split('\n').at(-1)!, stop: () => execFileSync('scripts/pg-cluster.sh', ['stop', dir], { stdio: 'inherit' }) };
  } catch {
    console.log('PostgreSQL could not be started (see above): the bulk delete figures leave it out.');
    return undefined;
  }
}

/** The figures on SQLite, then on PostgreSQL when one can be had. Needs the compiled server. */
export async function benchBulkDelete(): Promise<BulkDeleteFigure[]> {
  const figures = [await measure('sqlite', {})];
  const cluster = postgresCluster();
  if (cluster) {
    try {
      const client = new pg.Client({ connectionString: cluster.url });
      await client.connect();
      await client.query('drop database if exists zhishi_bench_bulk');
      await client.query('create database zhishi_bench_bulk');
      await client.end();
      const url = new URL(cluster.url);
      url.pathname = '/zhishi_bench_bulk';
      figures.push(await measure('postgres', { DATABASE_URL: url.toString() }));
    } finally {
      cluster.stop();
    }
  }
  return figures;
}

export function bulkDeleteBudgets(figures: BulkDeleteFigure[]): [label: string, met: boolean, value: string][] {
  const name = (f: BulkDeleteFigure) => (f.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL');
  return figures.flatMap((f): [string, boolean, string][] => [
    [`bulk delete of ${f.rows.toLocaleString()} videos in one call under ${BULK_DELETE_BUDGET_S} s (${name(f)})`, f.deleted === f.rows && f.seconds < BULK_DELETE_BUDGET_S, `${f.seconds} s, ${f.deleted} deleted`],
    [`/health p99 during that bulk delete under ${BULK_HEALTH_P99_BUDGET_MS} ms (${name(f)})`, f.health.p99 < BULK_HEALTH_P99_BUDGET_MS, `${f.health.p99} ms`],
  ]);
}

export function printBulkDelete(figures: BulkDeleteFigure[]): void {
  const l = (x: Latencies) => `p50 ${x.p50} ms, p99 ${x.p99} ms, slowest ${x.max} ms (${x.n})`;
  console.log(`\nBulk delete: every video of a category of ${ROWS.toLocaleString()} (with their daily figures), one call (compiled server, one process):`);
  for (const f of figures) {
    console.log(`  ${f.dialect}: ${f.deleted} deleted in ${f.seconds} s (${f.rowsPerSecond} rows/s); /health meanwhile ${l(f.health)}; before ${l(f.healthBefore)}`);
  }
  console.log('Budgets (bulk delete):');
  for (const [label, met, value] of bulkDeleteBudgets(figures)) console.log(`  ${met ? 'MET    ' : 'NOT MET'}  ${label}: ${value}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
  const figures = await benchBulkDelete();
  printBulkDelete(figures);
  if (!bulkDeleteBudgets(figures).every(([, met]) => met)) process.exitCode = 1;
}
