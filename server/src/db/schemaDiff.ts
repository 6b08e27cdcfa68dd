// What the entity declarations need of the database, compared with a migrated one, and the
// migration that closes the gap. A descriptor needs its table with an integer primary key `ID`, a
// column per stored field, its code field unique, a unique index per set of fields it declares
// `unique`, and an index reading its default order under every filter shape its lists use; a
// descriptor with `fullText`, on SQLite, an FTS5 table of its own (docs/fullText.md). `npm run db:generate` (scripts/db-generate.ts) writes the
// migration; the tests (schemaDiff.spec.ts, tests/api/migrations.test.ts) fail while one is due.
// Only additions are planned, but for the full-text index of a table whose entities no longer
// declare `fullText`: derived from the records, it is dropped. Nothing else is dropped or rewritten.
import SQLite from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import { toColumn, type ResourceDescriptor } from '../../../schemas/descriptor';
import { runMigrations, type DialectName } from './database';
import type { MigrationModule } from './migrations/index';
import { parseOrderName } from './orderName';
import { countedSets } from './rowCounts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the comparison reads raw tables
type RawDb = Kysely<any>;

// ---------------------------------------------------------------------------------------------
// The database as it is
// ---------------------------------------------------------------------------------------------

export interface IndexColumn {
  /** null for an expression. */
  readonly name: string | null;
  readonly desc: boolean;
}

export interface IndexInfo {
  readonly name: string;
  readonly unique: boolean;
  readonly columns: readonly IndexColumn[];
}

export interface TableInfo {
  readonly name: string;
  /** Column name → declared type, as the database reports it. */
  readonly columns: ReadonlyMap<string, string>;
  readonly primaryKey: readonly string[];
  /** Every index, the primary key included (SQLite's rowid key as a one-column index on it). */
  readonly indexes: readonly IndexInfo[];
  /** A virtual table's module, lower-case (`fts5`); SQLite only. */
  readonly module?: string;
}

export type DatabaseShape = ReadonlyMap<string, TableInfo>;

/** Tables, columns, primary keys and indexes of a database, from Kysely's introspection and the catalogue. */
export async function introspect(db: RawDb, dialect: DialectName): Promise<DatabaseShape> {
  let tables = (await db.introspection.getTables()).filter((t) => !t.isView);
  let keys: Map<string, Keys>;
  if (dialect === 'postgres') {
    const { schema, byTable } = await postgresKeys(db);
    // PostgreSQL lists every schema; the app's tables are in the connection's own.
    tables = tables.filter((t) => t.schema === schema);
    keys = byTable;
  } else {
    keys = await sqliteKeys(db, tables.map((t) => t.name));
  }
  const modules = dialect === 'sqlite' ? await sqliteModules(db) : new Map<string, string>();
  const shape = new Map<string, TableInfo>();
  for (const table of tables) {
    const own = keys.get(table.name) ?? { primaryKey: [], indexes: [] };
    const module = modules.get(table.name);
    shape.set(table.name, {
      name: table.name,
      columns: new Map(table.columns.map((c) => [c.name, c.dataType])),
      primaryKey: own.primaryKey,
      indexes: own.indexes,
      ...(module ? { module } : {}),
    });
  }
  return shape;
}

/** The module of each virtual table (`create virtual table … using fts5(…)`), by table name. */
async function sqliteModules(db: RawDb): Promise<Map<string, string>> {
  const { rows } = await sql<{ name: string; sql: string | null }>`select name, sql from sqlite_master where type = 'table'`.execute(db);
  const out = new Map<string, string>();
  for (const row of rows) {
    const module = /^\s*create\s+virtual\s+table\s.*?\busing\s+(\w+)/is.exec(row.sql ?? '')?.[1];
    if (module) out.set(row.name, module.toLowerCase());
  }
  return out;
}

interface Keys {
  primaryKey: string[];
  indexes: IndexInfo[];
}

