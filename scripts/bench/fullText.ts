// 全文 at scale (part of npm run bench; alone: npx tsx scripts/bench/fullText.ts). A generated corpus
// of BENCH_FULLTEXT_DOCS documents (10,000) × BENCH_FULLTEXT_PAGES pages (20) of construction-cost
// Chinese: one two-character word (造价) on about half the pages, a longer phrase, fragments, and a
// 文号 per document (建标〔2013〕44号 is one document's). On SQLite and on PostgreSQL
// (BENCH_DATABASE_URL, or a throwaway cluster; BENCH_POSTGRES=0 leaves it out):
// - indexing speed through the real path (the indexer: records queued, their PDFs read by pdf.js in
//   worker threads, pages written) on BENCH_FULLTEXT_SAMPLE documents, in pages per second, and the
//   time a reindex of the whole corpus takes at that speed;
// - the rest of the corpus written straight into the index tables (its pages as if extracted, by
//   the indexer's own page writer: insertPages), its speed printed apart;
// - the index's size against the text's (FTS5's tables or the tsvectors and their GIN, and NORM);
// - the search over HTTP against the compiled server of `npm start` (one process per core; BENCH_WORKERS),
//   16 connections for BENCH_SECONDS each after a second's warm-up: the half-the-pages word, a longer phrase, a fragment,
//   a rare 文号; p50 and p99, against the budgets (100 ms p99; the 文号 20 ms).
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import pg from 'pg';
import { toColumn } from '../../schemas/descriptor';
import { articleResource } from '../../schemas/standardArticle';
import { classifyResource } from '../../schemas/standardClassify';
import { loadConfig } from '../../server/src/config';
import { usableCpus } from '../../server/src/cpus';
import { openDatabase, type Db } from '../../server/src/db/database';
import { uploadSecret } from '../../server/src/bootstrap';
import { createStorage } from '../../server/src/storage/index';
import { FullTextIndexer } from '../../server/src/fullText/indexer';
import { insertPages, optimizeIndex, type AnyDb } from '../../server/src/fullText/store';
import { makePdf } from '../../tests/fixtures/documents/makePdf';
import { startServerProcess } from '../../tests/helpers/serverProcess';

const PASSWORD = 'bench-fulltext-password';
const DOCS = Number(process.env.BENCH_FULLTEXT_DOCS ?? 10_000);
const PAGES = Number(process.env.BENCH_FULLTEXT_PAGES ?? 20);
const SAMPLE = Math.min(DOCS, Number(process.env.BENCH_FULLTEXT_SAMPLE ?? 100));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 16;
/** Server processes searched: one per core, as `npm start` (BENCH_WORKERS to choose). */
const SEARCH_WORKERS = Number(process.env.BENCH_WORKERS ?? usableCpus());
export const FULLTEXT_P99_BUDGET_MS = 100;
export const FULLTEXT_RARE_P99_BUDGET_MS = 20;

/** The document whose 文号 is searched: 建标〔2013〕44号. */
const RARE_DOC = 13 + 24 * Math.min(43, Math.max(0, Math.floor((DOCS - 14) / 24)));
const fileNumber = (doc: number) => `建标〔${2000 + (doc % 24)}〕${Math.floor(doc / 24) + 1}号`;

export const QUERIES = [
  { name: 'word on half the pages', text: '造价', budget: FULLTEXT_P99_BUDGET_MS },
  { name: 'longer phrase', text: '建设工程工程量清单计价规范', budget: FULLTEXT_P99_BUDGET_MS },
  { name: 'fragment', text: '程造价', budget: FULLTEXT_P99_BUDGET_MS },
  { name: 'rare 文号', text: fileNumber(RARE_DOC), budget: FULLTEXT_RARE_P99_BUDGET_MS },
] as const;

