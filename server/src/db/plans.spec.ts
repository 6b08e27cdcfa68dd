// Every default ordering (each descriptor's defaultOrder), with each filter a screen sends, is
// read from an index in order: SQLite's plan must not sort in a temporary B-tree (which would read
// every row of a million before returning 15).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../../schemas/index';
import type { ResourceDescriptor } from '../../../schemas/descriptor';
import { openDatabase, type Db } from './database';
import { parseOrderName } from './orderName';
import { listQueries } from './repository';
import { countedSets } from './rowCounts';

let dir: string;
let database: Db;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plans-'));
  database = await openDatabase({ dataDir: dir });
});
afterAll(async () => {
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A filter value of the field's type (plans do not depend on the value: no statistics are kept). */
const sampleOf = (d: ResourceDescriptor, field: string) => ((d.schema.properties[field] as { type?: unknown }).type === 'integer' ? 1 : 'x');

/**
 * Filters each list may be called with, from the descriptor: every combination whose total is kept
 * (countedSets), or for administrators' lists each filter alone. Records that go with their parent
 * (a reference deleted in cascade: a video's comments) are listed under one parent only.
 */
function filterShapes(d: ResourceDescriptor): Record<string, string | number>[] {
  const sets = d.module === 'admin' ? [[], ...d.filters.map((f) => [f])] : countedSets(d);
  const parents = (d.references ?? []).filter((r) => r.onDelete === 'cascade' && d.filters.includes(r.field)).map((r) => r.field);
  return sets.filter((set) => parents.every((p) => set.includes(p))).map((set) => Object.fromEntries(set.map((f) => [f, sampleOf(d, f)])));
}

const cases = (RESOURCES as readonly ResourceDescriptor[]).flatMap((d) =>
  filterShapes(d).map((equals) => [d.resource, JSON.stringify(equals), d, equals] as const),
);

describe('default orderings are served by indexes', () => {
  it.each(cases)('%s %s', async (_name, _shape, descriptor, equals) => {
    const { rows } = listQueries(database, descriptor, {
      equals,
      contains: {},
      order: parseOrderName(undefined, descriptor),
      page: { index: 2, size: 15 },
      limit: 15,
    });
    const compiled = rows.compile();
    const detail = explain(compiled.sql, compiled.parameters as unknown[]);
    expect(detail).not.toMatch(/TEMP B-TREE/);
    // A table read in the order of its IDs (the rowid) is in order too.
    const byIdOnly = descriptor.defaultOrder.trim().toUpperCase() === 'ID ASC' && Object.keys(equals).length === 0;
    expect(detail).toMatch(byIdOnly ? /^SCAN \S+$|USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY/ : /USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY/);
  });
});

function explain(query: string, parameters: unknown[]): string {
  // A second connection to the same file: plans do not depend on the connection.
  const conn = new Sqlite(path.join(dir, 'zhishi.sqlite'), { readonly: true });
  try {
    const rows = conn.prepare(`EXPLAIN QUERY PLAN ${query}`).all(...parameters) as { detail: string }[];
    return rows.map((r) => r.detail).join('\n');
  } finally {
    conn.close();
  }
}

describe('deep pages', () => {
  it('skip rows in the ordering index only and give the same rows as reading every row', async () => {
    const { videoResource } = await import('../../../schemas/video');
    const descriptor = videoResource as unknown as ResourceDescriptor;
    const sqlite = new Sqlite(path.join(dir, 'zhishi.sqlite'));
    sqlite.prepare("insert into VIDEO_TYPE (VDT_CODE, VDT_NAME, VDT_SORT) values ('deep', '深', 1)").run();
    const insert = sqlite.prepare("insert into VIDEO (VD_CODE, VDT_CODE, VD_NAME, VD_TIME, IS_TOP) values (?, 'deep', ?, ?, ?)");
    // Many ties on (IS_TOP, VD_TIME): only the ID tie-break orders them.
    sqlite.transaction(() => {
      for (let i = 0; i < 1500; i++) insert.run(`deep${i}`, `视频${i}`, `2025-0${1 + (i % 3)}-01`, i % 7 === 0 ? 1 : 0);
    })();
    sqlite.close();
    const order = parseOrderName(undefined, descriptor);
    const query = (page?: { index: number; size: number }) =>
      listQueries(database, descriptor, { equals: { VdtCode: 'deep' }, contains: {}, order, page, limit: 5000 }).rows;
    const all = (await query().execute()) as { VdCode: string }[];
    const deep = query({ index: 80, size: 15 }); // 1,185 rows skipped
    const compiled = deep.compile();
    expect(compiled.sql).toMatch(/"ID" in \(select "ID"/);
    expect(explain(compiled.sql, compiled.parameters as unknown[])).toMatch(/COVERING INDEX VIDEO_TYPE_ORDER/);
    const rows = (await deep.execute()) as { VdCode: string }[];
    expect(rows.map((r) => r.VdCode)).toEqual(all.slice(1185, 1200).map((r) => r.VdCode));
  });
});