async function sqliteKeys(db: RawDb, tables: string[]): Promise<Map<string, Keys>> {
  const out = new Map<string, Keys>();
  for (const table of tables) {
    const { rows: pk } = await sql<{ name: string }>`select name from pragma_table_info(${table}) where pk > 0 order by pk`.execute(db);
    const primaryKey = pk.map((r) => r.name);
    const indexes: IndexInfo[] = [];
    // An INTEGER PRIMARY KEY is the rowid: the table itself is ordered by it, with no index listed.
    if (primaryKey.length === 1) indexes.push({ name: `${table} primary key`, unique: true, columns: [{ name: primaryKey[0]!, desc: false }] });
    const { rows: list } = await sql<{ name: string; unique: number }>`select name, "unique" from pragma_index_list(${table})`.execute(db);
    for (const index of list) {
      const { rows: columns } = await sql<{ name: string | null; desc: number }>`
        select name, "desc" from pragma_index_xinfo(${index.name}) where key = 1 order by seqno`.execute(db);
      indexes.push({ name: index.name, unique: index.unique === 1, columns: columns.map((c) => ({ name: c.name, desc: c.desc === 1 })) });
    }
    out.set(table, { primaryKey, indexes });
  }
  return out;
}

async function postgresKeys(db: RawDb): Promise<{ schema: string | undefined; byTable: Map<string, Keys> }> {
  const { rows } = await sql<{
    table_name: string;
    index_name: string;
    is_unique: boolean;
    is_primary: boolean;
    column_name: string | null;
    is_desc: boolean;
  }>`
    select t.relname as table_name, i.relname as index_name, ix.indisunique as is_unique, ix.indisprimary as is_primary,
      a.attname as column_name, (k.opt & 1) = 1 as is_desc
    from pg_index ix
    join pg_class t on t.oid = ix.indrelid
    join pg_class i on i.oid = ix.indexrelid
    join pg_namespace n on n.oid = t.relnamespace
    cross join lateral unnest(ix.indkey::int2[], ix.indoption::int2[]) with ordinality as k(attnum, opt, ord)
    left join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum and k.attnum > 0
    where n.nspname = current_schema() and k.ord <= ix.indnkeyatts
    order by t.relname, i.relname, k.ord`.execute(db);
  const { rows: schema } = await sql<{ name: string }>`select current_schema() as name`.execute(db);
  const out = new Map<string, Keys>();
  const byIndex = new Map<string, { table: string; primary: boolean; info: { name: string; unique: boolean; columns: IndexColumn[] } }>();
  for (const row of rows) {
    let entry = byIndex.get(row.index_name);
    if (!entry) {
      entry = { table: row.table_name, primary: row.is_primary, info: { name: row.index_name, unique: row.is_unique, columns: [] } };
      byIndex.set(row.index_name, entry);
    }
    entry.info.columns.push({ name: row.column_name, desc: row.is_desc });
  }
  for (const { table, primary, info } of byIndex.values()) {
    const keys = out.get(table) ?? { primaryKey: [], indexes: [] };
    if (primary) keys.primaryKey = info.columns.map((c) => c.name ?? '');
    keys.indexes.push(info);
    out.set(table, keys);
  }
  return { schema: schema[0]?.name, byTable: out };
}