// Sentences of the pages: none of the plain ones holds 造价, so that the word is on the pages that
// draw from the other list (about half).
const PLAIN = [
  '分部分项工程量清单应根据附录规定的项目编码、项目名称、项目特征、计量单位和工程量计算规则进行编制。',
  '招标控制价应由具有编制能力的招标人或受其委托的咨询人编制和复核。',
  '施工图设计文件应符合国家现行标准图集的有关规定，并注明所采用的图集编号。',
  '混凝土强度等级不应低于C30，钢筋保护层厚度应满足设计要求。',
  '措施项目中的安全文明施工费必须按国家或省级、行业建设主管部门的规定计算，不得作为竞争性费用。',
  '建设工程工程量清单计价规范适用于建设工程发承包及实施阶段的计价活动。',
  '定额人工单价应按工程所在地建设行政主管部门发布的人工费调整文件执行。',
  '暂列金额应根据工程特点按有关计价规定估算，一般可按分部分项工程费的百分之十至十五计列。',
  '本图集适用于抗震设防烈度为六至九度地区的现浇混凝土框架结构。',
  '承包人应在收到变更指示后十四天内，向发包人提交变更工程价款的报告。',
  '计日工应列出项目名称、计量单位和暂估数量，由投标人自主报价。',
  '工程量偏差超过百分之十五时，综合单价应予以调整。',
  '施工组织设计应包括施工部署、施工进度计划、施工准备与资源配置计划。',
  '规费和税金应按国家或省级、行业建设主管部门的规定计算。',
  '材料暂估价应按照工程造价管理机构发布的信息价计入综合单价。'.replace('工程造价管理机构', '价格管理部门'),
  '钢筋的锚固长度应按图集第二十页的规定取值，且不应小于二百五十毫米。',
  '投标报价不得低于工程成本，不得高于招标控制价。',
  '竣工结算应按照合同约定的计量和计价方式办理。',
  '清单计价的综合单价包括人工费、材料费、施工机具使用费、企业管理费和利润。',
  '依据住房城乡建设部发布的有关规定，现行定额中的消耗量标准继续有效。',
];
const COST = [
  '工程造价咨询企业应当依法取得资质，并在资质等级许可的范围内从事工程造价咨询活动。',
  '全过程工程造价管理应贯穿项目决策、设计、招投标、施工和竣工结算各阶段。',
  '建设项目总造价由工程费用、工程建设其他费用和预备费组成。',
  '造价工程师应对其出具的工程造价成果文件的质量负责。',
  '本条规定了合同价款调整后工程造价的确认程序。',
  '应加强对工程造价信息的收集、整理和发布工作。',
];

function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The pages of a document: about 500 characters each, the 文号 on its first. */
export function documentPages(doc: number): string[] {
  const next = random(doc + 1);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  return Array.from({ length: PAGES }, (_, page) => {
    const costly = next() < 0.5;
    const lines: string[] = [];
    if (page === 0) lines.push(`${fileNumber(doc)}\u3000关于印发第${doc + 1}号文件的通知`);
    let length = 0;
    while (length < 480) {
      const line = costly && (lines.length === 1 || next() < 0.2) ? pick(COST) : pick(PLAIN);
      lines.push(line);
      length += line.length;
    }
    return lines.join('\n');
  });
}

type Dialect = 'sqlite' | 'postgres';

export interface FullTextFigure {
  dialect: Dialect;
  pages: number;
  /** The real path: records queued, read in worker threads, pages written. */
  indexPagesPerSecond: number;
  samplePages: number;
  /** A reindex of the whole corpus at that speed, seconds. */
  reindexSeconds: number;
  /** Pages written straight into the index (insertPages), per second. */
  loadPagesPerSecond: number;
  textMb: number;
  indexMb: number;
  queries: { name: string; text: string; p50: number; p99: number; rps: number; errors: number; total: number; budget: number }[];
}

async function fillRecords(database: Db): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables by descriptor
  const db = database.db as any;
  const c = toColumn;
  const categories = Array.from({ length: 40 }, (_, i) => ({
    [c('ScCode')]: `bench-sc-${i}`,
    [c('ScName')]: `分类${i}`,
    [c('ScFatherCode')]: '0',
    [c('ScSort')]: i,
    [c('IsShow')]: 1,
    [c('ScIsFirst')]: 0,
    [c('type')]: i % 4,
  }));
  await db.insertInto(classifyResource.table).values(categories).execute();
  const BATCH = 500;
  for (let start = 0; start < DOCS; start += BATCH) {
    const values = Array.from({ length: Math.min(BATCH, DOCS - start) }, (_, k) => {
      const n = start + k;
      return {
        [c('SaCode')]: `bench-sa-${n}`,
        [c('ScCode')]: `bench-sc-${n % 40}`,
        [c('SaType')]: 1,
        [c('SaName')]: `第${n + 1}号文件`,
        [c('SaCodeName')]: fileNumber(n),
        [c('SaSort')]: 0,
        [c('PublishTime')]: '2026-01-01',
        [c('IsCommon')]: 0,
        [c('type')]: (n % 40) % 4,
        [c('UpdateTime')]: '2026-01-01 00:00:00',
        [c('CreateUser')]: '管理员',
      };
    });
    await db.insertInto(articleResource.table).values(values).execute();
  }
}

