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
    const value = await load();
    this.#entries.set(key, { version, value });
    return value;
  }

  clear(): void {
    this.#entries.clear();
  }
}
