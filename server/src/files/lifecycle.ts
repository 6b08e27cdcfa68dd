// Stored files do not outlive their records (docs/storage.md, "When files are removed").
//
// - A write that drops a file (a deleted record, a replaced video, a handout taken off a list)
//   queues its key in FILE_GC in the write's own transaction; the key is removed right after the
//   commit, and again by the sweeper (every 10 minutes and at start) when that failed or the
//   process died in between.
// - Every upload is queued when it is signed or started, due a day later: an upload no record
//   points at by then is removed.
// - A key is removed only when no record points at it: every column that may hold one of our file
//   URLs (file fields, file lists, rich text, links, the free text a descriptor names in `links`) of every entity table is searched for the key's
//   stem, which also finds the video of a poster (`<name>.poster.jpg`). A removed video takes its
//   poster with it.
// - The decision and a write that newly points at the key are serialised (on PostgreSQL by an
//   advisory lock on the stem, on SQLite by its single writer); a decided key is marked 'removing'
//   and then kept as a 'removed' tombstone for a week, and a write that would point at such a key is
//   refused (文件不存在，请重新上传). So a file is never removed while a committed record points at it.
// - While `npm run backup` takes its snapshot and copies the files, no new decision is made
//   (SETTING file_removal_paused_until), so every file a snapshot's record points at is copied.
// - The daily upload quota (UPLOAD_QUOTA_MB_PER_DAY) is counted here, in UPLOAD_LOG.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { ResourceDescriptor } from '../../../schemas/descriptor';
import { FILE_URL_PATTERN, HTTP_URL_PATTERN, OPTIONAL_FILE_URL_PATTERN } from '../../../schemas/fields';
import { RESOURCES } from '../../../schemas/index';
import type { MemberRow } from '../auth/members';
import type { Db } from '../db/database';
import { storedFields, type Row, type WriteHook } from '../db/repository';
import type { Database } from '../db/tables';
import { ApiError, badRequest } from '../errors';
import { posterKeyOf } from '../media/poster';
import { PAUSE_SETTING } from './pause';
import { forgetFileName } from '../storage/names';
import { parseUploadKey, UPLOAD_KINDS } from '../storage/policies';
import type { StorageDriver } from '../storage/types';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MiB = 1024 * 1024;

/** An upload no record points at after this long is removed. Signed URLs live one hour. */
export const ORPHAN_AGE_MS = DAY;
/** The quota counts the uploads of the last 24 hours. */
export const QUOTA_WINDOW_MS = DAY;
/** Every upload counts at least this much: the quota bounds the number of uploads too. */
export const MIN_QUOTA_CHARGE = MiB;
/** How long a removed key stays refused for new records. */
export const TOMBSTONE_MS = 7 * DAY;
export const SWEEP_INTERVAL_MS = 10 * MINUTE;
const BATCH = 100;
/** SETTING row set once files stored before migration 006 were queued. */
const ADOPTED_SETTING = 'file_gc_adopted';
/** First key of the advisory locks of file keys (PostgreSQL), apart from any other use. */
const LOCK_SPACE = 7007;

export const QUOTA_STATUS = 429;

type Trx = Transaction<Database>;

const LINK_PATTERNS = new Set<string>([FILE_URL_PATTERN, OPTIONAL_FILE_URL_PATTERN, HTTP_URL_PATTERN]);

interface LinkField {
  field: string;
  column: string;
}

interface FieldSchema {
  type?: unknown;
  readOnly?: boolean;
  contentMediaType?: string;
  pattern?: string;
}

const linkFieldCache = new Map<string, LinkField[]>();

/** Stored fields of an entity that may hold one of our file URLs. */
export function linkFields(descriptor: ResourceDescriptor): LinkField[] {
  let fields = linkFieldCache.get(descriptor.resource);
  if (!fields) {
    const props = descriptor.schema.properties as Record<string, FieldSchema>;
    // Only what staff write: server-owned fields (the audit log's record of changes among them)
    // may name a file but never point at one.
    fields = storedFields(descriptor).filter(({ field }) => {
      const s = props[field] ?? {};
      if (field in (descriptor.files ?? {}) || descriptor.links?.includes(field)) return true;
      return !s.readOnly && (s.contentMediaType !== undefined || LINK_PATTERNS.has(s.pattern ?? ''));
    });
    linkFieldCache.set(descriptor.resource, fields);
  }
  return fields;
}

