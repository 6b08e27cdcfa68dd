// The play and like counters' writes, gathered: counts that arrive within `intervalMs` of the last
// write go into one transaction, each record's counts as one addition (addToCounter). At 1,000 plays
// a second that is some fifty transactions instead of a thousand: SQLite's one write lock is taken
// that many times, and the read cache (whose entries a write makes stale) is emptied that many times,
// so reads beside the counts keep most of their rate.
//
// What stays as before: a count is answered once its transaction has committed (durable as any
// write), with its own value (the n counts of one record added as n get the values V−n+1 … V in
// their order of arrival, as n single additions would); a count whose transaction fails fails, and
// none of that transaction's counts is kept; a count of a missing record finds nothing. A lone count
// (none written for `intervalMs`) is written at once. Across processes the database adds, so counts
// of several workers add up; nothing waits in memory past `close()` (the server's stop).
import type { Kysely } from 'kysely';
import type { ResourceDescriptor } from '../../../schemas/descriptor';
import type { Db } from './database';
import { addToCounter, type DailyCount } from './repository';

/** Counts waiting for one record's counter on one day. */
interface Pending {
  descriptor: ResourceDescriptor;
  id: number;
  field: string;
  daily: DailyCount | undefined;
  waiting: { resolve(value: number | undefined): void; reject(error: unknown): void }[];
}

export class CounterBatch {
  readonly #database: Db;
  readonly #intervalMs: number;
  #pending = new Map<string, Pending>();
  #timer: NodeJS.Timeout | undefined;
  /** The write under way, if any: the next waits for it (one connection, one writer). */
  #writing: Promise<void> = Promise.resolve();
  #lastWrite = 0;

  constructor(database: Db, options: { intervalMs: number }) {
    this.#database = database;
    this.#intervalMs = options.intervalMs;
  }

  /** Adds one to `field` of record `id` (and to its day's row): its new value, or undefined when there is no such record. */
  increment(descriptor: ResourceDescriptor, id: number, field: string, daily?: DailyCount): Promise<number | undefined> {
    const key = `${descriptor.resource} ${id} ${field} ${daily ? `${daily.descriptor.resource} ${daily.day}` : ''}`;
    let pending = this.#pending.get(key);
    if (!pending) {
      pending = { descriptor, id, field, daily, waiting: [] };
      this.#pending.set(key, pending);
    }
    const answer = new Promise<number | undefined>((resolve, reject) => pending.waiting.push({ resolve, reject }));
    this.#schedule();
    return answer;
  }

  /** Writes what is waiting, and what comes in meanwhile. */
  async close(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    while (this.#pending.size > 0) await this.#write();
    await this.#writing;
  }

  #schedule(): void {
    if (this.#timer) return;
    const wait = Math.max(0, this.#lastWrite + this.#intervalMs - Date.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#write();
    }, wait);
  }

  #write(): Promise<void> {
    const batch = [...this.#pending.values()];
    this.#pending = new Map();
    // In the order of the records' IDs: on PostgreSQL two workers' transactions lock them in one order.
    batch.sort((a, b) => a.id - b.id);
    const run = async () => {
      this.#lastWrite = Date.now();
      const values = new Map<Pending, number | undefined>();
      try {
        await (this.#database.db as unknown as Kysely<Record<string, unknown>>).transaction().execute(async (trx) => {
          for (const p of batch) values.set(p, await addToCounter(trx as never, p.descriptor, p.id, p.field, p.daily, p.waiting.length));
        });
      } catch (error) {
        for (const p of batch) for (const w of p.waiting) w.reject(error);
        return;
      }
      for (const p of batch) {
        const last = values.get(p);
        p.waiting.forEach((w, i) => w.resolve(last === undefined ? undefined : last - p.waiting.length + 1 + i));
      }
    };
    this.#writing = this.#writing.then(run);
    return this.#writing;
  }
}
