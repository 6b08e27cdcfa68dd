// Where the server's time goes on its hot path: the compiled server (one process) run under V8's
// CPU profiler (`--cpu-prof`) while autocannon asks one call at 16 connections, then the profile
// summed per function: self time (what the function itself runs) and total time (with what it
// calls), as shares of the samples taken while the server was busy.
// Usage: npx tsx scripts/bench/profile.ts <call> [seconds]
//   call: cached (first page of the large category), member (GetCurrentMember), counter (the play
//   counter at 1,000 a second beside 16 connections reading the cached first page).
// BENCH_DATA_DIR: a data set of generate.ts to reuse (made in a temporary folder otherwise);
// BENCH_DATABASE_URL: a PostgreSQL database, filled by generatePostgres first unless BENCH_REUSE=1.
// Build first: npm run build:server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startServerProcess } from '../../tests/helpers/serverProcess';
import { BIG_VDT_CODE, generate, generatePostgres } from './generate';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  startTime: number;
  timeDeltas: number[];
}

const PASSWORD = 'bench-password';

/** Microseconds of the monotonic clock, V8's profile clock on Linux. */
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/** The stacks (leaf first) of the busy samples taken inside `window`: not the start, the warm-up, the stop or idle time. */
function* busyStacks(profile: Profile, window: [number, number]): Generator<ProfileNode[]> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let time = profile.startTime;
  for (const [i, id] of profile.samples.entries()) {
    time += profile.timeDeltas[i]!;
    if (time < window[0] || time > window[1]) continue;
    const leaf = byId.get(id)!;
    if (leaf.callFrame.functionName === '(idle)') continue;
    const stack: ProfileNode[] = [];
    for (let n: ProfileNode | undefined = leaf; n; n = parent.has(n.id) ? byId.get(parent.get(n.id)!) : undefined) stack.push(n);
    yield stack;
  }
}

/** Self and total shares per function of a .cpuprofile; the idle and GC rows are V8's own. */

