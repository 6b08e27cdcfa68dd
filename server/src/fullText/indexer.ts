// The indexer: takes records off FT_JOB (written with each change, store.ts), reads their files and
// rich text in a worker thread (fullTextWorker.ts: PDF, DOCX, text), and writes their pages.
//
// - Claims are safe with any number of indexers, in this process, in others, in `npm run reindex`:
//   a job is claimed in a transaction (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite: its one writer)
//   for a lease; an indexer that dies leaves it to be claimed again once the lease ends, so a restart
//   resumes the work.
// - The pages are written in one transaction that first locks the record (as its writes do): a
//   change since the claim (VERSION) leaves the work to the job it queued; a deleted record gets none.
// - A source that cannot be read (a scanned PDF without text, a broken or encrypted file, one past
//   the size limit) is recorded with the reason in FT_SOURCE, for the administrators' screen; it
//   never holds back the record's other sources, nor a save.
import fs from 'node:fs/promises';
import type { Worker } from 'node:worker_threads';
import type { ResourceDescriptor } from '../../../schemas/descriptor';
import { parseFileList } from '../../../schemas/fileList';
import type { Db } from '../db/database';
import { findRow } from '../db/repository';
import type { Row } from '../db/row';
import type { StorageDriver } from '../storage/types';
import { startWorkerThread } from '../workerThread';
import type { FullTextInput, FullTextJob, FullTextReply } from '../fullTextWorker';
import { categoryFilter, fullTextByTable, sourceOfRichText, typeFilter } from './declared';
import { MAX_DOCUMENT_BYTES } from './extract/index';
import { forgetRecord, insertPages, type AnyDb, type PageText } from './store';

/** A claimed job is another indexer's to take after this long (a dead process's work resumes). */
export const LEASE_MS = 10 * 60_000;
/** One document's extraction at most; past it the file is recorded as unreadable. */
const EXTRACT_TIMEOUT_MS = 120_000;
/** A job failing for another reason (the database, the storage) is retried this many times. */
const MAX_TRIES = 5;
/** How often an idle indexer looks for work queued by other processes. */
const POLL_MS = 2000;
/** A worker thread idle this long is ended (pdf.js holds memory). */
const IDLE_THREAD_MS = 30_000;

export const REASON_MISSING = '文件不存在';
export const REASON_NOT_STORED = '不是本站存储的文件';
export const REASON_TOO_LARGE = '文件过大';
export const REASON_TIMEOUT = '文件读取超时';

interface Claimed {
  ID: number;
  TBL: string;
  RECORD_ID: number;
  VERSION: number;
  TRIES: number;
}

interface SourceOutcome {
  source: string;
  fileName: string;
  fileUrl: string;
  pages?: string[];
  reason?: string;
}

/** One worker thread, one document at a time. */
class ExtractThread {
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  private idle: NodeJS.Timeout | undefined;
  private next = 1;

  private start(): Promise<void> {
    if (!this.ready) {
      const worker = startWorkerThread('fullTextWorker', {});
      this.worker = worker;
      worker.unref();
      this.ready = new Promise<void>((resolve, reject) => {
        const onMessage = (m: FullTextReply) => {
          if (m.type !== 'ready') return;
          worker.off('message', onMessage);
          resolve();
        };
        worker.on('message', onMessage);
        worker.once('error', reject);
      });
      worker.once('exit', () => {
        if (this.worker === worker) {
          this.worker = undefined;
          this.ready = undefined;
        }
      });
    }
    return this.ready;
  }

