// npm run bench:ui: the admin app's figures on a desktop (the budgets of the app shell's rebuild).
//  1. Bundle: builds the app into a temporary directory (or reads UI_DIST, an existing build with
//     its Vite manifest) and adds up, per screen, the JavaScript and CSS loaded before its first
//     row (the entry and its static imports, the screen's lazy chunk and its static imports), raw
//     and gzip; lists the chunks that carry the heavy libraries (video.js, TipTap, dnd-kit, Uppy, mp4box).
//  2. A real server (own process, fresh SQLite with the demo data, lists filled to several pages
//     through the API, 10,000 classifications written straight into the file) serving that build.
//  3. Debian's Chromium (playwright-core), a fresh context per run, median of UI_RUNS (7) runs, no
//     CPU or network throttle: navigation start → first row painted on each main screen (every
//     entry of the menu, MENU_ENTRIES), and 下一页 click → new first row painted where there is a pager;
//     for information, the first row of a repeat visit (one context, its cache filled by a first visit).
//  4. The 10,000-category tree: response → tree painted, and expanding its root (for reference).
//     The server's render of that page (HTTP, no browser): its time alone (p50/p95), and /health's
//     latency while 50, 100 and 200 loads of it by one member run at once (how many were rendered).
//  5. Lighthouse 12 on each main screen, logged in by cookie: its desktop preset (the budget), the
//     median of LIGHTHOUSE_RUNS (5) runs per screen, and its layout shift (CLS) in every run; its
//     default mobile preset for information only, LIGHTHOUSE_MOBILE_RUNS (1) per screen (0: skipped).
// Prints a table and every budget as MET / NOT MET; writes bench-results/ui.json.
// Timings are of this machine as it is (its load average is printed and saved with them).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'vite';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import lighthouse, { desktopConfig, type Config } from 'lighthouse';
import { stealSince } from './cpuSteal';
import * as chromeLauncher from 'chrome-launcher';
import { MENU_ENTRIES, screenModule } from '../../schemas/index';
import { classifyResource } from '../../schemas/standardClassify';
import { FULL_TEXT_CALLS } from '../../schemas/fullText';
import { openDatabase, openSqlite } from '../../server/src/db/database';
import { rebuildCounts } from '../../server/src/db/rowCounts';
import { Client } from '../../tests/helpers/server';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/browser/chromium';
import { TREE_DATA_MARK } from '../../src/components/tree/marks';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RUNS = Number(process.env.UI_RUNS ?? 7);
const PASSWORD = 'bench-ui-password';
const TREE_SIZE = 10_000;
/** The document type whose catalogue carries the 10,000 classifications (公司通用文档). */
const TREE_TYPE = 3;
const KB = 1024;
/** What to measure besides the bundle (all by default): e.g. UI_PARTS=timing,tree while optimising. */
const PARTS = new Set((process.env.UI_PARTS ?? 'timing,tree,render,lighthouse').split(','));
/** Loads of the tree's page timed one after another for the server render's own time. */
const RENDER_RUNS = Number(process.env.UI_RENDER_RUNS ?? 30);
/** Loads of it at once by one member, while /health is timed. */
const RENDER_BURSTS = [50, 100, 200];
/** Which main screens to time and run Lighthouse on, by menu label (default all): e.g. UI_SCREENS=在线视频,操作日志. */
const ONLY = process.env.UI_SCREENS ? new Set(process.env.UI_SCREENS.split(',')) : undefined;

// ---------------------------------------------------------------------------------------------
// 1. Bundle
// ---------------------------------------------------------------------------------------------

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

interface Screen {
  name: string;
  path: string;
  /** The screen's lazily loaded module (a key of the manifest); none: the entry only. */
  src?: string;
  /** Timed and run through Lighthouse: a main screen (an entry of the menu). */
  main?: boolean;
}

/**
 * What counts as a screen's first row: a row of its table, an item of its list of cards or
 * articles (在线视频, 统一口径), or a figure it computed (<output>: 全文索引's counts, whose table of
 * failures is empty when nothing failed), inside the page's content (not the menu).
 */
const FIRST_ROW_SELECTOR = '#main-content table tbody tr, #main-content ul[aria-label] > li, #main-content output';

const SCREENS: Screen[] = [
  { name: '登录', path: '/login' },
  { name: '首页', path: '/' },
  ...MENU_ENTRIES.map((entry) => ({ name: entry.label, path: entry.to, src: screenModule(entry.screen), main: !ONLY || ONLY.has(entry.label) })),
];