/** A fresh in-memory SQLite database taken through these migrations, as introspected. */
export async function migratedShape(migrations: Readonly<Record<string, MigrationModule>>): Promise<DatabaseShape> {
  const db: RawDb = new Kysely({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
  try {
    await runMigrations(db, 'sqlite', migrations);
    return await introspect(db, 'sqlite');
  } finally {
    await db.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// What the declarations need
// ---------------------------------------------------------------------------------------------

export type ColumnType = 'integer' | 'text' | 'double precision';

export interface ColumnSpec {
  readonly name: string;
  /** The field it stores, for messages. */
  readonly field: string;
  readonly type: ColumnType;
  readonly nullable: boolean;
  /** Value of existing and omitted rows; undefined: none (a unique code, a nullable field). */
  readonly default: string | number | undefined;
  readonly unique: boolean;
}

/** An index reading `order` after equality on the `lead` columns (in any order). */
export interface OrderIndexSpec {
  readonly lead: readonly string[];
  readonly order: readonly { name: string; desc: boolean }[];
  /** What it serves, for messages: `video by VdtCode`. */
  readonly purpose: string;
  /** The start of its name, for an index a descriptor declares (`indexes`): the table and its columns. */
  readonly name?: string;
}

/** Fields no two rows share (a descriptor's `unique`): a unique index on their columns. */
export interface UniqueSpec {
  readonly columns: readonly string[];
  readonly fields: readonly string[];
  /** What it holds, for messages: `videoDaily: one row per VdCode, Day`. */
  readonly purpose: string;
}

export interface TableSpec {
  readonly table: string;
  readonly resources: readonly string[];
  readonly columns: readonly ColumnSpec[];
  readonly codeColumn: string | undefined;
  readonly uniques: readonly UniqueSpec[];
  readonly indexes: readonly OrderIndexSpec[];
  /** Filter column sets whose totals ROW_COUNT keeps (rowCounts.ts); empty: none kept. */
  readonly countedSets: readonly (readonly string[])[];
  readonly filterColumns: readonly string[];
}

interface Property {
  readonly type?: string | readonly string[];
  readonly default?: unknown;
  readonly writeOnly?: boolean;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
}

const propertiesOf = (d: ResourceDescriptor) => d.schema.properties as Readonly<Record<string, Property>>;

/** The column storing a field, typed from its JSON schema. */
export function columnOf(field: string, property: Property, unique = false): ColumnSpec {
  const types = property.type === undefined ? [] : typeof property.type === 'string' ? [property.type] : [...property.type];
  const nullable = types.includes('null');
  const kind = types.find((t) => t !== 'null') ?? (typeof property.enum?.[0] === 'number' ? 'integer' : 'string');
  const given = property.default;
  const name = toColumn(field);
  const spec = (type: ColumnType, fallback: string | number, value: string | number | undefined): ColumnSpec => ({
    name,
    field,
    type,
    nullable,
    // A unique code gets no default: each row has its own. A nullable field defaults to null.
    default: unique ? undefined : (value ?? (nullable ? undefined : fallback)),
    unique,
  });
  switch (kind) {
    case 'integer':
    case 'boolean':
      return spec('integer', 0, typeof given === 'boolean' ? Number(given) : typeof given === 'number' ? Math.trunc(given) : undefined);
    case 'number':
      return spec('double precision', 0, typeof given === 'number' ? given : undefined);
    case 'object':
    case 'array':
      // Stored as JSON text.
      return spec('text', kind === 'object' ? '{}' : '[]', given === undefined ? undefined : JSON.stringify(given));
    default:
      return spec('text', '', given === undefined || given === null ? undefined : String(given));
  }
}

/** A filter with a handful of values (an enum, a flag): the order's index, checking it as it scans, finds a page soon. */
function fewValues(d: ResourceDescriptor, field: string): boolean {
  const p = propertiesOf(d)[field];
  return !!p && (p.enum !== undefined || p.const !== undefined || p.type === 'boolean');
}

/**
 * A filter whose value follows from another filter of the shape: copied on write from the record
 * that other filter references (an article's type is its classification's). A reference with a
 * `root` does not fix it: the root's children have every value.
 */
function determinedBy(d: ResourceDescriptor, field: string, shape: readonly string[]): boolean {
  return (d.references ?? []).some(
    (r) => r.field !== field && shape.includes(r.field) && r.root === undefined && Object.values(r.copy ?? {}).includes(field),
  );
}

/**
 * The equality-filter shapes (field sets) a resource's lists must read from an index in default
 * order. Counted resources: every counted set (rowCounts.ts). Administrators' lists keep no totals:
 * each filter on its own, a second one checked while the index is scanned. Then:
 * - records that go with their parent (a reference deleted in cascade) are listed under one parent
 *   (a video's comments): shapes without that filter are not read;
 * - a few-valued filter adds nothing to an index (fewValues), nor one fixed by another (determinedBy).
 */
export function indexedShapes(d: ResourceDescriptor): string[][] {
  const shapes = d.module === 'admin' ? [[], ...d.filters.map((f) => [f])] : countedSets(d);
  const parents = (d.references ?? []).filter((r) => r.onDelete === 'cascade' && d.filters.includes(r.field)).map((r) => r.field);
  const out = new Map<string, string[]>();
  for (const shape of shapes) {
    if (!parents.every((p) => shape.includes(p))) continue;
    const reduced = shape.filter((f) => !fewValues(d, f) && !determinedBy(d, f, shape));
    out.set([...reduced].sort().join('|'), reduced);
  }
  return [...out.values()];
}

/** The default order as index columns: `IS_TOP DESC, VD_TIME DESC` → IS_TOP, VD_TIME, ID (all desc). */
export function orderColumns(d: ResourceDescriptor): { name: string; desc: boolean }[] {
  try {
    return parseOrderName(undefined, d).map((t) => ({ name: t.column, desc: t.direction === 'desc' }));
  } catch {
    throw new Error(`${d.resource}: defaultOrder '${d.defaultOrder}' is not a list of its own columns`);
  }
}

/** A sortable field's order as index columns: the field, then the Id (docs/api.md: ties by Id). */
function sortColumns(d: ResourceDescriptor, field: string): { name: string; desc: boolean }[] {
  return parseOrderName(`${toColumn(field)} ASC`, d).map((t) => ({ name: t.column, desc: t.direction === 'desc' }));
}

/** What each table needs, from the descriptors (several descriptors on one table add up). */
export function requiredTables(descriptors: readonly ResourceDescriptor[]): TableSpec[] {
  interface Building {
    table: string;
    resources: string[];
    columns: ColumnSpec[];
    codeColumn: string | undefined;
    uniques: UniqueSpec[];
    indexes: OrderIndexSpec[];
    countedSets: string[][];
    filterColumns: string[];
  }
  const specs = new Map<string, Building>();
  for (const d of descriptors) {
    let spec = specs.get(d.table);
    if (!spec) {
      spec = { table: d.table, resources: [], columns: [], codeColumn: undefined, uniques: [], indexes: [], countedSets: [], filterColumns: [] };
      specs.set(d.table, spec);
    }
    spec.resources.push(d.resource);
    if (d.codeField) spec.codeColumn = toColumn(d.codeField);
    for (const [field, property] of Object.entries(propertiesOf(d))) {
      // Never stored as itself (a password is kept as its hash, in a column of its own).
      if (property.writeOnly) continue;
      const column = toColumn(field);
      if (column === 'ID' || spec.columns.some((c) => c.name === column)) continue;
      spec.columns.push(columnOf(field, property, field === d.codeField));
    }
    for (const fields of d.unique ?? []) {
      const columns = fields.map(toColumn);
      if (!spec.uniques.some((u) => sameSet(u.columns, columns))) spec.uniques.push({ columns, fields, purpose: `${d.resource}: one row per ${fields.join(', ')}` });
    }
    // The default order, then each sortable column (its header clicked), under every filter shape.
    const orders = [
      { order: orderColumns(d), what: '' },
      ...(d.sortable ?? []).map((field) => ({ order: sortColumns(d, field), what: ` sorted by ${field}` })),
    ];
    for (const shape of indexedShapes(d)) {
      const lead = shape.map(toColumn);
      for (const { order, what } of orders) {
        const index = {
          lead,
          // A column fixed by equality orders nothing.
          order: order.filter((o) => !lead.includes(o.name)),
          purpose: (shape.length === 0 ? `${d.resource}, unfiltered` : `${d.resource} by ${shape.join(', ')}`) + what,
        };
        if (!spec.indexes.some((i) => sameIndexSpec(i, index))) spec.indexes.push(index);
      }
    }
    // Indexes a special call reads (`indexes`): the columns in order, ascending.
    for (const fields of d.indexes ?? []) {
      const columns = fields.map(toColumn);
      const index = { lead: [], order: columns.map((name) => ({ name, desc: false })), purpose: `${d.resource}: ${fields.join(', ')}`, name: `${d.table}_${columns.join('_')}` };
      if (!spec.indexes.some((i) => sameIndexSpec(i, index))) spec.indexes.push(index);
    }
    for (const set of countedSets(d).map((s) => s.map(toColumn))) {
      if (!spec.countedSets.some((s) => s.join('|') === set.join('|'))) spec.countedSets.push(set);
    }
    for (const f of d.filters.map(toColumn)) if (!spec.filterColumns.includes(f)) spec.filterColumns.push(f);
  }
  return [...specs.values()];
}

function sameIndexSpec(a: OrderIndexSpec, b: OrderIndexSpec): boolean {
  return (
    sameSet(a.lead, b.lead) &&
    a.order.length === b.order.length &&
    a.order.every((o, i) => o.name === b.order[i]!.name && o.desc === b.order[i]!.desc)
  );
}

const sameSet = (a: readonly (string | null)[], b: readonly (string | null)[]) =>
  a.length === b.length && a.every((x) => b.includes(x)) && b.every((x) => a.includes(x));

/**
 * An index serves a need when it starts with the lead columns (any order), then has the order's
 * columns in order, each in the order's direction or each reversed (scanned backwards). A unique
 * index may stop early: past its last column no two rows tie, so the rest of the order (the ID
 * tie-break) has nothing left to order, unless a column it ends with may be NULL (`nullable`),
 * which never conflicts.
 */
export function serves(index: IndexInfo, need: OrderIndexSpec, nullable: ReadonlySet<string> = new Set()): boolean {
  const { lead, order } = need;
  if (index.columns.length < lead.length) return false;
  if (!sameSet(index.columns.slice(0, lead.length).map((c) => c.name), lead)) return false;
  const rest = index.columns.length - lead.length;
  const uniqueEarly = index.unique && rest < order.length && index.columns.slice(lead.length).every((c) => c.name !== null && !nullable.has(c.name));
  if (rest < order.length && !uniqueEarly) return false;
  const tail = index.columns.slice(lead.length, lead.length + Math.min(order.length, rest));
  if (tail.some((c, i) => c.name !== order[i]!.name)) return false;
  const reversed = tail.map((c, i) => c.desc !== order[i]!.desc);
  return reversed.every((r) => r === reversed[0]);
}

// ---------------------------------------------------------------------------------------------
// The difference
// ---------------------------------------------------------------------------------------------

export interface PlannedIndex {
  readonly table: string;
  readonly name: string;
  readonly columns: readonly { name: string; desc: boolean }[];
  readonly purpose: string;
  /** A set of fields declared unique together (planned on new tables only). */
  readonly unique?: true;
}

/** The SQLite FTS5 table of an entity table with `fullText` (server/src/fullText/store.ts writes it, search.ts reads it). */
export const fullTextTable = (table: string) => `${table}_FTS`;

/**
 * Its definition, as migration 011 made the articles' (a spec compares them): contentless (the
 * text is FT_PAGE's), rows deletable by rowid (minus FT_PAGE.ID), the tokens already spaced by
 * server/src/fullText/tokens.ts, which unicode61 keeps as they are.
 */
export const FTS5_ARGUMENTS = "BODY, PAIRS, TAG, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0'";

export interface SchemaDiff {
  /** Whole tables, created with their columns; their indexes are in `createIndexes`. */
  readonly createTables: readonly TableSpec[];
  /** Columns added to existing tables, with a default: existing rows keep their data. */
  readonly addColumns: readonly { table: string; column: ColumnSpec }[];
  readonly createIndexes: readonly PlannedIndex[];
  /** Existing tables whose totals (ROW_COUNT) are counted again: a filter was added. */
  readonly recounts: readonly { table: string; sets: readonly (readonly string[])[] }[];
  /**
   * Tables whose entities declare `fullText` and have no FTS5 table (SQLite; PostgreSQL's index is
   * FT_PAGE's tsvector, one for every table): created, and their records queued for the indexer.
   */
  readonly createFullText: readonly { table: string; resources: readonly string[] }[];
  /** Tables with an FTS5 table whose entities no longer declare `fullText`: their index, pages and queue go. */
  readonly dropFullText: readonly string[];
  /** What only a hand-written migration can do; while there are any, nothing is generated. */
  readonly problems: readonly string[];
}

export const isEmpty = (diff: SchemaDiff) =>
  diff.createTables.length +
    diff.addColumns.length +
    diff.createIndexes.length +
    diff.recounts.length +
    diff.createFullText.length +
    diff.dropFullText.length +
    diff.problems.length ===
  0;

/** PostgreSQL's longest identifier. */
const MAX_NAME = 63;
const IDENTIFIER = /^[A-Z_][A-Z0-9_]*$/;

/**
 * What the declarations need and the database lacks. The generator compares with SQLite (a fresh
 * database taken through the migrations); `postgres` compares a PostgreSQL database, which has no
 * FTS5 tables.
 */
export function diffSchema(descriptors: readonly ResourceDescriptor[], shape: DatabaseShape, dialect: DialectName = 'sqlite'): SchemaDiff {
  const createTables: TableSpec[] = [];
  const addColumns: { table: string; column: ColumnSpec }[] = [];
  const createIndexes: PlannedIndex[] = [];
  const recounts: { table: string; sets: readonly (readonly string[])[] }[] = [];
  const problems: string[] = [];
  // Index names are global to the database (and share PostgreSQL's namespace with tables).
  const taken = new Set<string>();
  for (const table of shape.values()) {
    taken.add(table.name.toUpperCase());
    for (const index of table.indexes) taken.add(index.name.toUpperCase());
  }
  const plan = (table: string, need: OrderIndexSpec) => {
    const base = need.name ?? `${table}_${need.lead.map((c) => `${c}_`).join('')}ORDER`;
    const name = uniqueName(base, taken);
    taken.add(name);
    // An order in one direction is read backwards from an ascending index, as 001's are.
    const uniform = need.order.every((o) => o.desc === need.order[0]?.desc);
    const columns = [...need.lead.map((c) => ({ name: c, desc: false })), ...need.order.map((o) => ({ name: o.name, desc: uniform ? false : o.desc }))];
    createIndexes.push({ table, name, columns, purpose: need.purpose });
  };
  const planUnique = (table: string, unique: UniqueSpec): IndexInfo => {
    const name = uniqueName(`${table}_${unique.columns.join('_')}_UNIQUE`, taken);
    taken.add(name);
    const columns = unique.columns.map((c) => ({ name: c, desc: false }));
    createIndexes.push({ table, name, columns, purpose: unique.purpose, unique: true });
    return { name, unique: true, columns };
  };

  for (const spec of requiredTables(descriptors)) {
    for (const name of [spec.table, ...spec.columns.map((c) => c.name)]) {
      if (!IDENTIFIER.test(name)) problems.push(`${spec.resources.join(', ')}: ${name} is not a plain upper-case SQL name`);
    }
    for (const f of spec.filterColumns) {
      if (!spec.columns.some((c) => c.name === f)) problems.push(`${spec.resources.join(', ')}: the filter ${f} is not a stored field`);
    }
    for (const u of spec.uniques) {
      for (const c of u.columns) if (!spec.columns.some((s) => s.name === c)) problems.push(`${spec.resources.join(', ')}: the unique field ${c} is not a stored field`);
    }
    const nullable = new Set(spec.columns.filter((c) => c.nullable).map((c) => c.name));
    const table = shape.get(spec.table);
    if (!table) {
      createTables.push(spec);
      // The unique sets first: an order they serve needs no index of its own.
      const uniques = spec.uniques.map((u) => planUnique(spec.table, u));
      for (const need of spec.indexes) {
        if (need.lead.length === 0 && need.order.length === 1 && need.order[0]!.name === 'ID') continue;
        if (!uniques.some((u) => serves(u, need, nullable))) plan(spec.table, need);
      }
      continue;
    }
    const idType = table.columns.get('ID');
    if (!idType || !/^(integer|int4|int8|bigint|serial)$/i.test(idType) || table.primaryKey.join() !== 'ID') {
      problems.push(`${spec.table}: needs an integer primary key ID (a table rebuild: write that migration by hand)`);
    }
    let filterAdded = false;
    for (const column of spec.columns) {
      if (table.columns.has(column.name)) continue;
      if (column.unique) {
        problems.push(
          `${spec.table}: the code field ${column.field} (${column.name}) is missing; existing rows need distinct codes before it can be unique (write that migration by hand)`,
        );
        continue;
      }
      addColumns.push({ table: spec.table, column });
      if (spec.filterColumns.includes(column.name)) filterAdded = true;
    }
    if (spec.codeColumn && table.columns.has(spec.codeColumn)) {
      const unique = table.indexes.some((i) => i.unique && i.columns.length === 1 && i.columns[0]!.name === spec.codeColumn);
      if (!unique) problems.push(`${spec.table}: the code column ${spec.codeColumn} is not unique (existing duplicates must be resolved by hand)`);
    }
    for (const u of spec.uniques) {
      if (!table.indexes.some((i) => i.unique && sameSet(i.columns.map((c) => c.name), u.columns))) {
        problems.push(
          `${spec.table}: ${u.fields.join(', ')} are declared unique together but not unique in the table (existing duplicates must be resolved by hand)`,
        );
      }
    }
    for (const need of spec.indexes) {
      if (table.indexes.some((i) => serves(i, need, nullable))) continue;
      plan(spec.table, need);
      if (need.lead.length > 0) filterAdded = true;
    }
    // A new filter on a table with rows: its totals are not kept yet, so all are counted again.
    if (filterAdded && spec.countedSets.length > 0) recounts.push({ table: spec.table, sets: spec.countedSets });
  }
  const { createFullText, dropFullText } = dialect === 'sqlite' ? fullTextDiff(descriptors, shape) : { createFullText: [], dropFullText: [] };
  return { createTables, addColumns, createIndexes, recounts, createFullText, dropFullText, problems };
}

/** FTS5 tables to create (an entity declares `fullText`) and to drop (none of its table's does any more). */
function fullTextDiff(descriptors: readonly ResourceDescriptor[], shape: DatabaseShape): Pick<SchemaDiff, 'createFullText' | 'dropFullText'> {
  const searched = new Map<string, string[]>();
  for (const d of descriptors) if (d.fullText) searched.set(d.table, [...(searched.get(d.table) ?? []), d.resource]);
  const createFullText = [...searched]
    .filter(([table]) => shape.get(fullTextTable(table))?.module !== 'fts5')
    .map(([table, resources]) => ({ table, resources }));
  const dropFullText = [...shape.values()]
    .filter((t) => t.module === 'fts5' && t.name.endsWith(fullTextTable('')) && IDENTIFIER.test(t.name))
    .map((t) => t.name.slice(0, -fullTextTable('').length))
    .filter((table) => !searched.has(table))
    .sort();
  return { createFullText, dropFullText };
}

function uniqueName(base: string, taken: ReadonlySet<string>): string {
  const fit = (name: string, suffix = '') => (name.length + suffix.length > MAX_NAME ? name.slice(0, MAX_NAME - suffix.length) : name) + suffix;
  let name = fit(base);
  for (let n = 2; taken.has(name.toUpperCase()); n++) name = fit(base, `_${n}`);
  return name;
}

const indexText = (columns: PlannedIndex['columns']) => columns.map((c) => (c.desc ? `${c.name} desc` : c.name)).join(', ');

const columnText = (c: ColumnSpec) =>
  `${c.name} ${c.type}${c.nullable ? '' : ' not null'}${c.default === undefined ? '' : ` default ${JSON.stringify(c.default)}`}${c.unique ? ' unique' : ''}`;

/** The difference, one line per change, for people. */
export function describeDiff(diff: SchemaDiff): string[] {
  return [
    ...diff.problems.map((p) => `cannot generate: ${p}`),
    ...diff.createTables.map((t) => `new table ${t.table} (${t.resources.join(', ')}): ID, ${t.columns.map((c) => c.name).join(', ')}`),
    ...diff.addColumns.map(({ table, column }) => `new column ${table}.${columnText(column)} (${column.field})`),
    ...diff.createIndexes.map((i) => `new ${i.unique ? 'unique index' : 'index'} ${i.name} on ${i.table} (${indexText(i.columns)}) for ${i.purpose}`),
    ...diff.recounts.map((r) => `totals of ${r.table} (ROW_COUNT) counted again for its filters`),
    ...diff.createFullText.map((f) => `new full-text index ${fullTextTable(f.table)} (FTS5, SQLite) for ${f.resources.join(', ')}; its records queued for the indexer`),
    ...diff.dropFullText.map((table) => `drop the full-text index of ${table} (${fullTextTable(table)}, its pages and queue): no entity of it declares fullText`),
  ];
}

// ---------------------------------------------------------------------------------------------
// The migration file
// ---------------------------------------------------------------------------------------------

/** A TypeScript string literal. */
function lit(value: string | number): string {
  if (typeof value === 'number') return String(value);
  return `'${JSON.stringify(value).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

function columnBuilder(c: ColumnSpec): string {
  const calls = [c.nullable ? '' : '.notNull()', c.default === undefined ? '' : `.defaultTo(${lit(c.default)})`, c.unique ? '.unique()' : ''].join('');
  return calls === '' ? `.addColumn(${lit(c.name)}, ${lit(c.type)})` : `.addColumn(${lit(c.name)}, ${lit(c.type)}, (c) => c${calls})`;
}

/** The `ROW_COUNT` key expression of a set, as 003 and rowCounts.ts build it: `VDT_CODE=x|TYPE=1`, '' for all. */
function countKey(set: readonly string[]): string {
  if (set.length === 0) return `''`;
  return set.map((c, i) => `'${i > 0 ? '|' : ''}${c}=' || cast("${c}" as text)`).join(' || ');
}

/**
 * The migration's source: self-contained Kysely schema-builder code with literal names, never
 * importing app code, so that it means the same forever once written.
 */
export function renderMigration(diff: SchemaDiff, name: string): string {
  if (diff.problems.length > 0) throw new Error(`cannot generate a migration:\n${diff.problems.join('\n')}`);
  const body: string[] = [];
  const fullText = diff.createFullText.length + diff.dropFullText.length > 0;
  const usesDialect = diff.createTables.length > 0 || diff.addColumns.length > 0 || fullText;
  const usesSql = diff.addColumns.length > 0 || diff.recounts.length > 0 || fullText;
  for (const t of diff.createTables) {
    body.push(
      `  // ${t.resources.join(', ')}`,
      `  await db.schema`,
      `    .createTable(${lit(t.table)})`,
      `    .ifNotExists()`,
      `    .addColumn('ID', dialect === 'postgres' ? 'serial' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))`,
      ...t.columns.map((c) => `    ${columnBuilder(c)}`),
      `    .execute();`,
    );
  }
  const altered = [...new Set(diff.addColumns.map((a) => a.table))];
  if (altered.length > 0) {
    body.push(
      `  // Added with a default (or null): existing rows keep their data. Skipped when already there.`,
      `  const has = async (table: string, column: string) =>`,
      `    (dialect === 'postgres'`,
      `      ? await sql\`select 1 from information_schema.columns where table_schema = current_schema() and table_name = \${table} and column_name = \${column}\`.execute(db)`,
      `      : await sql\`select 1 from pragma_table_info(\${table}) where name = \${column}\`.execute(db)`,
      `    ).rows.length > 0;`,
    );
    for (const { table, column } of diff.addColumns) {
      body.push(
        `  if (!(await has(${lit(table)}, ${lit(column.name)}))) {`,
        `    await db.schema.alterTable(${lit(table)})${columnBuilder(column)}.execute();`,
        `  }`,
      );
    }
  }
  for (const i of diff.createIndexes) {
    body.push(
      `  // ${i.purpose}`,
      `  await db.schema.createIndex(${lit(i.name)}).ifNotExists()${i.unique ? '.unique()' : ''}.on(${lit(i.table)}).columns([${i.columns.map((c) => lit(c.desc ? `${c.name} desc` : c.name)).join(', ')}]).execute();`,
    );
  }
  for (const r of diff.recounts) {
    body.push(
      `  // ${r.table} has a new filter: its totals (ROW_COUNT, see 003) are counted again from its rows.`,
      `  await sql\`delete from "ROW_COUNT" where "TABLE_NAME" = ${lit(r.table)}\`.execute(db);`,
    );
    for (const set of r.sets) {
      const groupBy = set.length === 0 ? '' : ` group by ${set.map((c) => `"${c}"`).join(', ')}`;
      body.push(
        `  await sql\`insert into "ROW_COUNT" ("TABLE_NAME", "FILTER_KEY", "ROW_COUNT") select ${lit(r.table)}, ${countKey(set)}, count(*) from "${r.table}"${groupBy}\`.execute(db);`,
      );
    }
  }
  for (const { table, resources } of diff.createFullText) {
    body.push(
      `  // ${resources.join(', ')}: its full-text index (docs/fullText.md). On SQLite an FTS5 table of its own; on PostgreSQL`,
      `  // FT_PAGE's tsvector serves every table. Its records, already there, are queued for the indexer.`,
      `  if (dialect === 'sqlite') {`,
      `    await sql\`create virtual table if not exists "${fullTextTable(table)}" using fts5(${FTS5_ARGUMENTS})\`.execute(db);`,
      `  }`,
      `  // \`where true\`: SQLite's parser needs it before an upsert's ON CONFLICT.`,
      `  await sql\`insert into "FT_JOB" ("TBL", "RECORD_ID", "STATE", "VERSION", "TRIES", "DUE_AT") select '${table}', "ID", 'waiting', 1, 0, \${new Date().toISOString()} from "${table}" where true on conflict ("TBL", "RECORD_ID") do nothing\`.execute(db);`,
    );
  }
  for (const table of diff.dropFullText) {
    body.push(
      `  // ${table}: no entity of it declares fullText any more. Its index is derived from its records: it goes.`,
      `  if (dialect === 'sqlite') await sql\`drop table if exists "${fullTextTable(table)}"\`.execute(db);`,
      ...['FT_PAGE', 'FT_SOURCE', 'FT_JOB'].map((t) => `  await sql\`delete from "${t}" where "TBL" = '${table}'\`.execute(db);`),
    );
  }
  const summary = describeDiff(diff).map((line) => `// - ${line}`);
  return [
    `// ${name}: written by \`npm run db:generate\` from the entity declarations, then frozen like 001:`,
    `// later changes go in new migrations. Migrations never import app code.`,
    ...summary,
    usesSql ? `import { sql, type Kysely } from 'kysely';` : `import type { Kysely } from 'kysely';`,
    ``,
    `type Dialect = 'sqlite' | 'postgres';`,
    ``,
    `// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on raw tables`,
    `export async function up(db: Kysely<any>, ${usesDialect ? 'dialect' : '_dialect'}: Dialect): Promise<void> {`,
    ...body,
    `}`,
    ``,
  ].join('\n');
}