  async run(job: FullTextInput): Promise<{ pages: string[] } | { reason: string }> {
    if (this.idle) clearTimeout(this.idle);
    await this.start();
    const worker = this.worker!;
    const id = this.next++;
    try {
      return await new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          cleanup();
          // A reader stuck on a file: the thread goes, the next file gets a new one.
          void worker.terminate();
          resolve({ reason: REASON_TIMEOUT });
        }, EXTRACT_TIMEOUT_MS);
        const onMessage = (m: FullTextReply) => {
          if (m.type === 'ready' || m.id !== id) return;
          cleanup();
          resolve(m.type === 'done' ? { pages: m.pages } : { reason: m.reason });
        };
        const onExit = () => {
          cleanup();
          reject(new Error('full-text worker exited'));
        };
        const cleanup = () => {
          clearTimeout(timer);
          worker.off('message', onMessage);
          worker.off('exit', onExit);
        };
        worker.on('message', onMessage);
        worker.once('exit', onExit);
        const message: FullTextJob = { ...job, id };
        worker.postMessage(message, message.kind === 'file' ? [message.bytes.buffer as ArrayBuffer] : []);
      });
    } finally {
      this.idle = setTimeout(() => void this.stop(), IDLE_THREAD_MS);
      this.idle.unref();
    }
  }

  async stop(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = undefined;
    this.ready = undefined;
    if (worker) await worker.terminate();
  }
}

export interface IndexerOptions {
  log?: { warn(obj: object, msg: string): void };
  /** Documents read at once (a worker thread each). */
  threads?: number;
  maxBytes?: number;
}

/** A PDF's pages are numbered from 1 (a result opens the file there); a body or a single page has none (0). */
function pageNumber(source: SourceOutcome, n: number): number {
  if (source.source !== 'file') return 0;
  return /\.pdf$/i.test(source.fileName) || (source.pages?.length ?? 0) > 1 ? n + 1 : 0;
}

export class FullTextIndexer {
  private readonly threads: ExtractThread[];
  private stopped = false;
  private loops: Promise<void>[] = [];
  private draining: Promise<void> = Promise.resolve();
  private wakers: (() => void)[] = [];
  /** Jobs this indexer holds now, given back on stop. */
  private readonly held = new Set<number>();

  constructor(
    private readonly database: Db,
    private readonly storage: StorageDriver,
    private readonly options: IndexerOptions = {},
  ) {
    this.threads = Array.from({ length: Math.max(1, options.threads ?? 1) }, () => new ExtractThread());
  }

  private get db(): AnyDb {
    return this.database.db as unknown as AnyDb;
  }

  /** Works in the background until stopped: each thread claims and indexes jobs, and waits for more. */
  start(): void {
    this.stopped = false;
    this.loops = this.threads.map((thread) => this.loop(thread));
  }

  /** Work was queued here: the idle loops look now rather than at their next poll. */
  wake(): void {
    for (const w of this.wakers.splice(0)) w();
  }