/**
 * The sample: each document a PDF of its pages in storage (tests/fixtures/documents/makePdf.ts: a
 * real PDF with a Chinese font's text layer), queued, then read by the indexer with a worker thread
 * per core: pdf.js, normalisation, tokens, pages written.
 */
async function indexSample(database: Db, dataDir: string, databaseUrl: string | undefined): Promise<{ pagesPerSecond: number; pages: number }> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables by descriptor
  const db = database.db as any;
  const config = loadConfig({ DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  const storage = await createStorage(config, await uploadSecret(database));
  const ids = (await db.selectFrom(articleResource.table).select('ID').orderBy('ID').limit(SAMPLE).execute()) as { ID: number }[];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-bench-pdf-'));
  try {
    for (const [n, { ID }] of ids.entries()) {
      const file = path.join(tmp, `${n}.pdf`);
      fs.writeFileSync(file, makePdf(documentPages(n)));
      const key = `handout/2026/01/${randomUUID()}.pdf`;
      await storage.putFile(key, file, 'application/pdf');
      const list = JSON.stringify([{ name: `第${n + 1}号文件.pdf`, url: storage.fileUrl(key) }]);
      await db.updateTable(articleResource.table).set({ [toColumn('SaPdfUrl')]: list, [toColumn('SaType')]: 0 }).where('ID', '=', ID).execute();
      await db.insertInto('FT_JOB').values({ TBL: articleResource.table, RECORD_ID: ID, STATE: 'waiting', VERSION: 1, TRIES: 0, DUE_AT: new Date(0).toISOString() }).execute();
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const indexer = new FullTextIndexer(database, storage, { threads: usableCpus() });
  const started = performance.now();
  await indexer.drain();
  await indexer.stop();
  const seconds = (performance.now() - started) / 1000;
  const { n } = (await db.selectFrom('FT_PAGE').select(sql<number>`count(*)`.as('n')).executeTakeFirst()) as { n: number };
  return { pagesPerSecond: Math.round(Number(n) / seconds), pages: Number(n) };
}

/** The rest of the corpus straight into the index, by the indexer's page writer. */
async function loadRest(database: Db): Promise<number> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables by descriptor
  const db = database.db as any;
  const rows = (await db
    .selectFrom(articleResource.table)
    .select(['ID', `${toColumn('type')} as type`, `${toColumn('ScCode')} as ScCode`])
    .orderBy('ID')
    .offset(SAMPLE)
    .limit(DOCS)
    .execute()) as { ID: number; type: number; ScCode: string }[];
  const started = performance.now();
  const PER_TRANSACTION = database.dialect === 'sqlite' ? 100 : 20;
  let written = 0;
  for (let i = 0; i < rows.length; i += PER_TRANSACTION) {
    await (database.db as unknown as AnyDb).transaction().execute(async (trx) => {
      for (const [k, row] of rows.slice(i, i + PER_TRANSACTION).entries()) {
        const pages = documentPages(SAMPLE + i + k).map((text, p) => ({ source: 'file', fileName: `第${row.ID}号文件.pdf`, fileUrl: `/files/handout/2026/01/${randomUUID()}.pdf`, page: p + 1, text }));
        written += await insertPages(trx, database.dialect, articleResource, { Id: row.ID, type: row.type, ScCode: row.ScCode }, row.ID, pages, { type: row.type, category: row.ScCode });
      }
    });
    if ((i / PER_TRANSACTION) % 20 === 0) process.stdout.write('.');
  }
  const rate = Math.round(written / ((performance.now() - started) / 1000));
  // As npm run reindex leaves it.
  await optimizeIndex(database.db as unknown as AnyDb, database.dialect, [articleResource.table]);
  return rate;
}

async function sizes(database: Db): Promise<{ textMb: number; indexMb: number }> {
  const db = database.db as unknown as AnyDb;
  const MB = 1024 * 1024;
  const text = Number((await sql<{ n: number }>`select sum(length(cast("TEXT" as blob))) as n from "FT_PAGE"`.execute(db).catch(() => sql<{ n: number }>`select sum(octet_length("TEXT")) as n from "FT_PAGE"`.execute(db))).rows[0]!.n);
  // NORM (the phrase's check in the row) is part of the index.
  const norm = Number((await sql<{ n: number }>`select sum(length(cast("NORM" as blob))) as n from "FT_PAGE"`.execute(db).catch(() => sql<{ n: number }>`select sum(pg_column_size("NORM")) as n from "FT_PAGE"`.execute(db))).rows[0]!.n);
  let index = norm;
  if (database.dialect === 'sqlite') {
    const t = `${articleResource.table}_FTS`;
    const parts = await Promise.all(
      ['data', 'idx', 'docsize'].map(async (s) => Number((await sql<{ n: number }>`select coalesce(sum(length(${sql.ref(s === 'data' ? 'block' : s === 'docsize' ? 'sz' : 'term')})), 0) as n from ${sql.table(`${t}_${s}`)}`.execute(db)).rows[0]!.n)),
    );
    index += parts.reduce((a, b) => a + b, 0);
  } else {
    const row = (await sql<{ gin: number; tsv: number }>`select pg_relation_size('"FT_PAGE_TSV"') as gin, (select sum(pg_column_size("TSV")) from "FT_PAGE") as tsv`.execute(db)).rows[0]!;
    index += Number(row.gin) + Number(row.tsv);
  }
  return { textMb: Math.round(text / MB), indexMb: Math.round(index / MB) };
}

async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/Ajax/Login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ UserName: 'admin', Password: PASSWORD }) });
  if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
  return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
}

