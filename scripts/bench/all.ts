// npm run bench: every figure of the "Performance at scale" issue in one command. The server
// benchmark (run.ts: data set, HTTP figures, 500 MB upload, a rich-text flood) and then the admin app's (ui.ts:
// bundle, first row, page change, tree, Lighthouse), each in its own process so that neither
// measures the other's memory; then every budget of both, met or not, in one list, and the server's
// figures on one process beside one worker per core.
// BENCH_SERVER=0 or BENCH_UI=0 leaves one out (its budgets are then read from its last JSON).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RichTextFloodFigure } from './richTextFlood';
import type { WorkersRow } from './run';

type Budget = [label: string, met: boolean, value: string];

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = path.join(REPO, 'node_modules/.bin/tsx');

function runPart(script: string): number {
  const result = spawnSync(TSX, [path.join(REPO, 'scripts/bench', script)], { cwd: REPO, stdio: 'inherit' });
  return result.status ?? 1;
}

function budgetsOf(file: string): { when: string; budgets: Budget[] } | undefined {
  const full = path.join(REPO, 'bench-results', file);
  if (!fs.existsSync(full)) return undefined;
  const json = JSON.parse(fs.readFileSync(full, 'utf8')) as {
    when: string;
    budgets: Budget[];
    uploads?: { path: string; budgetMet: boolean; growthMb: number; sizeBytes: number }[];
  };
  // The upload's budget is kept with its figures.
  const uploads: Budget[] = (json.uploads ?? []).map((u) => [
    `a ${Math.round(u.sizeBytes / 2 ** 20)} MB upload (${u.path}) grows server memory by < 50 MB`,
    u.budgetMet,
    `${u.growthMb.toFixed(1)} MB`,
  ]);
  return { when: json.when, budgets: [...json.budgets, ...uploads] };
}

let failed = 0;
if (process.env.BENCH_SERVER !== '0') failed += runPart('run.ts') === 0 ? 0 : 1;
if (process.env.BENCH_UI !== '0') failed += runPart('ui.ts') === 0 ? 0 : 1;

console.log('\n=== Every budget of the issue (targets, not timed tests) ===');
for (const [title, file] of [
  ['server (bench-results/latest.json)', 'latest.json'],
  ['admin app (bench-results/ui.json)', 'ui.json'],
] as const) {
  const part = budgetsOf(file);
  console.log(`\n${title}${part ? `, measured ${part.when}` : ': not measured'}`);
  for (const [label, met, value] of part?.budgets ?? []) console.log(`  ${met ? 'MET    ' : 'NOT MET'}  ${label}: ${value}`);
}
// One process beside one worker per core (run.ts's table), in short.
const latest = path.join(REPO, 'bench-results', 'latest.json');
const latestJson = fs.existsSync(latest) ? (JSON.parse(fs.readFileSync(latest, 'utf8')) as { workers?: WorkersRow[]; richTextFlood?: RichTextFloodFigure }) : {};
const rows = latestJson.workers ?? [];
if (rows.length > 0) {
  console.log('\n=== One process and one worker per core (req/s, peak RSS MB) ===');
  for (const r of rows) {
    const { single: one, cluster: all } = r;
    console.log(
      `  ${r.dialect}, ${r.name}, ${r.connections} connections: 1 worker ${one.rps} req/s (${one.rssMb} MB); ${all.workers} workers ${all.rps} req/s (${all.workerRssMb.join(' + ')} MB, primary ${all.primaryRssMb} MB)`,
    );
  }
}

// The rich-text flood (run.ts, richTextFlood.ts), in short.
const flood = latestJson.richTextFlood;
if (flood) {
  console.log(`\n=== A rich-text flood by one member (${flood.connections} connections, ${flood.seconds} s) ===`);
  console.log(`  /health p50 ${flood.health.p50} ms, p99 ${flood.health.p99} ms (before it: p99 ${flood.healthBefore.p99} ms)`);
  console.log(`  another member's one-line comment p50 ${flood.comment.p50} ms, p99 ${flood.comment.p99} ms, slowest ${flood.comment.max} ms`);
}

if (failed) {
  console.error(`\n${failed} part(s) of the benchmark failed; see above.`);
  process.exit(1);
}
