// npm run bench: generates the large data set, starts the server as its own process on loopback,
// and measures each call with autocannon (bounded: a few seconds per figure, loopback only),
// printing a table, the budgets of issue 6 as met or not, and JSON in bench-results/.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { generate, SIZES } from './generate';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const PASSWORD = 'bench-password';

interface Figure {
  name: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  rssMb: number;
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function startServer(dataDir: string, port: number) {
  const child = spawn('npx', ['tsx', 'server/src/server.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG: '0', DEMO_DATA: '0', ADMIN_PASSWORD: PASSWORD },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('http://')) resolve();
    });
    child.once('exit', (c) => reject(new Error(`server exited with ${c}`)));
  });
  return child;
}

/** The server's own pid (npx → tsx → node): the process listening, for its memory. */
function serverPid(root: number): number {
  let pid = root;
  for (let i = 0; i < 4; i++) {
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    if (children.length === 0) break;
    pid = Number(children[children.length - 1]);
  }
  return pid;
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-bench-'));
  console.log(`generating ${SIZES.videos.toLocaleString()} videos, ${SIZES.comments.toLocaleString()} comments, ${SIZES.articles.toLocaleString()} articles…`);
  const data = await generate(dataDir);
  console.log(`generated in ${data.seconds.toFixed(1)} s`);
  const port = 18000 + Math.floor(Math.random() * 1000);
  const child = await startServer(dataDir, port);
  const base = `http://127.0.0.1:${port}`;
  try {
    const login = await fetch(`${base}/Ajax/Login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ UserName: 'admin', Password: PASSWORD }),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const pid = serverPid(child.pid!);
    const q = (p: Record<string, string | number>) => new URLSearchParams(Object.entries(p).map(([k, v]) => [k, String(v)])).toString();
    const order = 'IS_TOP DESC, VD_TIME DESC';
    const cases: { name: string; path: string; method?: 'GET' | 'POST'; body?: string }[] = [
      { name: 'videos, first page', path: `/Ajax/GetVideoListInAdmin?${q({ VdtCode: data.bigVdtCode, OrderName: order, pageIndex: 1, pageSize: 15 })}` },
      { name: 'videos, page 2000', path: `/Ajax/GetVideoListInAdmin?${q({ VdtCode: data.bigVdtCode, OrderName: order, pageIndex: 2000, pageSize: 15 })}` },
      { name: 'video, single', path: `/Ajax/GetSingleVideoInAdmin?${q({ Id: 5000 })}` },
      { name: 'like counter', path: '/Ajax/UpdateVideoFabulousAdd', method: 'POST', body: JSON.stringify({ Id: 5000 }) },
      { name: 'comments of a busy video', path: `/Ajax/GetVideoMessageListInAdmin?${q({ VdCode: data.busyVdCode, OrderName: 'VM_TIME DESC', pageIndex: 1, pageSize: 15 })}` },
      { name: 'articles of a type, first page', path: `/Xcx1/GetStandardArticleListInAdmin?${q({ type: 1, pageIndex: 1, pageSize: 15 })}` },
      { name: 'classification tree (5,000)', path: `/Xcx1/GetStandardClassifyListInAdmin?${q({ All: 1, OrderName: 'SC_SORT ASC' })}` },
      { name: 'websites, all', path: `/Ajax/GetUsewebListInAdmin?${q({ All: 1 })}` },
    ];
    const figures: Figure[] = [];
    for (const connections of [16, 64]) {
      for (const c of cases) {
        const result = await autocannon({
          url: base + c.path,
          method: c.method ?? 'GET',
          body: c.body,
          headers: { cookie, ...(c.body ? { 'content-type': 'application/json' } : {}) },
          connections,
          duration: DURATION_S,
        });
        figures.push({
          name: c.name,
          connections,
          rps: Math.round(result.requests.average),
          p50: result.latency.p50,
          p99: result.latency.p99,
          errors: result.errors + result.non2xx,
          rssMb: Math.round(rssMb(pid)),
        });
      }
    }
    console.log('\n| call | conn | req/s | p50 ms | p99 ms | errors | server RSS MB |\n|---|---|---|---|---|---|---|');
    for (const f of figures) console.log(`| ${f.name} | ${f.connections} | ${f.rps} | ${f.p50} | ${f.p99} | ${f.errors} | ${f.rssMb} |`);
    const at16 = (name: string) => figures.find((f) => f.name === name && f.connections === 16)!;
    const first = at16('videos, first page');
    const deep = at16('videos, page 2000');
    const maxRss = Math.max(...figures.map((f) => f.rssMb));
    const budgets = [
      ['first page with total, category of 100,317, ≥ 8,000 req/s at 16 (SQLite)', first.rps >= 8000, `${first.rps} req/s`],
      ['first page p99 under 20 ms', first.p99 < 20, `${first.p99} ms`],
      ['page 2000 ≥ 600 req/s', deep.rps >= 600, `${deep.rps} req/s`],
      ['server memory under 200 MB under that load', maxRss < 200, `${maxRss} MB`],
      ['no errors', figures.every((f) => f.errors === 0), `${figures.reduce((n, f) => n + f.errors, 0)} errors`],
    ] as const;
    console.log('\nBudgets (SQLite):');
    for (const [label, met, value] of budgets) console.log(`  ${met ? 'MET    ' : 'NOT MET'}  ${label}: ${value}`);
    fs.mkdirSync('bench-results', { recursive: true });
    fs.writeFileSync('bench-results/latest.json', JSON.stringify({ when: new Date().toISOString(), sizes: SIZES, figures, budgets }, null, 2));
    console.log('\nwritten: bench-results/latest.json');
  } finally {
    child.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
