// Server-side rich text. Sanitising (the shared allow-list of schemas/richText.ts, DOMPurify over
// jsdom: server/src/richTextSanitizer.ts) runs in one worker thread, never on the event loop: the
// longest text takes a second or two of work, which no other request waits for. The worker is started
// on first use and stopped when idle (jsdom takes some 50 MB, which a server that only answers
// reads never needs); it takes one text at a time, so its memory is that of one text at most, and
// each text has a time limit and the worker a heap limit. Reading stored rich text (its plain text
// for the audit log, whether it is empty) is a linear scan here, without jsdom: it runs inside a
// write's transaction.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { RICH_TEXT_MAX_DEPTH, RICH_TEXT_MAX_NODES } from '../../schemas/richText';
import type { RichTextJob, RichTextReply } from './richTextWorker';

/** Rich text the server will not store as it is: the message says why, in Chinese. */
export class RichTextRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RichTextRefused';
  }
}

export const MSG_TOO_DEEP = `内容嵌套层数过多，最多${RICH_TEXT_MAX_DEPTH}层`;
export const MSG_TOO_MANY_NODES = `内容结构过于复杂，标签和文字段合计最多${RICH_TEXT_MAX_NODES}个`;
export const MSG_TOO_COMPLEX = '内容过于复杂，无法处理';

/** The rich-text worker's limits (changed by tests only). */
export const richTextWorkerLimits = {
  /**
   * A text's own time in the worker, a last defence: past it the worker is stopped and the text
   * refused. The parse limits make 2.3 s the most seen (25,000 nodes, on a loaded 2-core host).
   */
  jobMs: 20_000,
  /** An idle worker is stopped after this, and its memory given back. */
  idleMs: 120_000,
};
/** The worker's heap: jsdom and the densest text allowed (25,000 nodes) fit well within it. */
const WORKER_HEAP_MB = 192;
/** Its young generation, small as the server's own (`--max-semi-space-size=4` in npm start): less memory held between texts. */
const WORKER_YOUNG_MB = 12;

// The compiled server (scripts/build-server.mjs) runs richTextWorker.mjs beside itself; the
// sources (tsx, vitest) run richTextWorker.ts through tsx's loader, registered in the worker (a
// parent's loader does not reach worker threads on Node 20).
const FROM_SOURCES = import.meta.url.endsWith('.ts');
const WORKER_FILE = new URL(FROM_SOURCES ? './richTextWorker.ts' : './richTextWorker.mjs', import.meta.url);