/** Libraries loaded only where needed: which chunks carry them. */
const LIBRARIES: { name: string; test: RegExp }[] = [
  { name: 'video.js', test: /node_modules\/(video\.js|@videojs|m3u8-parser|mpd-parser|mux\.js)\// },
  { name: 'rich text (TipTap, ra-input-rich-text)', test: /node_modules\/(@tiptap|ra-input-rich-text|prosemirror-[a-z-]+)\// },
  { name: 'tree (@tanstack/react-virtual)', test: /node_modules\/@tanstack\/(react-virtual|virtual-core)\// },
  { name: 'drag and drop (dnd-kit)', test: /node_modules\/@dnd-kit\// },
  { name: 'upload (Uppy)', test: /node_modules\/@uppy\// },
  { name: 'mp4box', test: /node_modules\/mp4box\// },
];

interface Size {
  bytes: number;
  gzip: number;
  brotli: number;
}

function sizeOf(file: string): Size {
  const data = fs.readFileSync(file);
  return {
    bytes: data.length,
    gzip: zlib.gzipSync(data, { level: 9 }).length,
    brotli: zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

function addSizes(sizes: Size[]): Size {
  return sizes.reduce((a, b) => ({ bytes: a.bytes + b.bytes, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli }), { bytes: 0, gzip: 0, brotli: 0 });
}

/** A manifest entry and everything it imports statically, as output files (JS and CSS apart). */
function staticClosure(manifest: Manifest, keys: string[]): { js: Set<string>; css: Set<string> } {
  const js = new Set<string>();
  const css = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the Vite manifest`);
    js.add(chunk.file);
    for (const c of chunk.css ?? []) css.add(c);
    for (const i of chunk.imports ?? []) visit(i);
  };
  keys.forEach(visit);
  return { js, css };
}

/** Records which modules went into which output chunk (the manifest does not say). */
function moduleMap(into: Map<string, string[]>): Plugin {
  return {
    name: 'bench-module-map',
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type === 'chunk') into.set(output.fileName, output.moduleIds.map((id) => id.replaceAll('\\', '/')));
      }
    },
  };
}

async function buildApp(): Promise<{ dist: string; modules: Map<string, string[]> | null; seconds: number }> {
  if (process.env.UI_DIST) return { dist: path.resolve(process.env.UI_DIST), modules: null, seconds: 0 };
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-ui-dist-'));
  const modules = new Map<string, string[]>();
  const started = Date.now();
  await build({
    root: REPO,
    logLevel: 'warn',
    build: { outDir: dist, emptyOutDir: true, manifest: true },
    plugins: [moduleMap(modules)],
  });
  // The server's render of the app, as `npm run build` makes it (vite.config.ts).
  await build({ root: REPO, logLevel: 'warn', build: { ssr: 'src/ssr/render.tsx', outDir: path.join(dist, '.ssr') } });
  return { dist, modules, seconds: (Date.now() - started) / 1000 };
}

interface ScreenBundle {
  name: string;
  js: Size;
  css: Size;
  files: number;
}

function analyseBundle(dist: string, modules: Map<string, string[]> | null) {
  const manifestFile = path.join(dist, '.vite/manifest.json');
  if (!fs.existsSync(manifestFile)) throw new Error(`${manifestFile} is missing: build with build.manifest (vite.config.ts)`);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
  // The entry: the chunk index.html loads (its last module script, after the runtime it imports).
  // Vite's manifest marks it, except when the entry's module sits in a chunk group with a
  // top-level await (src/start/): then index.html names it.
  const entryScript = [...fs.readFileSync(path.join(dist, 'index.html'), 'utf8').matchAll(/<script type="module"[^>]*src="\/([^"]+)"/g)].at(-1)?.[1];
  const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry) ?? Object.keys(manifest).find((k) => manifest[k]!.file === entryScript);
  if (!entryKey) throw new Error('no entry in the Vite manifest, nor a module script of index.html in it');
  const appKeys = [entryKey];
  const sizes = new Map<string, Size>();
  const size = (file: string) => {
    if (!sizes.has(file)) sizes.set(file, sizeOf(path.join(dist, file)));
    return sizes.get(file)!;
  };
  // A module imported both on demand and by other chunks (the generated list) is keyed by its
  // chunk's name rather than its source: found through the chunk that holds it, which only the
  // bench's own build records (an existing build, UI_DIST, leaves such a screen out).
  const keyOf = (src: string): string | undefined => {
    if (manifest[src]) return src;
    const bySrc = Object.keys(manifest).find((k) => manifest[k]!.src === src);
    const file = [...(modules ?? [])].find(([, ids]) => ids.some((id) => id.endsWith(`/${src}`)))?.[0];
    const byFile = file ? Object.keys(manifest).find((k) => manifest[k]!.file === file) : undefined;
    const key = bySrc ?? byFile;
    if (!key && modules) throw new Error(`${src} is not in the Vite manifest`);
    if (!key) console.log(`  ${src}: merged into a shared chunk, not sized (UI_DIST has no module map)`);
    return key;
  };
  const unique = SCREENS.filter((s, i, all) => all.findIndex((o) => o.src === s.src) === i);
  const sized = unique.flatMap((screen) => {
    const key = screen.src ? keyOf(screen.src) : undefined;
    return screen.src && !key ? [] : [{ screen, key }];
  });
  const screens: ScreenBundle[] = sized.map(({ screen, key }) => {
    const { js, css } = staticClosure(manifest, key ? [...appKeys, key] : appKeys);
    // Screens sharing their code (the four catalogues) are one row, named by the first.
    const name = screen.src ? screen.name : '登录 / 首页';
    return { name, js: addSizes([...js].map(size)), css: addSizes([...css].map(size)), files: js.size + css.size };
  });
  const entry = staticClosure(manifest, appKeys);
  const libraries = modules
    ? LIBRARIES.map((lib) => {
        const chunks = [...modules].filter(([, ids]) => ids.some((id) => lib.test.test(id))).map(([file]) => file);
        // A library's chunks and what they import statically, less what the entry already loaded.
        const keys = Object.keys(manifest).filter((k) => chunks.includes(manifest[k]!.file));
        const closure = staticClosure(manifest, keys);
        const extra = [...closure.js, ...closure.css].filter((f) => !entry.js.has(f) && !entry.css.has(f));
        return {
          name: lib.name,
          chunks,
          inEntry: chunks.some((f) => entry.js.has(f)),
          size: addSizes(chunks.map(size)),
          withImports: addSizes(extra.map(size)),
        };
      })
    : null;
  const allJs = fs.readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.js'));
  return {
    entry: manifest[entryKey]!.file,
    screens,
    libraries,
    totalJs: addSizes(allJs.map((f) => size(`assets/${f}`))),
    chunkCount: allJs.length,
  };
}

// ---------------------------------------------------------------------------------------------
// 2. Server and data
// ---------------------------------------------------------------------------------------------

/** 10,000 classifications of one document type written into the SQLite file before the server starts. */
async function writeBigTree(dataDir: string) {
  const database = await openDatabase({ dataDir }); // runs the migrations
  await database.close();
  const db = openSqlite(path.join(dataDir, 'zhishi.sqlite'));
  let seed = 11;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const code = (i: number) => `bt${i.toString(16).padStart(10, '0')}`;
  db.transaction(() => {
    const insert = db.prepare('insert into DOC_CLASSIFY (SC_CODE, SC_FATHER_CODE, SC_NAME, SC_SORT, TYPE) values (?, ?, ?, ?, ?)');
    // 40 top-level classifications, every other one under an earlier one (depth grows slowly).
    for (let i = 0; i < TREE_SIZE; i++) insert.run(code(i), i < 40 ? '0' : code(Math.floor(rnd() * i)), `大树分类 ${i}`, i % 50, TREE_TYPE);
  })();
  db.close();
  const again = await openDatabase({ dataDir });
  await rebuildCounts(again.db as never, classifyResource);
  await again.close();
}

async function startServer(dataDir: string, dist: string, port: number): Promise<ChildProcess> {
  // Its own process group, so that tsx and the node it starts stop together.
  const child = spawn(path.join(REPO, 'node_modules/.bin/tsx'), ['server/src/server.ts'], {
    cwd: REPO,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG: '0', DEMO_DATA: '1', ADMIN_PASSWORD: PASSWORD, PUBLIC_DIR: dist },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('http://')) resolve();
    });
    child.once('exit', (c) => reject(new Error(`server exited with ${c}`)));
  });
  return child;
}

function stopServer(child: ChildProcess) {
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    // already gone
  }
}

async function must(res: Promise<{ status: number; body: { msg: string } }>, what: string) {
  const r = await res;
  if (r.status !== 200) throw new Error(`${what}: ${r.status} ${r.body.msg}`);
  return r;
}

/** Enough rows that every paged list has three pages or more (15 a page), added through the API. */
async function fillLists(admin: Client) {
  const N = 40;
  const n = (i: number) => String(i).padStart(2, '0');
  const types = await admin.get<{ VdtCode: string }[]>('/Ajax/GetVideoTypeListInAdmin', { All: 1, OrderName: 'VDT_SORT ASC' });
  const firstType = types.body.data[0]!.VdtCode;
  const topClass = async (service: 'Xcx1' | 'Xcx3', type: number) => {
    const list = await admin.get<{ ScCode: string; ScFatherCode: string }[]>(`/${service}/GetStandardClassifyListInAdmin`, { All: 1, type, OrderName: 'SC_SORT ASC' });
    const top = list.body.data.find((c) => c.ScFatherCode === '0');
    if (!top) throw new Error(`no classification of type ${type} on /${service}/ in the demo data`);
    return top.ScCode;
  };
  const docClass = await topClass('Xcx1', 0);
  const lawClass = await topClass('Xcx1', 1);
  const tykjClass = await topClass('Xcx3', 0);
  const jobs: (() => Promise<unknown>)[] = [];
  for (let i = 0; i < N; i++) {
    jobs.push(
      () => must(admin.call('/Ajax/AddVideoType', { VdtName: `性能分类 ${n(i)}`, VdtSort: 100 + i }), 'AddVideoType'),
      () => must(admin.call('/Ajax/AddVideo', { VdtCode: firstType, VdName: `性能视频 ${n(i)}`, VdPer: '讲师', VdUrl: '/files/demo/demo.mp4', VdTime: '2024-01-01' }), 'AddVideo'),
      () => must(admin.call('/Ajax/AddUseweb', { UwName: `性能网站 ${n(i)}`, UwUrl: `https://example.com/${i}` }), 'AddUseweb'),
      () => must(admin.call('/Xcx1/CreateStandardClassifyInAdmin', { ScName: `性能分类 ${n(i)}`, ScFatherCode: '0', type: 0, ScSort: 100 + i }), 'CreateStandardClassifyInAdmin'),
      () => must(admin.call('/Xcx1/AddStandardArticleInAdmin', { ScCode: docClass, SaName: `性能文章 ${n(i)}` }), 'AddStandardArticleInAdmin'),
      () => must(admin.call('/Xcx1/AddStandardArticleInAdmin', { ScCode: lawClass, SaName: `性能法规 ${n(i)}` }), 'AddStandardArticleInAdmin (type 1)'),
      () => must(admin.call('/Xcx3/AddStandardArticleInAdmin', { ScCode: tykjClass, SaName: `性能口径 ${n(i)}`, SaProblem: '<p>问题</p>', SaAnswer: '<p>回答</p>' }), 'Xcx3 AddStandardArticleInAdmin'),
      () =>
        must(
          admin.call('/Ajax/AddMember', { UserName: `perf${n(i)}`, AuName: `性能成员 ${n(i)}`, OrganizationName: '测试部', Password: 'password-123', IsAdmin: 0, Modules: { video: '2' } }),
          'AddMember',
        ),
    );
  }
  // A few at a time: the figures are not about the server, just quick to set up.
  for (let i = 0; i < jobs.length; i += 8) await Promise.all(jobs.slice(i, i + 8).map((job) => job()));
}

/**
 * Waits until the full-text indexer has read every record just added: its writes move the change
 * clock, so a page kept from the untimed pass would be rendered again in the middle of the timed runs.
 */
async function indexerIdle(admin: Client, timeoutMs = 180_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const state = await admin.get<{ Waiting: number }>(`/Ajax/${FULL_TEXT_CALLS.state}`, { PageSize: 1 });
    if (state.status !== 200) throw new Error(`GetFullTextIndexState: ${state.status} ${state.body.msg}`);
    if (state.body.data.Waiting === 0) return;
    if (Date.now() > until) {
      console.log(`  the full-text indexer still had ${state.body.data.Waiting} records waiting: kept pages may be rendered again`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

// ---------------------------------------------------------------------------------------------
// 3. Chromium
// ---------------------------------------------------------------------------------------------

// In-page code is plain JavaScript text: tsx (esbuild) would wrap TypeScript functions with
// helpers (__name) that do not exist in the page.

/**
 * Installed before the page's scripts: window.__bench.firstRow becomes performance.now() (ms since
 * navigation start) once the first row is in the DOM with a size and text, and painted (the task
 * after the next frame). Also the helpers the measurements below call.
 */
function pageScript(selector: string): string {
  return `(() => {
  const bench = (window.__bench = {});
  bench.painted = () => new Promise((resolve) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve(performance.now());
    channel.port2.postMessage(0);
  }));
  bench.until = (ok) => new Promise((resolve, reject) => {
    if (ok()) return resolve();
    let done = false;
    const stop = () => { done = true; observer.disconnect(); clearTimeout(timer); };
    const observer = new MutationObserver(() => { if (!done && ok()) { stop(); resolve(); } });
    // And on every frame: a page the browser takes over without changing it gives no more DOM
    // changes once its HTML is parsed, and a row is laid out only once the page may be drawn.
    const frame = () => { if (done) return; if (ok()) { stop(); resolve(); } else requestAnimationFrame(frame); };
    requestAnimationFrame(frame);
    // A step that never happens fails the run instead of holding the benchmark forever.
    const timer = setTimeout(() => { stop(); reject(new Error('waited 60 s in vain')); }, 60000);
    observer.observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
  });
  // The main thread idle: the screen's first effects (fetches ahead among them) have run.
  bench.idle = () => new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 20000 }));
  const selector = ${JSON.stringify(selector)};
  const shown = () => {
    const row = document.querySelector(selector);
    return !!row && row.getBoundingClientRect().height > 0 && !!row.textContent.trim();
  };
  bench.until(shown).then(bench.painted).then((t) => { bench.firstRow = t; });
})();`;
}

/** In the page: clicks 下一页 and answers the ms until a different first row has been painted. */
function pageChangeScript(selector: string): string {
  return `(async () => {
  const bench = window.__bench;
  const firstText = () => (document.querySelector(${JSON.stringify(selector)}) || {}).textContent || '';
  const before = firstText();
  await bench.idle();
  const next = document.querySelector('button[aria-label="下一页"]');
  if (!next || next.disabled) throw new Error('no 下一页 to click');
  const started = performance.now();
  next.click();
  await bench.until(() => { const text = firstText(); return !!text && text !== before; });
  return (await bench.painted()) - started;
})()`;
}

/**
 * In the page: the 10,000-category tree's render time, from the app's mark (its rows reach the
 * tree) to painted, and from the arrival of both its rows and its code (which also counts the
 * rest of the page rendering meanwhile); then its root collapsed and expanded.
 */
const TREE_SCRIPT = `(async () => {
  const bench = window.__bench;
  const entries = performance.getEntriesByType('resource');
  const response = entries.find((e) => e.name.includes('GetStandardClassifyListInAdmin'));
  if (!response) throw new Error('the classification request was not seen');
  // Rendering starts once both the rows and the tree's code (a chunk of its own) are there.
  const ready = Math.max(response.responseEnd, ...entries.filter((e) => e.name.includes('/assets/CategoryTree-')).map((e) => e.responseEnd));
  const items = () => document.querySelectorAll('[role="treeitem"]');
  if (items()[0].getAttribute('aria-expanded') !== 'true') throw new Error('the root is not open');
  // The chevron (first icon of the row) toggles; the whole tree is open by default.
  const toggle = () => items()[0].querySelector('svg').dispatchEvent(new MouseEvent('click', { bubbles: true }));
  let started = performance.now();
  toggle();
  await bench.until(() => items().length === 1);
  const collapse = (await bench.painted()) - started;
  started = performance.now();
  toggle();
  await bench.until(() => items().length > 1);
  const expand = (await bench.painted()) - started;
  // The tree's own build and render: from the app's mark (the rows reach the tree) to painted.
  const mark = performance.getEntriesByName(${JSON.stringify(TREE_DATA_MARK)}).at(-1);
  if (!mark) throw new Error('the tree set no ${TREE_DATA_MARK} mark');
  return { firstRow: bench.firstRow, render: bench.firstRow - mark.startTime, fromArrival: bench.firstRow - ready, collapse, expand };
})()`;

const FIRST_ROW_SEEN = 'window.__bench && window.__bench.firstRow !== undefined';
const FIRST_ROW = 'window.__bench.firstRow';

async function newContext(browser: Browser, base: string, cookie: string): Promise<BrowserContext> {
  // bypassCSP: the measuring predicates run through Playwright's evaluate, which the server's CSP
  // (script-src 'self', no eval) would refuse; the app itself loads exactly as under the policy.
  const context = await browser.newContext({ baseURL: base, locale: 'zh-CN', viewport: { width: 1366, height: 900 }, bypassCSP: true });
  const [name, ...value] = cookie.split('=');
  await context.addCookies([{ name: name!, value: value.join('='), url: base }]);
  context.setDefaultTimeout(60_000);
  return context;
}

interface RunResult {
  firstRow: number;
  /** When the page's HTML had arrived (the navigation's responseEnd): the server's share of the first row. */
  htmlArrived: number;
  /** How the server sent the page (its Server-Timing): rendered now, kept from an earlier render, or plain (none). */
  served: string;
  pageChange?: number;
}

const HTML_ARRIVED = `Math.round(performance.getEntriesByType('navigation')[0].responseEnd)`;
const SERVED = `(performance.getEntriesByType('navigation')[0].serverTiming.find((e) => e.name === 'render') || { description: 'plain' }).description`;

/** Loads asked with this parameter, numbered, are each an address of their own: the server renders them anew. */
let freshLoads = 0;
const freshPath = (pathName: string) => `${pathName}${pathName.includes('?') ? '&' : '?'}fresh=${++freshLoads}`;

/** In the page: whether there is a 下一页 to click (the list has a second page). */
const HAS_NEXT_PAGE = `(() => { const next = document.querySelector('button[aria-label="下一页"]'); return !!next && !next.disabled; })()`;

/**
 * One load of a screen: navigation start to its first row painted, then (`pageChange`) a click on
 * 下一页. A first visit opens a context of its own (an empty cache); a repeat visit opens a page in
 * `shared`, whose cache already holds the app's files and Chromium's compiled code.
 */
async function measureScreen(browser: Browser, base: string, cookie: string, screen: Screen, shared?: BrowserContext, pageChange = true, fresh = false): Promise<RunResult> {
  const context = shared ?? (await newContext(browser, base, cookie));
  const page = await context.newPage();
  try {
    page.on('pageerror', (error) => console.error(`[page error on ${screen.path}] ${error.message}`));
    await page.addInitScript({ content: pageScript(FIRST_ROW_SELECTOR) });
    await page.goto(fresh ? freshPath(screen.path) : screen.path, { waitUntil: 'commit' });
    await page.waitForFunction(FIRST_ROW_SEEN, undefined, { polling: 50 });
    const firstRow = await page.evaluate<number>(FIRST_ROW);
    const htmlArrived = await page.evaluate<number>(HTML_ARRIVED);
    const served = await page.evaluate<string>(SERVED);
    if (!pageChange) return { firstRow, htmlArrived, served };
    // Let the screen's other requests settle: the page change is measured on its own.
    await page.waitForLoadState('networkidle');
    if (!(await page.evaluate<boolean>(HAS_NEXT_PAGE))) return { firstRow, htmlArrived, served };
    return { firstRow, htmlArrived, served, pageChange: await page.evaluate<number>(pageChangeScript(FIRST_ROW_SELECTOR)) };
  } finally {
    await (shared ? page.close() : context.close());
  }
}

/**
 * Repeat visits, as staff open the admin every day (its hashed files are cached for a year): one
 * context, a first untimed visit, then the median first row of RUNS more. For information.
 */
async function measureRepeatVisits(browser: Browser, base: string, cookie: string, screen: Screen): Promise<number> {
  const context = await newContext(browser, base, cookie);
  try {
    await measureScreen(browser, base, cookie, screen, context, false, true);
    const runs: number[] = [];
    for (let i = 0; i < RUNS; i++) runs.push((await measureScreen(browser, base, cookie, screen, context, false, true)).firstRow);
    return median(runs);
  } finally {
    await context.close();
  }
}

/** The catalogue whose tree holds the 10,000 classifications, and the screen it is opened from. */
const TREE_ENTRY = MENU_ENTRIES.find((e) => e.screen.component === 'article/ArticleCatalogue' && new URL(e.to, 'http://app').searchParams.get('type') === String(TREE_TYPE));
const TREE_FROM = MENU_ENTRIES.find((e) => e.screen.component !== 'article/ArticleCatalogue');

/** The 10,000-category tree, opened from the menu: response → first tree row painted, collapsing and expanding its root. */
async function measureTree(browser: Browser, base: string, cookie: string) {
  if (!TREE_ENTRY || !TREE_FROM) throw new Error(`no menu entry of the catalogue of type ${TREE_TYPE}`);
  const context = await newContext(browser, base, cookie);
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: pageScript('[role="treeitem"]') });
    // Opened from the menu of another screen, as staff reach it: the app's code is there, the
    // catalogue's own chunk, the tree's rows and its code are not.
    await page.goto(TREE_FROM.to);
    await page.evaluate('new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 20000 }))');
    await page.locator(`a[href="${TREE_ENTRY.to}"]`).first().click();
    await page.waitForFunction(FIRST_ROW_SEEN, undefined, { polling: 50 });
    return await page.evaluate<{ firstRow: number; render: number; fromArrival: number; collapse: number; expand: number }>(TREE_SCRIPT);
  } finally {
    await context.close();
  }
}

/** The q-th quantile (0–1) of `values`, nearest rank. */
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
};

/** One load of a page over HTTP with the member's cookie: its time to the last byte and whether the server rendered it. */
async function loadPage(base: string, cookie: string, pathName: string): Promise<{ ms: number; rendered: boolean; bytes: number }> {
  const started = performance.now();
  const response = await fetch(base + pathName, { headers: { cookie } });
  const html = await response.text();
  if (response.status !== 200) throw new Error(`${pathName}: ${response.status}`);
  return { ms: performance.now() - started, rendered: html.includes('id="page-state"'), bytes: html.length };
}

interface RenderBurst {
  loads: number;
  rendered: number;
  loadP50: number;
  loadP95: number;
  healthP50: number;
  healthP95: number;
  healthMax: number;
  healthSamples: number;
  seconds: number;
}

/**
 * The server's render of the tree's page: its time alone (one load after another), then bursts of
 * page loads at once by one member with /health asked every 50 ms until the burst is answered.
 */
async function measureRender(base: string, cookie: string, pathName: string) {
  // The app's code in the render worker, and the screen's own, load with the first pages.
  for (let i = 0; i < 3; i++) await loadPage(base, cookie, pathName);
  const alone = [];
  for (let i = 0; i < RENDER_RUNS; i++) alone.push(await loadPage(base, cookie, pathName));
  const renderedAlone = alone.filter((l) => l.rendered).length;
  const bursts: RenderBurst[] = [];
  for (const count of RENDER_BURSTS) {
    const started = performance.now();
    let done = false;
    const loads = Promise.all(Array.from({ length: count }, () => loadPage(base, cookie, pathName))).finally(() => (done = true));
    const health: number[] = [];
    while (!done) {
      const asked = performance.now();
      const response = await fetch(`${base}/health`);
      await response.arrayBuffer();
      health.push(performance.now() - asked);
      if (!done) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const answered = await loads;
    const ms = answered.map((l) => l.ms);
    bursts.push({
      loads: count,
      rendered: answered.filter((l) => l.rendered).length,
      loadP50: quantile(ms, 0.5),
      loadP95: quantile(ms, 0.95),
      healthP50: quantile(health, 0.5),
      healthP95: quantile(health, 0.95),
      healthMax: Math.max(...health),
      healthSamples: health.length,
      seconds: (performance.now() - started) / 1000,
    });
    console.log(`  ${count} loads at once: ${bursts.at(-1)!.rendered} rendered, /health p95 ${ms95(health)} ms`);
    // The next burst starts with the member's renders over.
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  const times = alone.map((l) => l.ms);
  return { path: pathName, bytes: Math.max(...alone.map((l) => l.bytes)), runs: RENDER_RUNS, renderedAlone, p50: quantile(times, 0.5), p95: quantile(times, 0.95), bursts };
}

const ms95 = (values: number[]) => Math.round(quantile(values, 0.95));

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

// ---------------------------------------------------------------------------------------------
// 5. Lighthouse
// ---------------------------------------------------------------------------------------------


/**
 * Runs per screen; the screen's figures are those of its median run by performance score.
 * Lighthouse's own advice on its variability: one run's score moves by several points with the
 * machine's state, so report the median of five (lighthouse-ci takes the median run likewise).
 */
const LIGHTHOUSE_RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 5);
/** The mobile preset is printed for information, not a budget: fewer runs. */
const LIGHTHOUSE_MOBILE_RUNS = Number(process.env.LIGHTHOUSE_MOBILE_RUNS ?? 1);

/** Lighthouse's presets: desktop (1× CPU, its desktop network), and its default, a mid-range phone. */
const PRESETS = {
  desktop: { label: 'desktop', config: desktopConfig as Config | undefined, runs: LIGHTHOUSE_RUNS },
  mobile: { label: 'mobile (information only)', config: undefined as Config | undefined, runs: LIGHTHOUSE_MOBILE_RUNS },
};
type Preset = keyof typeof PRESETS;

interface LighthouseScore {
  name: string;
  performance: number;
  accessibility: number;
  lcp: number;
  tbt: number;
  cls: number;
  /** Every run's performance score, in the order run. */
  runs: number[];
  /** Every run's cumulative layout shift, in the order run. */
  clsRuns: number[];
}

async function lighthouseScores(base: string, cookie: string, preset: Preset): Promise<LighthouseScore[]> {
  const { config, runs: count } = PRESETS[preset];
  const screens = SCREENS.filter((s) => s.main);
  const runs = new Map<string, Omit<LighthouseScore, 'runs' | 'clsRuns'>[]>(screens.map((screen) => [screen.name, []]));
  // Round by round over the screens, so that a busy spell of the machine falls on one run of each
  // rather than on every run of one.
  for (let round = 0; round < count; round++) {
    for (const screen of screens) {
      // A browser of its own per run, as Lighthouse's command line does.
      const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_ARGS, logLevel: 'silent' });
      try {
        const lhr = await lighthouseRun(base + screen.path, chrome.port, cookie, config);
        // Every run's whole report, to read its long tasks and scripts (UI_LIGHTHOUSE_DIR).
        if (process.env.UI_LIGHTHOUSE_DIR) {
          fs.mkdirSync(process.env.UI_LIGHTHOUSE_DIR, { recursive: true });
          fs.writeFileSync(path.join(process.env.UI_LIGHTHOUSE_DIR, `${preset}-${screen.name}-${round + 1}.json`), JSON.stringify(lhr));
        }
        const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
        runs.get(screen.name)!.push({
          name: screen.name,
          performance: score('performance'),
          accessibility: score('accessibility'),
          lcp: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? NaN),
          tbt: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? NaN),
          cls: Number((lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN).toFixed(3)),
        });
        const failing = Object.values(lhr.categories.accessibility?.auditRefs ?? [])
          .map((ref) => lhr.audits[ref.id])
          .filter((a) => a && a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
          .map((a) => a!.id);
        if (failing.length) console.log(`  ${screen.name}: accessibility audits failing: ${failing.join(', ')}`);
        console.log(
          `  lighthouse ${preset} ${screen.name} (run ${round + 1} of ${count}): performance ${score('performance')}, accessibility ${score('accessibility')}, LCP ${Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? NaN)} ms, TBT ${Math.round(lhr.audits['total-blocking-time']?.numericValue ?? NaN)} ms, CLS ${runs.get(screen.name)!.at(-1)!.cls}`,
        );
      } finally {
        chrome.kill();
      }
    }
  }
  return screens.map((screen) => {
    const all = runs.get(screen.name)!;
    const byScore = [...all].sort((a, b) => a.performance - b.performance);
    return { ...byScore[Math.floor((byScore.length - 1) / 2)]!, runs: all.map((r) => r.performance), clsRuns: all.map((r) => r.cls) };
  });
}

/** One Lighthouse run with a preset's config (none: its default, the mobile preset). */
async function lighthouseRun(url: string, port: number, cookie: string, config: Config | undefined) {
  const run = () =>
    lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'], extraHeaders: { Cookie: cookie } }, config);
  let lhr = (await run())?.lhr;
  // Lighthouse's own trace sometimes lacks its navigation start or first paint (NO_NAVSTART,
  // NO_FCP on a busy machine): that run says nothing about the page, so it is run again, up to
  // twice; an error that stays is the page's and stops the bench.
  for (let retry = 0; retry < 2 && lhr?.runtimeError; retry++) {
    console.log(`  lighthouse ${url}: ${lhr.runtimeError.code}, run again`);
    lhr = (await run())?.lhr;
  }
  if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
  if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
  return lhr;
}

// ---------------------------------------------------------------------------------------------

const kb = (n: number) => (n / KB).toFixed(1);
const ms = (n: number | undefined) => (n === undefined ? '–' : String(Math.round(n)));

function printScores(preset: Preset, scores: LighthouseScore[]) {
  const { label, runs } = PRESETS[preset];
  console.log(`\nLighthouse ${label}: the median of ${runs} run(s) per screen (its LCP, TBT and CLS are that run's)`);
  console.log(`\n| screen | performance (${preset}) | every run | accessibility | LCP ms | TBT ms | CLS |\n|---|---|---|---|---|---|---|`);
  for (const s of scores) console.log(`| ${s.name} | ${s.performance} | ${s.runs.join(', ')} | ${s.accessibility} | ${s.lcp} | ${s.tbt} | ${s.cls} |`);
}

async function main() {
  const started = Date.now();
  const load = os.loadavg();
  const steal = stealSince();
  console.log(`load average ${load.map((l) => l.toFixed(2)).join(' ')} on ${os.cpus().length} cores`);

  const built = await buildApp();
  console.log(built.seconds ? `built in ${built.seconds.toFixed(1)} s into ${built.dist}` : `using the build in ${built.dist}`);
  const bundle = analyseBundle(built.dist, built.modules);
  console.log(`\nentry ${bundle.entry}; ${bundle.chunkCount} JS files, ${kb(bundle.totalJs.gzip)} KB gzip in all`);
  console.log('\n| screen | initial JS KB | gzip | brotli | CSS KB | gzip | files |\n|---|---|---|---|---|---|---|');
  for (const s of bundle.screens) console.log(`| ${s.name} | ${kb(s.js.bytes)} | ${kb(s.js.gzip)} | ${kb(s.js.brotli)} | ${kb(s.css.bytes)} | ${kb(s.css.gzip)} | ${s.files} |`);
  if (bundle.libraries) {
    console.log('\n| library | chunks | KB | gzip | gzip with its imports | in the entry |\n|---|---|---|---|---|---|');
    for (const l of bundle.libraries) {
      console.log(`| ${l.name} | ${l.chunks.join(', ')} | ${kb(l.size.bytes)} | ${kb(l.size.gzip)} | ${kb(l.withImports.gzip)} | ${l.inEntry ? 'yes' : 'no'} |`);
    }
  }

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-ui-bench-'));
  await writeBigTree(dataDir);
  const port = 19000 + Math.floor(Math.random() * 1000);
  const server = await startServer(dataDir, built.dist, port);
  const base = `http://127.0.0.1:${port}`;
  let browser: Browser | undefined;
  try {
    const admin = new Client(base);
    await admin.login('admin', PASSWORD);
    await fillLists(admin);
    await indexerIdle(admin);
    const cookie = admin.cookie;

    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const timed = PARTS.has('timing') ? SCREENS.filter((s) => s.main) : [];
    // One untimed pass: the server's and Chromium's first-use costs are not the app's.
    for (const screen of timed) await measureScreen(browser, base, cookie, screen);
    const timings: { name: string; path: string; firstRow: number; htmlArrived: number; firstRowKept: number; htmlKept: number; pageChange?: number; repeatVisit: number; runs: RunResult[] }[] = [];
    for (const screen of timed) {
      // First visits of a page the server renders now (an address of its own each time: the
      // figure the budget is checked on), then of the page it kept from the untimed pass.
      const runs: RunResult[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await measureScreen(browser, base, cookie, screen, undefined, true, true));
      const keptRuns: RunResult[] = [];
      for (let i = 0; i < RUNS; i++) keptRuns.push(await measureScreen(browser, base, cookie, screen, undefined, false));
      const odd = [...runs.filter((r) => r.served !== 'rendered'), ...keptRuns.filter((r) => r.served !== 'kept')];
      if (odd.length) console.log(`  ${screen.name}: ${odd.length} load(s) not served as asked (${odd.map((r) => r.served).join(', ')}): their figures mix the two`);
      const changes = runs.map((r) => r.pageChange).filter((v): v is number => v !== undefined);
      const repeatVisit = await measureRepeatVisits(browser, base, cookie, screen);
      const row = {
        name: screen.name,
        path: screen.path,
        firstRow: median(runs.map((r) => r.firstRow)),
        htmlArrived: median(runs.map((r) => r.htmlArrived)),
        firstRowKept: median(keptRuns.map((r) => r.firstRow)),
        htmlKept: median(keptRuns.map((r) => r.htmlArrived)),
        pageChange: changes.length ? median(changes) : undefined,
        repeatVisit,
        runs: [...runs, ...keptRuns],
      };
      timings.push(row);
      console.log(
        `  ${screen.name}: first row ${ms(row.firstRow)} ms rendered now (HTML arrived ${ms(row.htmlArrived)} ms), ${ms(row.firstRowKept)} ms kept (HTML ${ms(row.htmlKept)} ms); repeat visit ${ms(repeatVisit)} ms; page change ${ms(row.pageChange)} ms`,
      );
    }
    let tree: { firstRow: number; render: number; fromArrival: number; collapse: number; expand: number; runs: unknown[] } | undefined;
    if (PARTS.has('tree')) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await measureTree(browser, base, cookie));
      tree = {
        firstRow: median(runs.map((r) => r.firstRow)),
        render: median(runs.map((r) => r.render)),
        fromArrival: median(runs.map((r) => r.fromArrival)),
        collapse: median(runs.map((r) => r.collapse)),
        expand: median(runs.map((r) => r.expand)),
        runs,
      };
      console.log(`  tree of ${TREE_SIZE}: first row ${ms(tree.firstRow)} ms, render ${ms(tree.render)} ms (${ms(tree.fromArrival)} from arrival), expand ${ms(tree.expand)} ms`);
    }
    await browser.close();
    browser = undefined;

    let render: Awaited<ReturnType<typeof measureRender>> | undefined;
    if (PARTS.has('render')) {
      if (!TREE_ENTRY) throw new Error(`no menu entry of the catalogue of type ${TREE_TYPE}`);
      render = await measureRender(base, cookie, TREE_ENTRY.to);
    }

    const lighthouseOn = PARTS.has('lighthouse');
    const scores = lighthouseOn ? await lighthouseScores(base, cookie, 'desktop') : [];
    const mobileScores = lighthouseOn && LIGHTHOUSE_MOBILE_RUNS > 0 ? await lighthouseScores(base, cookie, 'mobile') : [];

    console.log(`\nChromium ${CHROMIUM_PATH}, no throttle, median of ${RUNS} runs, fresh context each; load average now ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; CPU steal by the host ${steal() ?? 'unknown'} %`);
    console.log('\n| screen | first row ms (page rendered now) | its HTML arrived ms | first row ms, page kept | its HTML arrived ms | page change ms | first row, repeat visit ms (information) |\n|---|---|---|---|---|---|---|');
    for (const t of timings) console.log(`| ${t.name} | ${ms(t.firstRow)} | ${ms(t.htmlArrived)} | ${ms(t.firstRowKept)} | ${ms(t.htmlKept)} | ${ms(t.pageChange)} | ${ms(t.repeatVisit)} |`);
    if (tree) {
      console.log(`\n| tree of ${TREE_SIZE.toLocaleString()} | first row ms | render ms (rows reach the tree → painted) | from arrival of rows and code ms | collapse ms | expand ms |\n|---|---|---|---|---|---|`);
      console.log(`| 1× CPU | ${ms(tree.firstRow)} | ${ms(tree.render)} | ${ms(tree.fromArrival)} | ${ms(tree.collapse)} | ${ms(tree.expand)} |`);
    }
    if (render) {
      console.log(
        `\nServer render of ${render.path} (${TREE_ENTRY!.label}, ${Math.round(render.bytes / KB)} KB of HTML), over HTTP without a browser: ` +
          `alone ${ms(render.p50)} ms p50, ${ms(render.p95)} ms p95 (${render.renderedAlone} of ${render.runs} rendered); one member's loads at once:`,
      );
      console.log('\n| loads at once | rendered | page load p50 ms | p95 ms | /health p50 ms | p95 ms | max ms | /health asked | s |\n|---|---|---|---|---|---|---|---|---|');
      for (const b of render.bursts) {
        console.log(`| ${b.loads} | ${b.rendered} | ${ms(b.loadP50)} | ${ms(b.loadP95)} | ${ms(b.healthP50)} | ${ms(b.healthP95)} | ${ms(b.healthMax)} | ${b.healthSamples} | ${b.seconds.toFixed(1)} |`);
      }
    }
    if (scores.length) printScores('desktop', scores);
    if (mobileScores.length) printScores('mobile', mobileScores);

    const firstScreen = bundle.screens.find((s) => s.name === '登录 / 首页')!;
    const listScreens = bundle.screens.filter((s) => s !== firstScreen);
    const worstJs = listScreens.reduce((a, b) => (b.js.gzip > a.js.gzip ? b : a));
    const worst = (key: 'firstRow' | 'pageChange') =>
      timings.filter((t) => t[key] !== undefined).reduce<(typeof timings)[number] | undefined>((a, b) => (!a || b[key]! > a[key]! ? b : a), undefined);
    const row = worst('firstRow');
    const change = worst('pageChange');
    const slowest = (t: (typeof timings)[number] | undefined, key: 'firstRow' | 'pageChange') => (t ? `slowest ${ms(t[key])} ms (${t.name})` : 'not measured');
    const minScore = (list: LighthouseScore[], key: 'performance' | 'accessibility') => (list.length ? list.reduce((a, b) => (b[key] < a[key] ? b : a)) : undefined);
    const perf = minScore(scores, 'performance');
    const a11y = minScore(scores, 'accessibility');
    // Every run of every screen, not only the median one: a page that moves once is a page that moves.
    const shifted = scores.filter((s) => s.clsRuns.some((cls) => cls !== 0));
    const shifts = !scores.length ? 'not run' : shifted.length ? shifted.map((s) => `${s.name} ${s.clsRuns.join(', ')}`).join('; ') : `0 in all ${LIGHTHOUSE_RUNS} runs of each`;
    const budgets: [string, boolean, string][] = [
      ['initial JavaScript of the first screen (login, then home) ≤ 300 KB gzip', firstScreen.js.gzip <= 300 * KB, `${kb(firstScreen.js.gzip)} KB`],
      ['first row within 600 ms (every main screen)', !!row && row.firstRow <= 600, slowest(row, 'firstRow')],
      ['page change within 100 ms (every main screen with a pager)', !!change && change.pageChange! <= 100, slowest(change, 'pageChange')],
      [`Lighthouse desktop performance ≥ 95 (every main screen, median of ${LIGHTHOUSE_RUNS} runs)`, !!perf && perf.performance >= 95, perf ? `lowest ${perf.performance} (${perf.name})` : 'not run'],
      ['Lighthouse desktop accessibility ≥ 95 (every main screen)', !!a11y && a11y.accessibility >= 95, a11y ? `lowest ${a11y.accessibility} (${a11y.name})` : 'not run'],
      ['Lighthouse desktop layout shift 0 (every main screen, every run)', scores.length > 0 && shifted.length === 0, shifts],
    ];
    console.log('\nBudgets (targets, not timed tests):');
    for (const [label, met, value] of budgets) console.log(`  ${met ? 'MET    ' : 'NOT MET'}  ${label}: ${value}`);
    console.log('For reference, not budgets:');
    console.log(`  initial JavaScript of the heaviest main screen opened directly: ${kb(worstJs.js.gzip)} KB gzip (${worstJs.name})`);
    if (timings.length) {
      const repeat = timings.map((t) => t.repeatVisit);
      console.log(`  first row on a repeat visit (the app's files cached): ${ms(Math.min(...repeat))}–${ms(Math.max(...repeat))} ms`);
    }
    if (tree) console.log(`  tree of ${TREE_SIZE.toLocaleString()}: renders in ${ms(tree.render)} ms, expands in ${ms(tree.expand)} ms`);
    if (render) {
      const worst = render.bursts.reduce((a, b) => (b.healthP95 > a.healthP95 ? b : a));
      console.log(`  server render of the tree's page: ${ms(render.p50)} ms p50, ${ms(render.p95)} ms p95; /health p95 ${ms(worst.healthP95)} ms at worst (${worst.loads} loads at once by one member)`);
    }
    const mobilePerf = minScore(mobileScores, 'performance');
    if (mobilePerf) console.log(`  Lighthouse mobile performance: lowest ${mobilePerf.performance} (${mobilePerf.name}), median of ${LIGHTHOUSE_MOBILE_RUNS} run(s)`);

    fs.mkdirSync(path.join(REPO, 'bench-results'), { recursive: true });
    const out = path.join(REPO, 'bench-results/ui.json');
    fs.writeFileSync(
      out,
      JSON.stringify(
        {
          when: new Date().toISOString(),
          loadAverageAtStart: load,
          loadAverageAtEnd: os.loadavg(),
          stealPercent: steal(),
          cores: os.cpus().length,
          runs: RUNS,
          bundle,
          timings,
          tree,
          render,
          lighthouse: { desktop: scores, mobile: mobileScores },
          budgets,
          seconds: (Date.now() - started) / 1000,
        },
        null,
        2,
      ),
    );
    console.log(`\nwritten: bench-results/ui.json (${((Date.now() - started) / 1000).toFixed(0)} s in all)`);
  } finally {
    await browser?.close();
    stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (!process.env.UI_DIST) fs.rmSync(built.dist, { recursive: true, force: true });
  }
}

await main();
