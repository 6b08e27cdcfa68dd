// Server-side rich text. Sanitising (the shared allow-list of schemas/richText.ts, DOMPurify over
// jsdom: server/src/richTextSanitizer.ts) runs in two worker threads, never on the event loop: the
// longest text takes a second or two of work, which no other request waits for. The workers are
// started on first use and stopped when idle (jsdom takes some 60 MB each, which a server that only
// answers reads never needs); each takes one text at a time, so its memory is that of one text at
// most, and each text has a time limit and each worker a heap limit. Reading stored rich text (its
// plain text for the audit log, whether it is empty) is a linear scan here, without jsdom: it runs
// inside a write's transaction.
//
// The texts wait in one queue per member, taken in turn (the member served longest ago first), one
// text of a member at a time: a member who sends a hundred long texts keeps one worker busy, and
// another member's text goes to the other. Both start with the first text (loading jsdom takes 1-5
// s, too long to wait for once a member floods). The queue is capped per member (429) and per
// process (503), and the texts of a request whose client has gone are dropped before they run.
// Hand-written: the pools and queues in node_modules (p-limit, yocto-queue, there only for other
// packages) have neither per-member turns nor caps; piscina and tinypool are not installed.
import { Worker } from 'node:worker_threads';
import { RICH_TEXT_MAX_DEPTH, RICH_TEXT_MAX_NODES } from '../../schemas/richText';
import { DEFAULT_RICH_TEXT_QUEUE_PER_MEMBER, DEFAULT_RICH_TEXT_QUEUE_TOTAL } from './config';
import { ApiError } from './errors';
import type { RichTextJob, RichTextReply } from './richTextWorker';
import { startWorkerThread } from './workerThread';

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
/** 429: the member's texts already in the queue are its share. */
export const MSG_MEMBER_BUSY = '您已提交的内容还在处理中，本次内容未保存，请稍后再试';
/** 503: the process's queue is full. */
export const MSG_SERVER_BUSY = '服务器繁忙，本次内容未保存，请稍后再试';
/** The client closed its connection: nobody reads this (499: proxies' code for a request its client closed). */
export const MSG_CANCELLED = '请求已取消，内容未保存';
const STATUS_CLIENT_GONE = 499;

/** The rich-text workers' limits (changed by tests only). */
export const richTextWorkerLimits = {
  /**
   * A text's own time in the worker, a last defence: past it the worker is stopped and the text
   * refused. The parse limits make 2.3 s the most seen (25,000 nodes, on a loaded 2-core host).
   */
  jobMs: 20_000,
  /** An idle worker is stopped after this, and its memory given back. */
  idleMs: 120_000,
};

/**
 * What a text weighs against the caps: its characters (its work and memory grow with them, the
 * parse limits see to that), and a thousand for the request around it.
 */
export const RICH_TEXT_TEXT_WEIGHT = 1000;
/** The queue's caps, in characters (each text weighs RICH_TEXT_TEXT_WEIGHT more); buildApp sets them from the configuration. */
export const richTextQueueLimits = { perMember: DEFAULT_RICH_TEXT_QUEUE_PER_MEMBER, total: DEFAULT_RICH_TEXT_QUEUE_TOTAL };

/**
 * Worker threads. A member's texts run one at a time, so while one member floods the queue
 * another member's text finds the second worker free; more would share the same cores.
 */
export const RICH_TEXT_WORKERS = 2;
/** A worker's heap: jsdom and the densest text allowed (25,000 nodes) fit well within it. */
const WORKER_HEAP_MB = 192;
/** Its young generation, small as the server's own (`--max-semi-space-size=4` in npm start): less memory held between texts. */
const WORKER_YOUNG_MB = 12;

function startWorker() {
  return startWorkerThread('richTextWorker', {
    name: 'rich-text',
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
  });
}

/** Whom texts are sanitised for. */
export interface RichTextCaller {
  /** The member's code (AU_CODE): the member's queue and share. */
  member: string;
  /** Aborted when the client has gone (http/clientGone.ts): the write is dropped and fails. */
  signal?: AbortSignal;
}