function startWorker(): Worker {
  const options = {
    name: 'rich-text',
    // No flags of the parent (V8 and loader flags are the process's, or do not apply to workers).
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
  };
  if (!FROM_SOURCES) return new Worker(WORKER_FILE, options);
  // tsx's ES module API, as its package.json exports it (`tsx/esm/api`, the "import" condition).
  const require = createRequire(import.meta.url);
  const tsxPackage = require.resolve('tsx/package.json');
  const { exports } = require(tsxPackage) as { exports: Record<string, { import?: { default?: string } }> };
  const tsxApi = pathToFileURL(path.join(path.dirname(tsxPackage), exports['./esm/api']!.import!.default!)).href;
  const code = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(WORKER_FILE.href)}); });`;
  return new Worker(code, { ...options, eval: true });
}

interface Pending {
  id: number;
  html: string;
  resolve(html: string): void;
  reject(err: Error): void;
}

const queue: Pending[] = [];
let current: Pending | undefined;
let worker: Worker | undefined;
let ready = false;
let nextId = 1;
let started = 0;
let jobTimer: NodeJS.Timeout | undefined;
let idleTimer: NodeJS.Timeout | undefined;

function pump(): void {
  if (current || queue.length === 0) return;
  clearTimeout(idleTimer);
  if (!worker) worker = launch();
  // Queued work keeps the process alive (a script's save); an idle worker does not.
  worker.ref();
  if (!ready) return; // 'ready' pumps again.
  const job = queue.shift()!;
  current = job;
  started++;
  const w = worker;
  jobTimer = setTimeout(() => drop(w, new RichTextRefused(MSG_TOO_COMPLEX)), richTextWorkerLimits.jobMs);
  w.postMessage({ id: job.id, html: job.html } satisfies RichTextJob);
}

function launch(): Worker {
  const w = startWorker();
  ready = false;
  w.on('message', (reply: RichTextReply) => {
    if (w !== worker) return;
    if (reply.type === 'ready') {
      ready = true;
      pump();
      return;
    }
    const job = current;
    if (!job || reply.id !== job.id) return;
    current = undefined;
    clearTimeout(jobTimer);
    if (reply.type === 'done') job.resolve(reply.html);
    else if (reply.type === 'refused') job.reject(new RichTextRefused(reply.reason === 'depth' ? MSG_TOO_DEEP : MSG_TOO_MANY_NODES));
    else job.reject(new Error(`rich-text worker: ${reply.message}`));
    if (queue.length > 0) pump();
    else {
      w.unref();
      idleTimer = setTimeout(() => drop(w), richTextWorkerLimits.idleMs).unref();
    }
  });
  w.on('error', (err: Error & { code?: string }) => {
    // Past its heap limit, the text it was working on is what did it.
    drop(w, err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new RichTextRefused(MSG_TOO_COMPLEX) : err);
  });
  w.on('exit', (code) => drop(w, new Error(`rich-text worker exited (${code})`)));
  return w;
}

/**
 * Stops a worker (idle, past a time limit, or failed). Its current text fails with `err`; the
 * queue goes on in a new worker, unless this one never started, whose failure the queue shares.
 */
function drop(w: Worker, err?: Error): void {
  if (w !== worker) return;
  worker = undefined;
  clearTimeout(jobTimer);
  clearTimeout(idleTimer);
  void w.terminate();
  const failed = err ?? new Error('rich-text worker stopped');
  if (current) {
    current.reject(failed);
    current = undefined;
  } else if (!ready) {
    for (const job of queue.splice(0)) job.reject(failed);
  }
  ready = false;
  pump();
}

/**
 * Sanitises rich text in the worker, in the order asked. Rejects with `RichTextRefused` when the
 * text is nested too deep, has too many nodes or takes too long; the length is the schema's
 * `maxLength`, checked before (schemas/fields.ts).
 */
export function sanitizeRichText(html: string): Promise<string> {
  return new Promise((resolve, reject) => {
    queue.push({ id: nextId++, html: String(html ?? ''), resolve, reject });
    pump();
  });
}

/** Worker threads at most. */
export const RICH_TEXT_WORKERS = 1;

/** The rich-text work of this process, for tests: texts waiting, being sanitised, started so far; workers ready. */
export function richTextBacklog(): { queued: number; running: number; started: number; workers: number } {
  return { queued: queue.length, running: current ? 1 : 0, started, workers: worker && ready ? 1 : 0 };
}

/** Stops the worker now (it is started again by the next text); for tests and shutdown. */
export async function stopRichTextWorker(): Promise<void> {
  const w = worker;
  if (w) {
    drop(w);
    await w.terminate();
  }
}

// ---------------------------------------------------------------------------------------------
// Reading rich text without a DOM: a linear scan of tags and text, exact for sanitised HTML (which
// jsdom serialised: quoted attributes, text escaped) and close enough for anything else.

const BLOCKS = new Set(['p', 'div', 'li', 'br', 'tr', 'td', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre']);
/** Elements whose content is never shown as text (the sanitiser drops them with their content). */
const HIDDEN = new Set([
  'script', 'style', 'template', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext',
  'svg', 'math', 'audio', 'video', 'head', 'object',
]);
const hiddenEnd = new Map<string, RegExp>();
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos|nbsp));?/g;

function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (_m, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name) return NAMED[name]!;
    const code = dec !== undefined ? Number(dec) : parseInt(hex!, 16);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
  });
}

const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;

/** The index after the `>` ending a tag whose name ends at `from` (quoted values may hold `>`). */
function tagEnd(html: string, from: number): number {
  let afterEquals = false;
  for (let i = from; i < html.length; i++) {
    const c = html.charCodeAt(i);
    if (c === 62) return i + 1;
    if (afterEquals && (c === 34 || c === 39)) {
      const close = html.indexOf(html[i]!, i + 1);
      if (close < 0) return html.length;
      i = close;
      afterEquals = false;
    } else if (c === 61) afterEquals = true;
    else if (!isSpace(c)) afterEquals = false;
  }
  return html.length;
}

/** Calls `onText` with each run of decoded text and `onTag` with each tag, in order. */
function scanHtml(html: string, onText: (text: string) => void, onTag: (name: string, end: boolean) => void): void {
  const n = html.length;
  let i = 0;
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      onText(decodeEntities(html.slice(i)));
      return;
    }
    if (lt > i) onText(decodeEntities(html.slice(i, lt)));
    const next = html.charCodeAt(lt + 1);
    if (html.startsWith('<!--', lt)) {
      const short = html.startsWith('<!-->', lt) ? 5 : html.startsWith('<!--->', lt) ? 6 : 0;
      const close = html.indexOf('-->', lt + 4);
      i = short ? lt + short : close < 0 ? n : close + 3;
      continue;
    }
    const end = next === 47;
    const nameStart = lt + (end ? 2 : 1);
    if (next === 33 || next === 63 || (end && !isLetter(html.charCodeAt(nameStart)))) {
      // <!doctype>, <?…>, </ 1>: bogus comments, up to the next '>'.
      const close = html.indexOf('>', lt + 2);
      i = close < 0 ? n : close + 1;
      continue;
    }
    if (!isLetter(html.charCodeAt(nameStart))) {
      onText('<');
      i = lt + 1;
      continue;
    }
    let j = nameStart;
    while (j < n && !isSpace(html.charCodeAt(j)) && html.charCodeAt(j) !== 47 && html.charCodeAt(j) !== 62) j++;
    const name = html.slice(nameStart, j).toLowerCase();
    onTag(name, end);
    i = tagEnd(html, j);
    if (!end && HIDDEN.has(name)) {
      let re = hiddenEnd.get(name);
      if (!re) hiddenEnd.set(name, (re = new RegExp(`</${name}[\\s/>]`, 'gi')));
      re.lastIndex = i;
      const found = re.exec(html);
      i = found ? found.index : n;
    }
  }
}

// Whitespace the editor leaves in "empty" paragraphs: \s covers spaces, &nbsp; and BOM; the
// zero-width characters are not whitespace to JavaScript but show nothing.
const INVISIBLE = /[\s\u200b-\u200d\u2060]+/g;

/** True when sanitised HTML shows nothing: no text (spaces and &nbsp; aside) and no image. */
export function richTextIsEmpty(html: string): boolean {
  let empty = true;
  scanHtml(
    html,
    (text) => {
      if (empty && text.replace(INVISIBLE, '') !== '') empty = false;
    },
    (name, end) => {
      if (!end && name === 'img') empty = false;
    },
  );
  return empty;
}

/** The text a reader sees in stored rich text, whitespace collapsed (for the audit log's excerpts). */
export function richTextPlainText(html: string): string {
  const parts: string[] = [];
  scanHtml(
    html,
    (text) => parts.push(text),
    // Blocks and line breaks separate words: <p>a</p><p>b</p> reads "a b", not "ab".
    (name, end) => {
      if (BLOCKS.has(name) && (end || name === 'br')) parts.push(' ');
    },
  );
  return parts.join('').replace(INVISIBLE, ' ').trim();
}
