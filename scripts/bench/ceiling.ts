// The server's hot path against its ceiling, measured in the same run so that hosts and their noise
// cancel out: a bare Fastify process (bareFastify.mjs) answers the same bytes for the same call at
// the same concurrency, interleaved with the project's server over ROUNDS rounds, and the ratio of
// their rates is printed: the cached first page of the large category, the same page with the read
// cache off, and a signed-in GetCurrentMember. Then the write rate the server sustains beside the
// reads: the play counter asked at 10, 100 and 1,000 a second while 16 connections read the cached
// first page, how many were done, their p99, and the reads' rate beside their quiet rate.
// Run alone: `npx tsx scripts/bench/ceiling.ts` (generates the SQLite data set first; BENCH_DATA_DIR,
// BENCH_DATABASE_URL and BENCH_REUSE at the end of this file).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startServerProcess, type ServerProcess } from '../../tests/helpers/serverProcess';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROUNDS = 3;
const CONNECTIONS = 16;
const WRITE_RATES = [10, 100, 1000];
/** Seconds of each write-rate figure. */
const WRITE_SECONDS = 8;

type Dialect = 'sqlite' | 'postgres';

/** A call measured against its ceiling. */
interface Call {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** The project's server measured with the read cache on (or off). */
  cache: boolean;
}

export interface CeilingFigure {
  dialect: Dialect;
  name: string;
  /** req/s of each round, the project's and the bare server's. */
  project: number[];
  bare: number[];
  /** Median of the rounds' bare ÷ project: how many times the ceiling's time the project's answer takes. */
  ratio: number;
}

export interface WriteRateFigure {
  dialect: Dialect;
  /** Counter writes asked per second. */
  rate: number;
  asked: number;
  done: number;
  p99: number;
  /** Reads per second beside the writes, and alone just before. */
  readsDuring: number;
  readsQuiet: number;
}

export interface CeilingResult {
  ceiling: CeilingFigure[];
  writes: WriteRateFigure[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function load(base: string, call: Pick<Call, 'method' | 'path' | 'body'>, cookie: string, seconds: number, options: { connections?: number; overallRate?: number } = {}) {
  const result = await autocannon({
    url: base + call.path,
    method: call.method,
    body: call.body,
    headers: { cookie, ...(call.body ? { 'content-type': 'application/json' } : {}) },
    connections: options.connections ?? CONNECTIONS,
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
    duration: seconds,
  });
  return { rps: Math.round(result.requests.average), ok: result['2xx'], p99: result.latency.p99, errors: result.errors + result.non2xx };
}

async function login(base: string, password: string): Promise<string> {
  const res = await fetch(`${base}/Ajax/Login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ UserName: 'admin', Password: password }) });
  if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
  return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
}

/** The bare server answering each call with the bytes the project answered. */
async function startBare(answers: { method: string; path: string; contentType: string; body: string }[]): Promise<{ url: string; child: ChildProcess; stop(): void }> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-bare-')), 'answers.json');
  fs.writeFileSync(file, JSON.stringify(answers));
  const child = spawn(process.execPath, [path.join(HERE, 'bareFastify.mjs'), file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /bare: (http:\/\/\S+)/.exec(out);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the bare server exited (${code})`)));
  });
  return { url, child, stop: () => child.kill('SIGTERM') };
}

/**
 * The ceiling figures and the write rates on one database. `env` starts the project's server on
 * the generated data; `bigVdtCode` names the large category; `videoId` a video to count plays of.
 */