async function measureOn(dialect: Dialect, env: Record<string, string>, database: Db, dataDir: string): Promise<FullTextFigure> {
  process.stdout.write(`${dialect}: records`);
  await fillRecords(database);
  process.stdout.write(', sample through the indexer');
  const sample = await indexSample(database, dataDir, env.DATABASE_URL);
  process.stdout.write(', the rest straight into the index');
  const loadRate = await loadRest(database);
  const { textMb, indexMb } = await sizes(database);
  await database.close();
  process.stdout.write(', searches\n');
  // As `npm start` runs it: one worker per core (the test helper's default is one process).
  const server = await startServerProcess({ ...env, ADMIN_PASSWORD: PASSWORD, DEMO_DATA: '0', WORKERS: String(SEARCH_WORKERS) }, 300_000, { built: true });
  const queries: FullTextFigure['queries'] = [];
  try {
    const cookie = await login(server.url);
    for (const q of QUERIES) {
      const search = `/Xcx1/${articleResource.fullText!.call}?Text=${encodeURIComponent(q.text)}&PageSize=20`;
      const first = (await (await fetch(server.url + search, { headers: { cookie } })).json()) as { total: number; totalCapped: boolean; data: unknown[] };
      // Warmed up first, as the server bench warms up each call: the workers' code and their page caches.
      await autocannon({ url: server.url + search, headers: { cookie }, connections: CONNECTIONS, duration: 1 });
      const result = await autocannon({ url: server.url + search, headers: { cookie }, connections: CONNECTIONS, duration: SECONDS });
      queries.push({ name: q.name, text: q.text, p50: result.latency.p50, p99: result.latency.p99, rps: Math.round(result.requests.average), errors: result.errors + result.non2xx, total: first.totalCapped ? -first.total : first.total, budget: q.budget });
    }
  } finally {
    await server.stop();
  }
  const pages = DOCS * PAGES;
  return {
    dialect,
    pages,
    indexPagesPerSecond: sample.pagesPerSecond,
    samplePages: sample.pages,
    reindexSeconds: Math.round(pages / Math.max(1, sample.pagesPerSecond)),
    loadPagesPerSecond: loadRate,
    textMb,
    indexMb,
    queries,
  };
}

