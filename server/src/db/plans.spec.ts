// Every default ordering of SPEC.md section 9, with each filter a screen sends, is read from an
// index in order: SQLite's plan must not sort in a temporary B-tree (which would read every row
// of a million before returning 15).
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

/** Filters each list is called with on its screens. */
const FILTER_SHAPES: Record<string, Record<string, string | number>[]> = {
  video: [{}, { VdtCode: 'x' }],
  videoType: [{}],
  videoComment: [{ VdCode: 'x' }],
  useweb: [{}],
  article: [{}, { ScCode: 'x' }, { type: 1 }],
  tykjArticle: [{}, { ScCode: 'x' }, { type: 0 }],
  classify: [{}, { type: 1 }, { ScFatherCode: '0', type: 1 }, { ScFatherCode: 'x' }],
  tykjClassify: [{}, { type: 0 }, { ScFatherCode: '0', type: 0 }],
  auditLog: [{}, { Resource: 'video' }, { AuCode: 'x' }],
};

const cases = (RESOURCES as readonly ResourceDescriptor[])
  .filter((d) => d.resource !== 'member')
  .flatMap((d) => (FILTER_SHAPES[d.resource] ?? [{}]).map((equals) => [d.resource, JSON.stringify(equals), d, equals] as const));

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
    expect(detail).toMatch(/USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY/);
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