export async function benchCeiling(dialect: Dialect, env: Record<string, string>, data: { bigVdtCode: string; videoId: number }, password: string, seconds: number): Promise<CeilingResult> {
  const firstPage = `/Ajax/GetVideoListInAdmin?${new URLSearchParams({ VdtCode: data.bigVdtCode, OrderName: 'IS_TOP DESC, VD_TIME DESC', pageIndex: '1', pageSize: '15' })}`;
  const calls: Call[] = [
    { name: 'videos, first page (cached)', method: 'GET', path: firstPage, cache: true },
    { name: 'videos, first page (read cache off)', method: 'GET', path: firstPage, cache: false },
    { name: 'GetCurrentMember (signed in)', method: 'POST', path: '/Ajax/GetCurrentMember', body: '{}', cache: true },
  ];
  const servers = new Map<boolean, ServerProcess>();
  let bare: Awaited<ReturnType<typeof startBare>> | undefined;
  try {
    for (const cache of [true, false]) {
      servers.set(cache, await startServerProcess({ ...env, ADMIN_PASSWORD: password, READ_CACHE: cache ? '1' : '0', WORKERS: '1' }, 180_000, { built: true }));
    }
    const cookies = new Map<boolean, string>();
    for (const [cache, server] of servers) cookies.set(cache, await login(server.url, password));
    // The bytes each call is answered with (the list's first page is the same with or without the cache).
    const answers = [];
    for (const call of calls.filter((c) => c.cache)) {
      const res = await fetch(servers.get(true)!.url + call.path, { method: call.method, body: call.body, headers: { cookie: cookies.get(true)!, ...(call.body ? { 'content-type': 'application/json' } : {}) } });
      if (res.status !== 200) throw new Error(`${call.name}: ${res.status}`);
      answers.push({ method: call.method, path: new URL(call.path, 'http://x').pathname, contentType: res.headers.get('content-type') ?? 'application/json', body: Buffer.from(await res.arrayBuffer()).toString('base64') });
    }
    bare = await startBare(answers);
    // Warm-up of both, not measured.
    for (const call of calls) {
      await load(servers.get(call.cache)!.url, call, cookies.get(call.cache)!, 1);
      await load(bare.url, call, '', 1);
    }
    const rounds = new Map<string, { project: number[]; bare: number[] }>(calls.map((c) => [c.name, { project: [], bare: [] }]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const call of calls) {
        const figures = rounds.get(call.name)!;
        const project = await load(servers.get(call.cache)!.url, call, cookies.get(call.cache)!, seconds);
        if (project.errors > 0) throw new Error(`${call.name}: ${project.errors} errors`);
        figures.project.push(project.rps);
        figures.bare.push((await load(bare.url, call, '', seconds)).rps);
        process.stdout.write('.');
      }
    }
    const ceiling = calls.map((call) => {
      const { project, bare: bareRps } = rounds.get(call.name)!;
      return { dialect, name: call.name, project, bare: bareRps, ratio: median(project.map((p, i) => bareRps[i]! / p)) };
    });

    // Writes beside reads, on the cached server.
    const server = servers.get(true)!;
    const cookie = cookies.get(true)!;
    const read = calls[0]!;
    const write = { method: 'POST' as const, path: '/Ajax/UpdateVideoNumAdd', body: JSON.stringify({ Id: data.videoId }) };
    const writes: WriteRateFigure[] = [];
    for (const rate of WRITE_RATES) {
      const quiet = await load(server.url, read, cookie, seconds);
      const [reads, counted] = await Promise.all([
        load(server.url, read, cookie, WRITE_SECONDS),
        load(server.url, write, cookie, WRITE_SECONDS, { connections: Math.min(rate, 64), overallRate: rate }),
      ]);
      writes.push({ dialect, rate, asked: rate * WRITE_SECONDS, done: counted.ok, p99: counted.p99, readsDuring: reads.rps, readsQuiet: quiet.rps });
      process.stdout.write('.');
    }
    process.stdout.write('\n');
    return { ceiling, writes };
  } finally {
    bare?.stop();
    for (const server of servers.values()) await server.stop();
  }
}