export function summarise(profile: Profile, window: [number, number], top = 40): { self: [string, number][]; total: [string, number][]; busy: number } {
  const label = (n: ProfileNode) => {
    const file = n.callFrame.url.split('/').slice(-2).join('/');
    return `${n.callFrame.functionName || '(anonymous)'} ${file}:${n.callFrame.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let busy = 0;
  for (const stack of busyStacks(profile, window)) {
    busy++;
    self.set(label(stack[0]!), (self.get(label(stack[0]!)) ?? 0) + 1);
    // A function counts once per sample, however deep it recurs.
    for (const l of new Set(stack.map(label))) total.set(l, (total.get(l) ?? 0) + 1);
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, v]) => [k, v / busy] as [string, number]);
  return { self: sorted(self), total: sorted(total), busy };
}

/**
 * The per-request work a sample belongs to: the first kind, in this order, of which a frame is on
 * its stack (so helmet's own setHeader counts as helmet, a session's query as the session). Named by
 * the functions of server/src (the hooks are named functions for this) and the packages' files.
 */
const KINDS: [string, (frame: ProfileNode['callFrame'], leaf: boolean) => boolean][] = [
  ['change clock (data_version / snapshot)', (f) => f.functionName === 'version' || f.functionName === 'snapshotVersion'],
  ['session: cookie, cached session, expiry', (f) => ['currentMember', 'sessionToken', 'sessionOf', 'isLive', 'parseCookie'].includes(f.functionName)],
  ['permission check', (f) => ['requireAccess', 'requireAnyCode', 'requireMember', 'toCurrentMember', 'canAccess', 'hasCode', 'parseModules'].includes(f.functionName)],
  ['security headers (helmet)', (f) => f.url.includes('/helmet/') || f.functionName === 'setSecurityHeaders'],
  ['origin, host, URL length, body deadline hooks', (f) => ['refuseCrossOrigin', 'refuseOtherHost', 'refuseLongUrl', 'bodyDeadline', 'isSameOriginRequest'].includes(f.functionName)],
  ['request validation (ajv)', (f) => /^validate\d*$/.test(f.functionName) || f.url.includes('/ajv/')],
  ['unstorable-value check', (f) => ['refuseUnstorable', 'unstorableValue'].includes(f.functionName)],
  ['answer cache: key, lookup', (f, leaf) => f.functionName === 'answerKey' || f.url.includes('/lru-cache/') || (leaf && f.functionName === 'sendAnswer')],
  ['business day (dayIn)', (f) => f.functionName === 'dayIn'],
  ['full-text indexer woken', (f) => ['wakeIndexer', 'claim', 'runOne'].includes(f.functionName)],
  ['SQL through Kysely and the driver (a count, a claim, a lookup after a write)', (f) => ['addToCounter', 'incrementCounter'].includes(f.functionName) || f.url.includes('/kysely/') || f.url.includes('better-sqlite3') || f.url.includes('/pg/')],
  ['JSON body parse', (f) => f.functionName === 'defaultJsonParser' || f.url.includes('secure-json-parse')],
  ['JSON serialisation of the answer', (f) => f.functionName === 'serialize' || f.functionName === 'stringify'],
  ['request log', (f) => f.functionName === 'requestCompleted' || f.url.includes('/pino/')],
  ['socket write (writev)', (f) => f.functionName === 'writev' || f.functionName === 'writevGeneric'],
  ['garbage collection', (f) => f.functionName === '(garbage collector)'],
  ['node:http: parsing, response headers', (f) => f.url.startsWith('node:_http')],
  ['Fastify: routing, hooks, reply', (f) => f.url.includes('/fastify/') || f.url.includes('/find-my-way/')],
];

/** Shares of the busy samples per kind of work (KINDS), the rest as "other". */
export function byKind(profile: Profile, window: [number, number]): [string, number][] {
  const counts = new Map<string, number>();
  let busy = 0;
  for (const stack of busyStacks(profile, window)) {
    busy++;
    const kind = KINDS.find(([, match]) => stack.some((n, depth) => match(n.callFrame, depth === 0)))?.[0] ?? 'other (node, V8, our handlers)';
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, v / busy]);
}

async function main() {
  const call = process.argv[2] ?? 'cached';
  const seconds = Number(process.argv[3] ?? 10);
  let env: Record<string, string>;
  let bigVdtCode: string;
  const dataDir = process.env.BENCH_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-profile-'));
  if (process.env.BENCH_DATABASE_URL) {
    const url = process.env.BENCH_DATABASE_URL;
    bigVdtCode = process.env.BENCH_REUSE === '1' ? BIG_VDT_CODE : (await generatePostgres(url)).bigVdtCode;
    env = { DATABASE_URL: url, DATA_DIR: dataDir };
  } else {
    bigVdtCode = fs.existsSync(path.join(dataDir, 'zhishi.sqlite')) ? BIG_VDT_CODE : (await generate(dataDir)).bigVdtCode;
    env = { DATA_DIR: dataDir };
  }
  const window: [number, number] = [0, 0];
  const profDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-cpuprof-'));
  const server = await startServerProcess(
    { ...env, PUBLIC_DIR: path.join(dataDir, 'no-public'), ADMIN_PASSWORD: PASSWORD, WORKERS: '1' },
    180_000,
    { built: true, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}`], ...(process.env.BENCH_CWD ? { cwd: process.env.BENCH_CWD } : {}) },
  );
  try {
    const login = await fetch(`${server.url}/Ajax/Login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ UserName: 'admin', Password: PASSWORD }) });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const firstPage = `/Ajax/GetVideoListInAdmin?${new URLSearchParams({ VdtCode: bigVdtCode, OrderName: 'IS_TOP DESC, VD_TIME DESC', pageIndex: '1', pageSize: '15' })}`;
    const run = (options: autocannon.Options) => autocannon({ headers: { cookie, 'content-type': 'application/json' }, connections: 16, duration: seconds, ...options });
    // Warm-up, not profiled: the server's first calls compile and fill its caches.
    await autocannon({ url: server.url + firstPage, headers: { cookie }, connections: 16, duration: 3 });
    window[0] = nowUs();
    if (call === 'member') await run({ url: `${server.url}/Ajax/GetCurrentMember`, method: 'POST', body: '{}' });
    else if (call === 'counter') {
      await Promise.all([
        run({ url: server.url + firstPage }),
        run({ url: `${server.url}/Ajax/UpdateVideoNumAdd`, method: 'POST', body: JSON.stringify({ Id: 5001 }), connections: 64, overallRate: 1000 }),
      ]);
    } else await run({ url: server.url + firstPage });
    window[1] = nowUs();
  } finally {
    await server.stop();
  }
  // The main thread's profile: thread 0 (worker threads write theirs beside it).
  const file = fs.readdirSync(profDir).find((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f));
  if (!file) throw new Error(`no profile in ${profDir}`);
  const profile = JSON.parse(fs.readFileSync(path.join(profDir, file), 'utf8')) as Profile;
  const { self, total, busy } = summarise(profile, window);
  console.log(`profile: ${path.join(profDir, file)} (${busy} busy samples; load average ${os.loadavg()[0]!.toFixed(1)})`);
  console.log('\nper kind of work, share of busy samples:');
  for (const [kind, share] of byKind(profile, window)) console.log(`${(share * 100).toFixed(1).padStart(5)}%  ${kind}`);
  console.log('\nself time, share of busy samples:');
  for (const [name, share] of self) console.log(`${(share * 100).toFixed(1).padStart(5)}%  ${name}`);
  console.log('\ntotal time (with callees), share of busy samples:');
  for (const [name, share] of total) console.log(`${(share * 100).toFixed(1).padStart(5)}%  ${name}`);
}

// Alone (the summaries are exported for other scripts).
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
