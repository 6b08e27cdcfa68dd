// Values read from the database, kept while its change clock (Db.dataVersion) stays where it was
// when they were read: any write, in this process or another, makes every entry stale at once,
// so a value served from here is exactly what reading again would give.
import { LRUCache } from 'lru-cache';

interface Entry<V> {
  version: string;
  value: V;
}

export class VersionedCache<V extends NonNullable<unknown>> {
  readonly #entries: LRUCache<string, Entry<V>>;
  /** Loads under way: calls asking for one key under one version at once share one (a write makes every reader miss together). */
  readonly #loading = new Map<string, { version: string; value: Promise<V> }>();

  constructor(limits: { maxEntries: number; maxBytes?: number; sizeOf?: (value: V) => number }) {
    const { maxEntries, maxBytes, sizeOf } = limits;
    this.#entries =
      maxBytes && sizeOf
        ? new LRUCache({ max: maxEntries, maxSize: maxBytes, sizeCalculation: (e) => Math.max(1, sizeOf(e.value)) })
        : new LRUCache({ max: maxEntries });
  }

  /**
   * The kept value when still exact, else `load()`, kept under `version`. The version must have been
   * read before `load()` reads anything, and after the caller's request arrived (never reuse an
   * older reading: a write acknowledged in between would then be missed). Undefined: no caching.
   */
  async get(key: string, version: string | undefined, load: () => Promise<V>): Promise<V> {
    if (version === undefined) return load();
    const entry = this.#entries.get(key);
    if (entry && entry.version === version) return entry.value;
    const loading = this.#loading.get(key);
    if (loading && loading.version === version) return loading.value;
    const value = load();
    this.#loading.set(key, { version, value });
    try {
      const loaded = await value;
      this.#entries.set(key, { version, value: loaded });
      return loaded;
    } finally {
      if (this.#loading.get(key)?.value === value) this.#loading.delete(key);
    }
  }

  clear(): void {
    this.#entries.clear();
    this.#loading.clear();
  }
}

/**
 * A change clock read at most once per turn of the event loop: the calls made in one turn (the
 * requests that arrived together) share one reading, taken once they have all been made, so it is
 * later than each of their requests' arrival, as VersionedCache asks. A call made once the reading
 * has begun waits for the next one. At 16 connections a turn holds several requests: the clock's
 * cost (SQLite's data_version takes a shared-memory lock; PostgreSQL's snapshot is a round trip)
 * is paid once for them all.
 */
export function oncePerTurn<T>(read: () => Promise<T>): () => Promise<T> {
  let next: Promise<T> | undefined;
  return () => {
    next ??= new Promise<T>((resolve, reject) => {
      setImmediate(() => {
        next = undefined;
        read().then(resolve, reject);
      });
    });
    return next;
  };
}