/** The texts of one call, admitted, answered or dropped together. */
interface Write {
  member: Member;
  /** Texts not answered yet. */
  left: number;
  results: (string | RichTextRefused)[];
  done: boolean;
  resolve(results: (string | RichTextRefused)[]): void;
  reject(err: Error): void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Text {
  id: number;
  html: string;
  weight: number;
  index: number;
  write: Write;
}

interface Member {
  key: string;
  /** Its texts waiting, in the order asked. */
  queue: Text[];
  /** Whether one of its texts is in a worker (one at a time). */
  running: boolean;
  /** The weight of its texts waiting or running, against its share. */
  load: number;
  /** When its last text started (a turn number): the member served longest ago goes first. */
  servedAt: number;
}

interface Slot {
  thread: Worker;
  ready: boolean;
  text?: Text;
  jobTimer?: NodeJS.Timeout;
  idleTimer?: NodeJS.Timeout;
}

/** Members with texts waiting or running. */
const members = new Map<string, Member>();
const slots: Slot[] = [];
let queued = 0;
let running = 0;
/** The weight of all texts waiting or running, against the process's cap. */
let load = 0;
let started = 0;
let turn = 0;
let nextId = 1;

const cancelled = () => new ApiError(STATUS_CLIENT_GONE, MSG_CANCELLED);

/** The member whose text goes next: one with a text waiting and none running, served longest ago. */
function nextMember(): Member | undefined {
  let next: Member | undefined;
  for (const m of members.values()) {
    if (!m.running && m.queue.length > 0 && (!next || m.servedAt < next.servedAt)) next = m;
  }
  return next;
}

function pump(): void {
  for (const slot of slots) {
    if (!slot.ready || slot.text) continue;
    const m = nextMember();
    if (!m) break;
    run(slot, m);
  }
  // All the workers once there is work, one start at a time.
  if (slots.length < RICH_TEXT_WORKERS && slots.every((s) => s.ready) && queued + running > 0) slots.push(launch());
  for (const slot of slots) {
    // Work keeps the process alive (a script's save); an idle worker does not, and stops in time.
    if (slot.text || (!slot.ready && queued > 0)) slot.thread.ref();
    else slot.thread.unref();
    if (slot.ready && !slot.text && !slot.idleTimer) slot.idleTimer = setTimeout(() => idle(slot), richTextWorkerLimits.idleMs).unref();
  }
}

/** A worker idle for idleMs stops, unless the other has work: then it stands by for another member. */
function idle(slot: Slot): void {
  slot.idleTimer = undefined;
  if (queued + running === 0) drop(slot);
  else pump();
}

function run(slot: Slot, m: Member): void {
  const text = m.queue.shift()!;
  queued--;
  running++;
  started++;
  m.running = true;
  m.servedAt = ++turn;
  slot.text = text;
  clearTimeout(slot.idleTimer);
  slot.idleTimer = undefined;
  slot.jobTimer = setTimeout(() => drop(slot, new RichTextRefused(MSG_TOO_COMPLEX)), richTextWorkerLimits.jobMs);
  slot.thread.postMessage({ id: text.id, html: text.html } satisfies RichTextJob);
}

function launch(): Slot {
  const slot: Slot = { thread: startWorker(), ready: false };
  slot.thread.on('message', (reply: RichTextReply) => {
    if (!slots.includes(slot)) return;
    if (reply.type === 'ready') {
      slot.ready = true;
      pump();
      return;
    }
    const text = slot.text;
    if (!text || reply.id !== text.id) return;
    slot.text = undefined;
    clearTimeout(slot.jobTimer);
    if (reply.type === 'done') finish(text, reply.html);
    else if (reply.type === 'refused') finish(text, new RichTextRefused(reply.reason === 'depth' ? MSG_TOO_DEEP : MSG_TOO_MANY_NODES));
    else finish(text, new Error(`rich-text worker: ${reply.message}`));
    pump();
  });
  slot.thread.on('error', (err: Error & { code?: string }) => {
    // Past its heap limit, the text it was working on is what did it.
    drop(slot, err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new RichTextRefused(MSG_TOO_COMPLEX) : err);
  });
  slot.thread.on('exit', (code) => drop(slot, new Error(`rich-text worker exited (${code})`)));
  return slot;
}

/** A text out of its worker: its result (refused is a result), or an error that fails its write. */
function finish(text: Text, outcome: string | Error): void {
  running--;
  load -= text.weight;
  const { write } = text;
  write.member.running = false;
  write.member.load -= text.weight;
  if (!write.done) {
    if (typeof outcome === 'string' || outcome instanceof RichTextRefused) {
      write.results[text.index] = outcome;
      if (--write.left === 0) {
        settle(write);
        write.resolve(write.results);
      }
    } else fail(write, outcome);
  }
  forget(write.member);
}

/** Fails a write: its texts still waiting leave the queue (one in a worker finishes unread). */
function fail(write: Write, err: Error): void {
  if (write.done) return;
  const m = write.member;
  for (const t of m.queue) {
    if (t.write !== write) continue;
    queued--;
    load -= t.weight;
    m.load -= t.weight;
  }
  m.queue = m.queue.filter((t) => t.write !== write);
  settle(write);
  forget(m);
  write.reject(err);
}

function settle(write: Write): void {
  write.done = true;
  if (write.onAbort) write.signal!.removeEventListener('abort', write.onAbort);
}

function forget(m: Member): void {
  if (!m.running && m.queue.length === 0) members.delete(m.key);
}

/**
 * Stops a worker (idle, past a time limit, or failed). Its current text fails with `err`; the
 * queue goes on in a new worker, unless this one never started and none other is ready: then the
 * texts waiting share its failure.
 */
function drop(slot: Slot, err?: Error): void {
  const i = slots.indexOf(slot);
  if (i < 0) return;
  slots.splice(i, 1);
  clearTimeout(slot.jobTimer);
  clearTimeout(slot.idleTimer);
  void slot.thread.terminate();
  const failed = err ?? new Error('rich-text worker stopped');
  if (slot.text) {
    const text = slot.text;
    slot.text = undefined;
    finish(text, failed);
  } else if (!slot.ready && !slots.some((s) => s.ready)) {
    for (const m of [...members.values()]) for (const t of [...m.queue]) fail(t.write, failed);
  }
  pump();
}

/**
 * Sanitises the rich-text fields of one write in the workers, in the member's turn. Each result is
 * the sanitised HTML, or `RichTextRefused` when the text is nested too deep, has too many nodes or
 * takes too long (the length is the schema's `maxLength`, checked before: schemas/fields.ts).
 * Rejects with an ApiError, nothing sanitised: 429 when the write would take the member's texts
 * waiting past its share, 503 the process's past its cap (with nothing waiting, a write is always
 * admitted), 499 once `caller.signal` aborts. Without a caller (the server's own work,
 * tests) the texts share one queue, uncapped.
 */
export function sanitizeRichTexts(htmls: readonly string[], caller?: RichTextCaller): Promise<(string | RichTextRefused)[]> {
  if (htmls.length === 0) return Promise.resolve([]);
  const signal = caller?.signal;
  if (signal?.aborted) return Promise.reject(cancelled());
  const texts = htmls.map((html) => String(html ?? ''));
  const weight = texts.reduce((sum, html) => sum + html.length + RICH_TEXT_TEXT_WEIGHT, 0);
  const key = caller?.member ?? '';
  const known = members.get(key);
  if (caller) {
    const mine = known?.load ?? 0;
    if (mine > 0 && mine + weight > richTextQueueLimits.perMember) return Promise.reject(new ApiError(429, MSG_MEMBER_BUSY));
    if (load > 0 && load + weight > richTextQueueLimits.total) return Promise.reject(new ApiError(503, MSG_SERVER_BUSY));
  }
  const m = known ?? { key, queue: [], running: false, load: 0, servedAt: 0 };
  members.set(key, m);
  return new Promise((resolve, reject) => {
    const write: Write = { member: m, left: texts.length, results: [], done: false, resolve, reject };
    texts.forEach((html, index) => m.queue.push({ id: nextId++, html, weight: html.length + RICH_TEXT_TEXT_WEIGHT, index, write }));
    queued += texts.length;
    m.load += weight;
    load += weight;
    if (signal) {
      write.signal = signal;
      write.onAbort = () => fail(write, cancelled());
      signal.addEventListener('abort', write.onAbort, { once: true });
    }
    pump();
  });
}

/** Sanitises one text (see sanitizeRichTexts); rejects with `RichTextRefused` when it is refused. */
export async function sanitizeRichText(html: string, caller?: RichTextCaller): Promise<string> {
  const [out] = await sanitizeRichTexts([html], caller);
  if (out instanceof RichTextRefused) throw out;
  return out!;
}

/** The rich-text work of this process, for tests: texts waiting, being sanitised, started so far; workers ready. */
export function richTextBacklog(): { queued: number; running: number; started: number; workers: number } {
  return { queued, running, started, workers: slots.filter((s) => s.ready).length };
}

/** Stops the workers now (they are started again by the next text); for tests and shutdown. */
export async function stopRichTextWorker(): Promise<void> {
  const stopping = [...slots];
  for (const slot of stopping) drop(slot);
  await Promise.all(stopping.map((s) => s.thread.terminate()));
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