/** A throwaway PostgreSQL database: BENCH_DATABASE_URL's cluster, or one of scripts/pg-cluster.sh. */
async function postgresDatabase(): Promise<{ url: string; stop(): void } | undefined> {
  let clusterUrl = process.env.BENCH_DATABASE_URL;
  let stop = () => {};
  if (!clusterUrl) {
    if (process.env.BENCH_POSTGRES === '0') return undefined;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-bench-fulltext-pg-'));
    try {
      const started = execFileSync('scripts/pg-cluster.sh', ['start', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
      clusterUrl = started.trim().split('\n').at(-1)!;
      stop = () => execFileSync('scripts/pg-cluster.sh', ['stop', dir], { stdio: 'inherit' });
    } catch {
      console.log('PostgreSQL could not be started (see above): its full-text figures are left out.');
      return undefined;
    }
  }
  const admin = new pg.Client({ connectionString: clusterUrl });
  await admin.connect();
  await admin.query('drop database if exists zhishi_bench_fulltext');
  await admin.query('create database zhishi_bench_fulltext');
  await admin.end();
  const url = new URL(clusterUrl);
  url.pathname = '/zhishi_bench_fulltext';
  return { url: url.toString(), stop };
}

export async function benchFullText(): Promise<FullTextFigure[]> {
  const figures: FullTextFigure[] = [];
  if (process.env.BENCH_SQLITE !== '0') {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-bench-fulltext-'));
    try {
      const env = { DATA_DIR: dataDir, PUBLIC_DIR: path.join(dataDir, 'no-public') };
      figures.push(await measureOn('sqlite', env, await openDatabase({ dataDir }), dataDir));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const postgres = await postgresDatabase();
  if (postgres) {
    const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-bench-fulltext-pgdata-'));
    try {
      const env = { DATABASE_URL: postgres.url, DATA_DIR: pgDir, PUBLIC_DIR: path.join(pgDir, 'no-public') };
      figures.push(await measureOn('postgres', env, await openDatabase({ dataDir: pgDir, databaseUrl: postgres.url }), pgDir));
    } finally {
      fs.rmSync(pgDir, { recursive: true, force: true });
      postgres.stop();
    }
  }
  return figures;
}

export function fullTextBudgets(figures: readonly FullTextFigure[]): [label: string, met: boolean, value: string][] {
  const out: [string, boolean, string][] = [];
  for (const f of figures) {
    const db = f.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    for (const q of f.queries) {
      out.push([`全文 ${q.name} (${q.text}), ${f.pages.toLocaleString('en-US')} pages, p99 ≤ ${q.budget} ms at ${CONNECTIONS} connections, ${SEARCH_WORKERS} server processes (${db})`, q.p99 <= q.budget && q.errors === 0, `p50 ${q.p50} ms, p99 ${q.p99} ms, ${q.rps} req/s${q.errors ? `, ${q.errors} errors` : ''}`]);
    }
  }
  return out;
}

export function printFullText(figures: readonly FullTextFigure[]): void {
  console.log(`\n全文 (full-text search), ${DOCS.toLocaleString('en-US')} documents × ${PAGES} pages:`);
  console.log('| database | indexing (real path) | reindex of all, at that speed | written straight | text | index |');
  console.log('|---|---|---|---|---|---|');
  for (const f of figures) {
    console.log(`| ${f.dialect} | ${f.indexPagesPerSecond.toLocaleString('en-US')} pages/s (${f.samplePages} pages) | ${f.reindexSeconds.toLocaleString('en-US')} s | ${f.loadPagesPerSecond.toLocaleString('en-US')} pages/s | ${f.textMb} MB | ${f.indexMb} MB (× ${(f.indexMb / Math.max(1, f.textMb)).toFixed(2)}) |`);
  }
  console.log('| database | query | results | p50 ms | p99 ms | req/s |');
  console.log('|---|---|---|---|---|---|');
  for (const f of figures) for (const q of f.queries) console.log(`| ${f.dialect} | ${q.name}: ${q.text} | ${q.total < 0 ? `${-q.total}+` : q.total} | ${q.p50} | ${q.p99} | ${q.rps} |`);
  console.log('Budgets (full-text):');
  for (const [label, met, value] of fullTextBudgets(figures)) console.log(`  ${met ? 'MET    ' : 'NOT MET'}  ${label}: ${value}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
  const figures = await benchFullText();
  printFullText(figures);
  if (!fullTextBudgets(figures).every(([, met]) => met)) process.exitCode = 1;
}