/**
 * What identifies a stored file in any URL of it: the key without its extension, and a poster's
 * key without `.poster.jpg`, so that a video and its poster share one stem.
 */
export function stemOf(key: string): string {
  const poster = key.replace(/\.poster\.jpg$/i, '');
  return poster !== key ? poster : key.replace(/\.[A-Za-z0-9]{1,8}$/, '');
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Keys this server produced and may adopt: uploads and their posters (never demo files or others' objects). */
function isUploadOrPoster(key: string): boolean {
  if (parseUploadKey(key)) return true;
  const video = key.replace(/\.poster\.jpg$/, '.mp4');
  return video !== key && parseUploadKey(video)?.kind === 'video';
}

export interface SweepResult {
  removed: string[];
  kept: string[];
}

export interface FileTracker {
  /** Pass to insertRow/updateRow/deleteRow. */
  hook: WriteHook;
  /** After the commit: removes what the write dropped, unless another record points at it. Never throws. */
  settle(): Promise<void>;
}

export class FileLifecycle {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(
    private readonly database: Db,
    private readonly storage: StorageDriver,
    private readonly options: { quotaBytesPerDay: number; log: FastifyBaseLogger },
  ) {}

  private get db(): Kysely<Database> {
    return this.database.db;
  }

  // ---- Writes of records ----

  /** Follows one write of a record: checks the files it newly points at, queues the ones it drops. */
  track(descriptor: ResourceDescriptor): FileTracker {
    const dropped: string[] = [];
    const keysOf = (row: Row | undefined, of: LinkField[]) =>
      new Set(of.flatMap(({ field }) => (typeof row?.[field] === 'string' ? this.storage.keysIn(row[field]) : [])));
    // `of`: a row that went with the written one (a deleted video's comment): its files are dropped too.
    const hook: WriteHook = async (anyTrx, before, after, of = descriptor) => {
      const fields = linkFields(of);
      const fileFields = fields.filter((f) => f.field in (of.files ?? {}));
      if (fields.length === 0) return;
      const trx = anyTrx as unknown as Trx;
      const had = keysOf(before, fileFields);
      const added = [...keysOf(after, fileFields)].filter((k) => !had.has(k)).sort();
      for (const key of added) {
        // Decided for removal (or removed) since the write checked that the file exists.
        await this.lock(trx, key);
        const gone = await trx.selectFrom('FILE_GC').select('STATE').where('KEY', '=', key).where('STATE', '!=', 'queued').executeTakeFirst();
        if (gone) {
          const field = fileFields.find((f) => typeof after?.[f.field] === 'string' && this.storage.keysIn(after[f.field] as string).includes(key))?.field;
          throw badRequest('文件不存在，请重新上传', field ? [{ field, msg: '文件不存在，请重新上传' }] : undefined);
        }
      }
      const kept = keysOf(after, fields);
      const now = new Date().toISOString();
      for (const key of keysOf(before, fields)) {
        if (kept.has(key)) continue;
        await this.enqueue(trx, key, now);
        dropped.push(key);
      }
    };
    return {
      hook,
      settle: async () => {
        for (const key of dropped) {
          await this.process(key, new Date()).catch((err: unknown) => this.options.log.warn({ err, key }, 'file removal after commit failed; the sweeper retries'));
        }
      },
    };
  }

  /** Queues a key due now; a key already decided stays as it is. */
  private async enqueue(trx: Trx, key: string, dueAt: string): Promise<void> {
    await trx
      .insertInto('FILE_GC')
      .values({ KEY: key, STATE: 'queued', DUE_AT: dueAt, TRIES: 0 })
      .onConflict((oc) => oc.column('KEY').doUpdateSet({ DUE_AT: dueAt }).where('FILE_GC.STATE', '=', 'queued'))
      .execute();
  }

  /** Serialises decisions on a key with writes that point at it (PostgreSQL; SQLite has one writer). */
  private async lock(trx: Trx, key: string): Promise<void> {
    if (this.database.dialect === 'postgres') {
      await sql`select pg_advisory_xact_lock(${sql.lit(LOCK_SPACE)}, hashtext(${stemOf(key)}))`.execute(trx);
    }
  }

  // ---- Uploads ----

  /**
   * Counts an upload against its member's quota of the last 24 hours and queues its key, due a day
   * later. Throws 429 past the quota: then nothing is recorded and nothing may be stored.
   */
  async reserveUpload(member: MemberRow, upload: { key: string; size: number }, now = new Date()): Promise<void> {
    const quota = this.options.quotaBytesPerDay;
    const charge = Math.max(upload.size, MIN_QUOTA_CHARGE);
    await this.db.transaction().execute(async (trx) => {
      if (quota > 0) {
        // One member's uploads are counted one at a time, on every server process.
        if (this.database.dialect === 'postgres') {
          await trx.selectFrom('MEMBER').select('ID').where('AU_CODE', '=', member.AU_CODE).forUpdate().execute();
        }
        const since = new Date(now.getTime() - QUOTA_WINDOW_MS).toISOString();
        const { used } = await trx
          .selectFrom('UPLOAD_LOG')
          .select(sql<string | number>`coalesce(sum(${sql.ref('SIZE')}), 0)`.as('used'))
          .where('AU_CODE', '=', member.AU_CODE)
          .where('CREATED_AT', '>', since)
          .executeTakeFirstOrThrow();
        if (Number(used) + charge > quota) {
          const mb = (n: number) => Math.ceil(n / MiB);
          throw new ApiError(
            QUOTA_STATUS,
            `今日上传已达上限：每人24小时内最多上传${mb(quota)}MB（已用${mb(Number(used))}MB，本文件${mb(upload.size)}MB），请明天再试或联系管理员`,
          );
        }
      }
      await trx.insertInto('UPLOAD_LOG').values({ KEY: upload.key, AU_CODE: member.AU_CODE, SIZE: charge, CREATED_AT: now.toISOString() }).execute();
      await trx
        .insertInto('FILE_GC')
        .values({ KEY: upload.key, STATE: 'queued', DUE_AT: new Date(now.getTime() + ORPHAN_AGE_MS).toISOString(), TRIES: 0 })
        .onConflict((oc) => oc.column('KEY').doNothing())
        .execute();
    });
  }

  /** Gives back the quota of an upload that storage refused to start (its key stays queued, harmless). */
  async releaseUpload(key: string): Promise<void> {
    await this.db.deleteFrom('UPLOAD_LOG').where('KEY', '=', key).execute();
  }

  // ---- The sweeper ----

  /**
   * Removes every due key that no record points at, retries failed removals, and forgets old
   * tombstones and quota entries. `now` may be moved ahead by tests (an upload a day old).
   */
  async sweep(options: { now?: Date } = {}): Promise<SweepResult> {
    const now = options.now ?? new Date();
    const nowIso = now.toISOString();
    const result: SweepResult = { removed: [], kept: [] };
    await this.db.deleteFrom('UPLOAD_LOG').where('CREATED_AT', '<', new Date(now.getTime() - 2 * QUOTA_WINDOW_MS).toISOString()).execute();
    await this.db.deleteFrom('FILE_GC').where('STATE', '=', 'removed').where('DUE_AT', '<=', nowIso).execute();
    // While a backup runs, only removals decided before it go on (see `paused`).
    const states = (await this.paused(this.db, nowIso)) ? ['removing'] : ['queued', 'removing'];
    const seen = new Set<string>();
    for (;;) {
      const due = await this.db
        .selectFrom('FILE_GC')
        .select('KEY')
        .where('STATE', 'in', states)
        .where('DUE_AT', '<=', nowIso)
        .orderBy('DUE_AT')
        .limit(BATCH)
        .execute();
      const fresh = due.map((r) => r.KEY).filter((k) => !seen.has(k));
      if (fresh.length === 0) break;
      for (const key of fresh) {
        seen.add(key);
        const outcome = await this.process(key, now).catch((err: unknown) => {
          this.options.log.warn({ err, key }, 'file removal failed; retried later');
          return 'skipped' as const;
        });
        if (outcome === 'removed') result.removed.push(key);
        else if (outcome === 'kept') result.kept.push(key);
      }
      if (this.stopped) break;
    }
    return result;
  }

  /** Decides on one due key and removes it when no record points at it. */
  private async process(key: string, now: Date): Promise<'removed' | 'kept' | 'skipped'> {
    const nowIso = now.toISOString();
    const decision = await this.db.transaction().execute(async (trx) => {
      await this.lock(trx, key);
      let query = trx.selectFrom('FILE_GC').select(['STATE', 'DUE_AT']).where('KEY', '=', key);
      if (this.database.dialect === 'postgres') query = query.forUpdate();
      const entry = await query.executeTakeFirst();
      if (!entry || entry.DUE_AT > nowIso || entry.STATE === 'removed') return 'skipped' as const;
      // Decided before: the removal failed or was cut short; no record may point at it since.
      if (entry.STATE === 'removing') return 'remove' as const;
      if (await this.paused(trx, nowIso)) return 'skipped' as const;
      const upload = await trx.selectFrom('UPLOAD').select('CREATED_AT').where('KEY', '=', key).executeTakeFirst();
      const uploadDue = upload && new Date(new Date(upload.CREATED_AT).getTime() + ORPHAN_AGE_MS).toISOString();
      if (uploadDue && uploadDue > nowIso) {
        // Still being uploaded in parts: decided a day after it started.
        await trx.updateTable('FILE_GC').set({ DUE_AT: uploadDue }).where('KEY', '=', key).execute();
        return 'skipped' as const;
      }
      if (await this.isReferenced(trx, key)) {
        await trx.deleteFrom('FILE_GC').where('KEY', '=', key).execute();
        return 'kept' as const;
      }
      await trx.updateTable('FILE_GC').set({ STATE: 'removing' }).where('KEY', '=', key).execute();
      return 'remove' as const;
    });
    if (decision !== 'remove') return decision;

    try {
      const upload = await this.db.selectFrom('UPLOAD').select(['UPLOAD_ID', 'KEY']).where('KEY', '=', key).executeTakeFirst();
      if (upload) {
        // An upload in parts abandoned for a day: its parts go too (on S3, a bucket lifecycle rule
        // catches what an abort refused), and it can no longer be completed.
        await this.storage
          .abortMultipartUpload({ key: upload.KEY, uploadId: upload.UPLOAD_ID })
          .catch((err: unknown) => this.options.log.warn({ err, key }, 'abort of an abandoned multipart upload failed'));
        await this.db.deleteFrom('UPLOAD').where('UPLOAD_ID', '=', upload.UPLOAD_ID).execute();
      }
      const poster = posterKeyOf(key);
      if (poster) await this.storage.remove(poster);
      await this.storage.remove(key);
      // Its original name and size (FILE_NAME, storage/names.ts) go with it.
      await forgetFileName(this.db, key);
    } catch (err) {
      // Kept 'removing': retried after a growing pause (1 minute, doubling, at most 6 hours).
      await this.db
        .updateTable('FILE_GC')
        .set((eb) => ({ TRIES: eb('TRIES', '+', 1) }))
        .where('KEY', '=', key)
        .execute();
      const row = await this.db.selectFrom('FILE_GC').select('TRIES').where('KEY', '=', key).executeTakeFirst();
      const wait = Math.min(MINUTE * 2 ** Math.min((row?.TRIES ?? 1) - 1, 20), 6 * HOUR);
      await this.db
        .updateTable('FILE_GC')
        .set({ DUE_AT: new Date(now.getTime() + wait).toISOString() })
        .where('KEY', '=', key)
        .execute();
      throw err;
    }
    await this.db
      .updateTable('FILE_GC')
      .set({ STATE: 'removed', DUE_AT: new Date(now.getTime() + TOMBSTONE_MS).toISOString() })
      .where('KEY', '=', key)
      .execute();
    return 'removed';
  }

  /**
   * `npm run backup` pauses new decisions from before its database snapshot until its files are
   * copied: a key decided before the snapshot is not pointed at by the snapshot (writes that would
   * point at it are refused from then on), so only decisions after it could lose a snapshot's file.
   */
  private async paused(trx: Kysely<Database>, nowIso: string): Promise<boolean> {
    const row = await trx.selectFrom('SETTING').select('VALUE').where('NAME', '=', PAUSE_SETTING).executeTakeFirst();
    return row !== undefined && row.VALUE > nowIso;
  }

  /** Whether any record points at the key, or at another file of its stem (its video, its poster). */
  async isReferenced(trx: Kysely<Database>, key: string): Promise<boolean> {
    const pattern = likePattern(stemOf(key));
    for (const descriptor of RESOURCES as readonly ResourceDescriptor[]) {
      const fields = linkFields(descriptor);
      if (fields.length === 0) continue;
      const where = sql.join(
        fields.map(({ column }) => sql`${sql.ref(column)} like ${pattern} escape '\\'`),
        sql` or `,
      );
      const { rows } = await sql<{ hit: number }>`select 1 as hit from ${sql.table(descriptor.table)} where ${where} limit 1`.execute(trx);
      if (rows.length > 0) return true;
    }
    return false;
  }

  // ---- Start and stop ----

  /**
   * Adopts files stored before migration 006 (once, before the server answers: its writes are then
   * not interleaved with the first requests), then sweeps now and every 10 minutes.
   */
  async start(): Promise<void> {
    // Listing may be refused (S3 without s3:ListBucket): tried again at the next start.
    await this.adoptExistingFiles().catch((err: unknown) => this.options.log.warn({ err }, 'adoption of files stored before upload tracking failed'));
    const run = () => {
      if (this.running || this.stopped) return;
      this.running = this.sweep()
        .catch((err: unknown) => this.options.log.warn({ err }, 'file sweep failed'))
        .finally(() => (this.running = undefined));
    };
    run();
    this.timer = setInterval(run, SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /**
   * Files stored before this server tracked uploads (migration 006) are queued once, due a day
   * later like any upload: those no record points at then are removed. Only keys of uploads and
   * posters are adopted, never demo files or other objects of a shared bucket.
   */
  async adoptExistingFiles(now = new Date()): Promise<number> {
    const done = await this.db.selectFrom('SETTING').select('VALUE').where('NAME', '=', ADOPTED_SETTING).executeTakeFirst();
    if (done) return 0;
    const dueAt = new Date(now.getTime() + ORPHAN_AGE_MS).toISOString();
    let count = 0;
    let batch: string[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      await this.db
        .insertInto('FILE_GC')
        .values(batch.map((KEY) => ({ KEY, STATE: 'queued', DUE_AT: dueAt, TRIES: 0 })))
        .onConflict((oc) => oc.column('KEY').doNothing())
        .execute();
      count += batch.length;
      batch = [];
    };
    for (const kind of UPLOAD_KINDS) {
      for await (const key of this.storage.listKeys(`${kind}/`)) {
        if (this.stopped) return count;
        if (!isUploadOrPoster(key)) continue;
        batch.push(key);
        if (batch.length >= 200) await flush();
      }
    }
    await flush();
    await this.db
      .insertInto('SETTING')
      .values({ NAME: ADOPTED_SETTING, VALUE: now.toISOString() })
      .onConflict((oc) => oc.column('NAME').doNothing())
      .execute();
    if (count > 0) this.options.log.info({ count }, 'files stored before upload tracking queued for a check in a day');
    return count;
  }
}