export function printCeiling({ ceiling, writes }: CeilingResult): void {
  console.log(`\nThe project's server against a bare Fastify answering the same bytes (${CONNECTIONS} connections, ${ROUNDS} rounds interleaved, one process each):`);
  console.log('| database | call | project req/s (rounds) | bare req/s (rounds) | bare ÷ project (median) |');
  console.log('|---|---|---|---|---|');
  for (const f of ceiling) console.log(`| ${f.dialect} | ${f.name} | ${f.project.join(' / ')} | ${f.bare.join(' / ')} | ${f.ratio.toFixed(2)}× |`);
  console.log(`\nThe play counter beside 16 connections reading the cached first page (${WRITE_SECONDS} s each):`);
  console.log('| database | writes asked /s | asked | done | write p99 ms | reads /s beside | reads /s alone | beside ÷ alone |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const w of writes) console.log(`| ${w.dialect} | ${w.rate} | ${w.asked} | ${w.done} | ${w.p99} | ${w.readsDuring} | ${w.readsQuiet} | ${(w.readsDuring / w.readsQuiet).toFixed(2)} |`);
}

/** Sustained: at least 99% of the asked writes done in their time, and the reads at half their quiet rate or more. */
const sustained = (w: WriteRateFigure) => w.done >= w.asked * 0.99 && w.readsDuring >= w.readsQuiet / 2;

export function ceilingBudgets({ ceiling, writes }: CeilingResult): (readonly [string, boolean, string])[] {
  const budgets: (readonly [string, boolean, string])[] = [];
  const cached = ceiling.find((f) => f.dialect === 'sqlite' && f.name.includes('(cached)'));
  if (cached) budgets.push(['cached first page within 1.5× the bare Fastify ceiling (SQLite)', cached.ratio <= 1.5, `${cached.ratio.toFixed(2)}×`]);
  const thousand = writes.find((w) => w.dialect === 'sqlite' && w.rate === 1000);
  if (thousand) {
    budgets.push([
      '1,000 play counts a second sustained beside the reads, reads ≥ half their quiet rate (SQLite)',
      sustained(thousand),
      `${thousand.done} of ${thousand.asked} done, reads ${thousand.readsDuring} of ${thousand.readsQuiet} /s`,
    ]);
  }
  return budgets;
}

// Alone: the SQLite data set, then the figures; PostgreSQL beside it with BENCH_DATABASE_URL.
// BENCH_DATA_DIR reuses a SQLite data set made by generate.ts (kept, not deleted), and BENCH_REUSE=1
// the PostgreSQL database as it is (otherwise filled by generatePostgres, which expects it empty).
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { execFileSync } = await import('node:child_process');
  const { BIG_VDT_CODE, generate, generatePostgres } = await import('./generate');
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
  const reused = process.env.BENCH_DATA_DIR;
  const dataDir = reused ?? fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-bench-ceiling-'));
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  try {
    const bigVdtCode = reused && fs.existsSync(path.join(reused, 'zhishi.sqlite')) ? BIG_VDT_CODE : (await generate(dataDir)).bigVdtCode;
    const result = await benchCeiling('sqlite', { DATA_DIR: dataDir, PUBLIC_DIR: path.join(dataDir, 'no-public') }, { bigVdtCode, videoId: 5001 }, 'bench-password', seconds);
    const url = process.env.BENCH_DATABASE_URL;
    if (url) {
      if (process.env.BENCH_REUSE !== '1') await generatePostgres(url);
      const postgres = await benchCeiling('postgres', { DATABASE_URL: url, DATA_DIR: dataDir, PUBLIC_DIR: path.join(dataDir, 'no-public') }, { bigVdtCode: BIG_VDT_CODE, videoId: 5001 }, 'bench-password', seconds);
      result.ceiling.push(...postgres.ceiling);
      result.writes.push(...postgres.writes);
    }
    printCeiling(result);
    for (const [label, met, value] of ceilingBudgets(result)) console.log(`  ${met ? 'MET    ' : 'NOT MET'}  ${label}: ${value}`);
    console.log(`  (load average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})`);
  } finally {
    if (!reused) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
