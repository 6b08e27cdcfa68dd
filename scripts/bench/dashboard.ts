// The start page's calls at scale (part of npm run bench; alone: npx tsx scripts/bench/dashboard.ts,
// which generates the large data set into SQLite, and into PostgreSQL too with BENCH_DATABASE_URL).
// On the data set of generate.ts (1,000,000 videos, a year of daily figures, 1,000,000 comments),
// each call of the administrator's dashboard is made one at a time on the compiled server with its
// read cache off (READ_CACHE=0: every answer read from the database), its first call apart, then
// ROUNDS (50) more: the budget is each call's p95 under 100 ms.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { DASHBOARD_CALLS, DASHBOARD_PERIODS } from '../../schemas/dashboard';
import { startServerProcess } from '../../tests/helpers/serverProcess';
import { generate, generatePostgres } from './generate';

export const DASHBOARD_BUDGET_MS = 100;
const ROUNDS = Number(process.env.BENCH_DASHBOARD_ROUNDS ?? 50);
const PASSWORD = 'bench-dashboard-password';

export interface DashboardFigure {
  dialect: 'sqlite' | 'postgres';
  call: string;
  firstMs: number;
  p50: number;
  p95: number;
  max: number;
}

/** Every call of the page, each period of those that take one. */
const CALLS: { name: string; body: Record<string, number> }[] = [
  ...Object.entries(DASHBOARD_CALLS).flatMap(([key, name]) =>
    ['daily', 'topVideos', 'unwatchedVideos'].includes(key) ? DASHBOARD_PERIODS.map((Days) => ({ name, body: { Days } })) : [{ name, body: {} }],
  ),
];

const label = (c: (typeof CALLS)[number]) => `${c.name}${c.body.Days ? ` (${c.body.Days} 天)` : ''}`;

/** Measures the calls on a server started with `env` (the data set already there, its administrator's password `password`). */
export async function benchDashboard(dialect: DashboardFigure['dialect'], env: Record<string, string>, password = PASSWORD): Promise<DashboardFigure[]> {
  const server = await startServerProcess({ ...env, ADMIN_PASSWORD: password, READ_CACHE: '0', WORKERS: '1' }, 180_000, { built: true });
  try {
    const login = await fetch(`${server.url}/Ajax/Login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ UserName: 'admin', Password: password }),
    });
    if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const timed = async (c: (typeof CALLS)[number]) => {
      const started = performance.now();
      const res = await fetch(`${server.url}/Ajax/${c.name}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(c.body) });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${label(c)}: ${res.status}`);
      return performance.now() - started;
    };
    const out: DashboardFigure[] = [];
    for (const c of CALLS) {
      const firstMs = await timed(c);
      const ms: number[] = [];
      for (let i = 0; i < ROUNDS; i++) ms.push(await timed(c));
      ms.sort((a, b) => a - b);
      // Nearest rank: the p95 of 50 calls is the 48th fastest.
      const at = (q: number) => Math.round(ms[Math.max(0, Math.ceil(q * ms.length) - 1)]!);
      out.push({ dialect, call: label(c), firstMs: Math.round(firstMs), p50: at(0.5), p95: at(0.95), max: Math.round(ms.at(-1)!) });
    }
    return out;
  } finally {
    await server.stop();
  }
}

export function dashboardBudgets(figures: DashboardFigure[]): [label: string, met: boolean, value: string][] {
  return (['sqlite', 'postgres'] as const).flatMap((dialect) => {
    const of = figures.filter((f) => f.dialect === dialect);
    if (of.length === 0) return [];
    const slowest = of.reduce((a, b) => (b.p95 > a.p95 ? b : a));
    return [
      [
        `every start-page call p95 under ${DASHBOARD_BUDGET_MS} ms at 1,000,000 videos with a year of daily rows, read cache off (${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'})`,
        slowest.p95 < DASHBOARD_BUDGET_MS,
        `slowest ${slowest.call}: p95 ${slowest.p95} ms`,
      ] as [string, boolean, string],
    ];
  });
}

export function printDashboard(figures: DashboardFigure[]): void {
  console.log(`\nStart page calls, one at a time, read cache off (${ROUNDS} after the first):`);
  console.log('| database | call | first ms | p50 ms | p95 ms | slowest ms |');
  console.log('|---|---|---|---|---|---|');
  for (const f of figures) console.log(`| ${f.dialect} | ${f.call} | ${f.firstMs} | ${f.p50} | ${f.p95} | ${f.max} |`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
  const figures: DashboardFigure[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-bench-dashboard-'));
  try {
    console.log('SQLite: generating the data set…');
    console.log(`generated in ${(await generate(dataDir)).seconds.toFixed(1)} s`);
    figures.push(...(await benchDashboard('sqlite', { DATA_DIR: dataDir, PUBLIC_DIR: path.join(dataDir, 'no-public') })));
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const pgUrl = process.env.BENCH_DATABASE_URL;
  if (pgUrl) {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query('drop database if exists zhishi_bench_dashboard');
    await admin.query('create database zhishi_bench_dashboard');
    await admin.end();
    const url = new URL(pgUrl);
    url.pathname = '/zhishi_bench_dashboard';
    console.log('PostgreSQL: generating the data set…');
    console.log(`generated in ${(await generatePostgres(url.toString())).seconds.toFixed(1)} s`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-bench-dashboard-pg-'));
    try {
      figures.push(...(await benchDashboard('postgres', { DATABASE_URL: url.toString(), DATA_DIR: dir, PUBLIC_DIR: path.join(dir, 'no-public') })));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  printDashboard(figures);
  const budgets = dashboardBudgets(figures);
  console.log('Budgets (start page):');
  for (const [l, met, value] of budgets) console.log(`  ${met ? 'MET    ' : 'NOT MET'}  ${l}: ${value}`);
  if (!budgets.every(([, met]) => met)) process.exitCode = 1;
}
