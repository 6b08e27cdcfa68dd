// Writes the audit log (操作日志, schemas/auditLog.ts). Each entry goes into the transaction of the
// write it records, so a write and its entry commit or roll back together: there is no write
// without its entry and no entry for a refused or failed write. What is kept of a record comes
// from its schema: the fields staff edit (not the server's own: codes, timestamps, counters),
// never a secret (passwords are write-only and named; only "changed" is kept), and long or rich
// text as a short plain-text excerpt.
import type { Kysely } from 'kysely';
import type { AuditAction, AuditChange } from '../../../schemas/auditLog';
import { AUDITED_RESOURCES } from '../../../schemas/index';
import type { ResourceDescriptor } from '../../../schemas/descriptor';
import { parseFileList } from '../../../schemas/fileList';
import type { Row } from '../db/row';
import { richTextPlainText } from '../richText';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the log is written inside any transaction
type AnyDb = Kysely<any>;

/** Who made a write: the member's code and name, copied so that the entry outlives the member. */
export interface AuditActor {
  AU_CODE: string;
  AU_NAME: string;
}

/** Longest text kept whole; longer text (and every rich text) is kept as an excerpt of this length. */
export const MAX_TEXT = 200;
/** Longest record name kept (the name is also what the log's search looks in). */
const MAX_NAME = 100;
/** Never logged, whatever a schema says. */
const SECRET = /password|passwd|hash|token|secret/i;

interface FieldSchema {
  type?: unknown;
  readOnly?: boolean;
  writeOnly?: boolean;
  contentMediaType?: string;
}

const fieldsCache = new Map<string, [string, FieldSchema][]>();

/** The fields of a resource the log keeps: those staff edit, secrets excepted. */
function loggedFields(descriptor: ResourceDescriptor): [string, FieldSchema][] {
  let fields = fieldsCache.get(descriptor.resource);
  if (!fields) {
    fields = Object.entries(descriptor.schema.properties as Record<string, FieldSchema>).filter(
      ([field, s]) => !s.readOnly && !s.writeOnly && !SECRET.test(field),
    );
    fieldsCache.set(descriptor.resource, fields);
  }
  return fields;
}

function excerpt(text: string, max: number): { value: string; truncated?: true } {
  const chars = [...text];
  return chars.length <= max ? { value: text } : { value: `${chars.slice(0, max).join('')}…`, truncated: true };
}

/** A value as the log keeps it: rich text as plain text, file lists as their names, long text cut. */
export function summarise(schema: FieldSchema, value: unknown): { value: unknown; truncated?: true } {
  if (typeof value !== 'string') return { value };
  // Rich text keeps its text only: markup (and the images it links) is not the log's business.
  if (schema.contentMediaType === 'text/html') return excerpt(richTextPlainText(value), MAX_TEXT);
  if (schema.contentMediaType === 'application/json') return { value: parseFileList(value).map((f) => f.name) };
  return excerpt(value, MAX_TEXT);
}

const isEmpty = (value: unknown) =>
  value === undefined ||
  value === null ||
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' && value !== null && Object.keys(value).length === 0);

/** The fields of a record as added (`after`) or as deleted (`before`), empty ones left out. */
export function snapshotChanges(descriptor: ResourceDescriptor, row: Row, side: 'before' | 'after'): AuditChange[] {
  const out: AuditChange[] = [];
  for (const [field, schema] of loggedFields(descriptor)) {
    const { value, truncated } = summarise(schema, row[field]);
    if (isEmpty(value)) continue;
    out.push({ field, [side]: value, ...(truncated && { truncated }) });
  }
  return out;
}

/** Canonical text of a value for comparison (object keys sorted, so {a,b} equals {b,a}). */
function canonical(value: unknown): string {
  if (value === undefined) return 'null';
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const sorted = Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)));
    return JSON.stringify(sorted);
  }
  return JSON.stringify(value);
}

/** The fields whose stored value changed, before → after. */
export function diffChanges(descriptor: ResourceDescriptor, before: Row, after: Row): AuditChange[] {
  const out: AuditChange[] = [];
  for (const [field, schema] of loggedFields(descriptor)) {
    if (!(field in after)) continue;
    if (canonical(before[field]) === canonical(after[field])) continue;
    const b = summarise(schema, before[field]);
    const a = summarise(schema, after[field]);
    out.push({ field, before: b.value, after: a.value, ...((b.truncated || a.truncated) && { truncated: true as const }) });
  }
  return out;
}

type RecordNamer = (name: string, row: Row) => string;
const recordNamers = new Map<string, RecordNamer>();

/**
 * Lets a resource's own call file name its records its own way (a member: with the login, since
 * two members may share a name); the log itself knows no entity.
 */
export function nameRecordsOf(resource: string, namer: RecordNamer): void {
  recordNamers.set(resource, namer);
}

/** The readable label of a record: its name field (a comment: its text), cut to a search-friendly length. */
export function recordName(descriptor: ResourceDescriptor, row: Row): string {
  const audited = AUDITED_RESOURCES[descriptor.resource];
  const field = audited?.nameField;
  if (!field) return '';
  const schema = (descriptor.schema.properties as Record<string, FieldSchema>)[field] ?? {};
  const raw = row[field];
  const text = typeof raw !== 'string' ? '' : schema.contentMediaType === 'text/html' ? richTextPlainText(raw) : raw;
  const name = recordNamers.get(descriptor.resource)?.(text, row) ?? text;
  return excerpt(name, MAX_NAME).value;
}

export interface AuditEntry {
  action: AuditAction;
  resource: string;
  recordId?: number | null;
  recordCode?: string;
  recordName: string;
  changes: AuditChange[];
}

/** Appends one entry; `db` is the transaction of the write it records. */
export async function writeAudit(db: AnyDb, actor: AuditActor, entry: AuditEntry, now = new Date()): Promise<void> {
  await db
    .insertInto('AUDIT_LOG')
    .values({
      AT: now.toISOString(),
      AU_CODE: actor.AU_CODE,
      AU_NAME: actor.AU_NAME,
      ACTION: entry.action,
      RESOURCE: entry.resource,
      RECORD_ID: entry.recordId ?? null,
      RECORD_CODE: entry.recordCode ?? '',
      RECORD_NAME: entry.recordName,
      CHANGES: JSON.stringify(entry.changes),
    })
    .execute();
}

/**
 * The entry of an addition (`after` only), a change (both) or a deletion (`before` only) of one
 * record of a descriptor; `extra` items are appended to the computed changes.
 */
export async function auditRecord(
  db: AnyDb,
  actor: AuditActor,
  descriptor: ResourceDescriptor,
  action: Exclude<AuditAction, 'sort' | 'export'>,
  before: Row | undefined,
  after: Row | undefined,
  extra: AuditChange[] = [],
): Promise<void> {
  const row = after ?? before;
  if (!row) throw new Error('auditRecord needs the record before or after the write');
  const changes =
    action === 'create'
      ? snapshotChanges(descriptor, row, 'after')
      : action === 'delete'
        ? snapshotChanges(descriptor, row, 'before')
        : diffChanges(descriptor, before ?? {}, row);
  const code = descriptor.codeField ? row[descriptor.codeField] : undefined;
  await writeAudit(db, actor, {
    action,
    resource: descriptor.resource,
    recordId: typeof row.Id === 'number' ? row.Id : null,
    recordCode: typeof code === 'string' ? code : '',
    recordName: recordName(descriptor, row),
    changes: [...changes, ...extra],
  });
}