  private async loop(thread: ExtractThread): Promise<void> {
    while (!this.stopped) {
      let worked = false;
      try {
        worked = await this.runOne(thread);
      } catch (err) {
        this.options.log?.warn({ err }, 'full-text indexing failed; retried later');
      }
      if (!worked && !this.stopped) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, POLL_MS);
          timer.unref();
          this.wakers.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    }
  }

  /** Claims one due job and indexes its record; false when none is due. */
  async runOne(thread: ExtractThread = this.threads[0]!): Promise<boolean> {
    const job = await this.claim();
    if (!job) return false;
    this.held.add(job.ID);
    try {
      await this.index(job, thread);
    } catch (err) {
      await this.failed(job, err);
    } finally {
      this.held.delete(job.ID);
    }
    return true;
  }

  /** Runs every due job with all threads until none is left (npm run reindex); stops early on `stop()`. */
  async drain(onJob?: () => void): Promise<void> {
    this.stopped = false;
    this.draining = Promise.all(
      this.threads.map(async (thread) => {
        while (!this.stopped && (await this.runOne(thread))) onJob?.();
      }),
    ).then(() => {});
    await this.draining;
  }

  /** Stops claiming; the documents being read are finished and written first. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await Promise.allSettled([...this.loops, this.draining]);
    await Promise.all(this.threads.map((t) => t.stop()));
    // Jobs cut short go back to the queue at once, for the next indexer.
    if (this.held.size > 0) {
      await this.db
        .updateTable('FT_JOB')
        .set({ STATE: 'waiting', LEASE_UNTIL: null })
        .where('ID', 'in', [...this.held])
        .execute()
        .catch(() => {});
    }
  }

  private async claim(now = new Date()): Promise<Claimed | undefined> {
    const nowIso = now.toISOString();
    // An idle poll reads one index entry and opens no transaction (nor SQLite's write lock).
    const due = await this.db
      .selectFrom('FT_JOB')
      .select('ID')
      .where((eb) => eb.or([eb.and([eb('STATE', '=', 'waiting'), eb('DUE_AT', '<=', nowIso)]), eb.and([eb('STATE', '=', 'running'), eb('LEASE_UNTIL', '<', nowIso)])]))
      .limit(1)
      .executeTakeFirst();
    if (!due) return undefined;
    return this.db.transaction().execute(async (trx) => {
      let pick = trx
        .selectFrom('FT_JOB')
        .select('ID')
        .where((eb) => eb.or([eb.and([eb('STATE', '=', 'waiting'), eb('DUE_AT', '<=', nowIso)]), eb.and([eb('STATE', '=', 'running'), eb('LEASE_UNTIL', '<', nowIso)])]))
        .orderBy('ID')
        .limit(1);
      if (this.database.dialect === 'postgres') pick = pick.forUpdate().skipLocked();
      const found = (await pick.executeTakeFirst()) as { ID: number } | undefined;
      if (!found) return undefined;
      return (await trx
        .updateTable('FT_JOB')
        .set((eb) => ({ STATE: 'running', LEASE_UNTIL: new Date(now.getTime() + LEASE_MS).toISOString(), TRIES: eb('TRIES', '+', 1) }))
        .where('ID', '=', found.ID)
        .returning(['ID', 'TBL', 'RECORD_ID', 'VERSION', 'TRIES'])
        .executeTakeFirstOrThrow()) as Claimed;
    });
  }

  private async failed(job: Claimed, err: unknown): Promise<void> {
    const message = err instanceof Error ? err.message : String(err);
    this.options.log?.warn({ err, table: job.TBL, id: job.RECORD_ID }, 'full-text job failed');
    if (job.TRIES < MAX_TRIES) {
      // Again after a growing pause: 1, 4, 16, 64 minutes.
      const due = new Date(Date.now() + 60_000 * 4 ** (job.TRIES - 1)).toISOString();
      await this.db.updateTable('FT_JOB').set({ STATE: 'waiting', DUE_AT: due, LEASE_UNTIL: null, ERROR: message }).where('ID', '=', job.ID).where('VERSION', '=', job.VERSION).execute();
      return;
    }
    // Given up: listed for the administrators like an unreadable file (RetryFullTextIndex queues it again).
    await this.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('FT_JOB').select('ID').where('ID', '=', job.ID).where('VERSION', '=', job.VERSION).executeTakeFirst();
      if (!current) return;
      await trx.deleteFrom('FT_JOB').where('ID', '=', job.ID).execute();
      await trx
        .insertInto('FT_SOURCE')
        .values({ TBL: job.TBL, RECORD_ID: job.RECORD_ID, SOURCE: 'record', FILE_NAME: '', FILE_URL: '', STATE: 'failed', PAGES: 0, REASON: `索引失败：${message.slice(0, 300)}`, UPDATED_AT: new Date().toISOString() })
        .execute();
    });
  }

  /** Reads a record's sources and writes its pages, unless it changed or went meanwhile. */
  private async index(job: Claimed, thread: ExtractThread): Promise<void> {
    const descriptor = fullTextByTable(job.TBL);
    const record = descriptor ? await findRow(this.database, descriptor, 'Id', job.RECORD_ID) : undefined;
    if (!descriptor || !record) {
      await this.db.deleteFrom('FT_JOB').where('ID', '=', job.ID).where('VERSION', '=', job.VERSION).execute();
      return;
    }
    const outcomes = await this.read(descriptor, record, thread);
    const dialect = this.database.dialect;
    await this.db.transaction().execute(async (trx) => {
      // The record first, as its writes lock it (repository.ts): a delete or change waits for this
      // write or comes before it, never between.
      let lock = trx.selectFrom(descriptor.table).select('ID').where('ID', '=', job.RECORD_ID);
      if (dialect === 'postgres') lock = lock.forUpdate();
      const current = (await lock.executeTakeFirst()) as { ID: number } | undefined;
      let still = trx.selectFrom('FT_JOB').select('VERSION').where('ID', '=', job.ID);
      if (dialect === 'postgres') still = still.forUpdate();
      const queued = (await still.executeTakeFirst()) as { VERSION: number } | undefined;
      // Changed since the claim: the job it queued does the work again.
      if (!queued || queued.VERSION !== job.VERSION) return;
      if (!current) {
        await trx.deleteFrom('FT_JOB').where('ID', '=', job.ID).execute();
        return;
      }
      await forgetRecord(trx, dialect, descriptor.table, job.RECORD_ID, { keepJob: true });
      const pages: PageText[] = outcomes.flatMap((o) =>
        (o.pages ?? []).map((text, n) => ({ source: o.source, fileName: o.fileName, fileUrl: o.fileUrl, page: pageNumber(o, n), text })),
      );
      const type = typeFilter(descriptor);
      const category = categoryFilter(descriptor)?.field;
      await insertPages(trx, dialect, descriptor, record, job.RECORD_ID, pages, { type: type ? record[type] : null, category: category ? record[category] : null });
      const now = new Date().toISOString();
      for (const o of outcomes) {
        await trx
          .insertInto('FT_SOURCE')
          .values({
            TBL: descriptor.table,
            RECORD_ID: job.RECORD_ID,
            SOURCE: o.source,
            FILE_NAME: o.fileName,
            FILE_URL: o.fileUrl,
            STATE: o.reason ? 'failed' : 'indexed',
            PAGES: o.pages?.length ?? 0,
            REASON: o.reason ?? '',
            UPDATED_AT: now,
          })
          .execute();
      }
      await trx.deleteFrom('FT_JOB').where('ID', '=', job.ID).execute();
    });
  }

  /** The text of each source of a record: its files and its rich-text fields. */
  private async read(descriptor: ResourceDescriptor, record: Row, thread: ExtractThread): Promise<SourceOutcome[]> {
    const ft = descriptor.fullText!;
    const out: SourceOutcome[] = [];
    for (const field of ft.files ?? []) {
      for (const file of parseFileList(record[field])) {
        const entry = { source: 'file', fileName: file.name, fileUrl: file.url };
        const bytes = await this.bytesOf(file.url);
        if ('reason' in bytes) {
          out.push({ ...entry, reason: bytes.reason });
          continue;
        }
        const result = await thread.run({ kind: 'file', bytes: bytes.bytes, name: file.name });
        out.push({ ...entry, ...result });
      }
    }
    for (const field of ft.richText ?? []) {
      const html = record[field];
      if (typeof html !== 'string' || html.trim() === '') continue;
      const result = await thread.run({ kind: 'html', html });
      out.push({ source: sourceOfRichText(descriptor, field), fileName: '', fileUrl: '', ...result });
    }
    return out;
  }

  private async bytesOf(url: string): Promise<{ bytes: Uint8Array } | { reason: string }> {
    const key = this.storage.keyOf(url);
    if (!key) return { reason: REASON_NOT_STORED };
    const size = await this.storage.sizeOf(key);
    if (size === undefined) return { reason: REASON_MISSING };
    if (size > (this.options.maxBytes ?? MAX_DOCUMENT_BYTES)) return { reason: REASON_TOO_LARGE };
    const source = await this.storage.mediaSource(key);
    if (/^https?:/.test(source)) {
      const res = await fetch(source);
      if (!res.ok) throw new Error(`storage answered ${res.status}`);
      return { bytes: new Uint8Array(await res.arrayBuffer()) };
    }
    return { bytes: new Uint8Array(await fs.readFile(source)) };
  }
}
