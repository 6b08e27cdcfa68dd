// The rules of the generic calls, derived from the descriptors: what a write must satisfy and
// complete (references, fixed fields, defaults, stored files), and what a delete must not orphan.
// Everything common (rich text, file lists, server-owned fields) is derived from the schema here
// too, so a new entity gets it by declaring its fields.
import { dayIn } from '../../../schemas/businessTime';
import type { Reference, ResourceDescriptor } from '../../../schemas/descriptor';
import { checkFileList, parseFileList } from '../../../schemas/fileList';
import { referencesTo, resourceByName } from '../../../schemas/index';
import { newCode, type MemberRow } from '../auth/members';
import type { Db } from '../db/database';
import { anyRow, findRow, maxValue, type Row } from '../db/repository';
import { badRequest, conflict, type FieldError } from '../errors';
import { RichTextRefused, sanitizeRichTexts } from '../richText';
import { parseUploadKey, POLICIES } from '../storage/policies';
import type { StorageDriver } from '../storage/types';
import type { UploadKind } from '../../../schemas/types';

export interface RuleContext {
  database: Db;
  storage: StorageDriver;
  member: MemberRow;
  now: Date;
  /** The business time zone (config.timeZone): a 'today' default is that zone's day. */
  timeZone: string;
  /** Aborted once the client has gone: its rich text is dropped, and nothing is stored. */
  signal?: AbortSignal;
}

/** Longest parent chain walked when looking for a cycle; deeper trees are refused. */
const MAX_DEPTH = 64;

function targetOf(reference: Reference): ResourceDescriptor {
  const target = resourceByName(reference.to);
  // declarationProblems() reports such a descriptor; the unit tests keep it empty.
  if (!target) throw new Error(`reference to unknown resource ${reference.to}`);
  return target;
}

/** The referenced record, or the 400 of a reference to nothing. */
async function referencedRecord(ctx: RuleContext, reference: Reference, value: string): Promise<Row> {
  const record = await findRow(ctx.database, targetOf(reference), reference.toField, value);
  if (!record) throw badRequest(reference.missing, [{ field: reference.field, msg: reference.missingHint ?? reference.missing }]);
  return record;
}

/** A move in a tree may not put a record under itself or under one of its own descendants. */
async function refuseCycle(ctx: RuleContext, descriptor: ResourceDescriptor, reference: Reference, parent: Row, existing: Row): Promise<void> {
  let cursor: Row | undefined = parent;
  for (let depth = 0; cursor; depth++) {
    if (cursor[reference.toField] === existing[reference.toField] || depth > MAX_DEPTH) throw conflict(reference.cycle!);
    const next: string = String(cursor[reference.field]);
    cursor = next === reference.root ? undefined : await findRow(ctx.database, descriptor, reference.toField, next);
  }
}

const schemaDefault = (descriptor: ResourceDescriptor, field: string) => (descriptor.schema.properties[field] as { default?: unknown } | undefined)?.default;

/**
 * Checks the references a write sets and copies what follows from them. A reference is checked on
 * create, and on update when it changes; its root ("no parent") needs no record. Copied fields come
 * from the referenced record, never from the client on update; a new record at the root keeps the
 * client's (a top-level classification takes its page's type).
 */
async function applyReferences(ctx: RuleContext, descriptor: ResourceDescriptor, values: Row, existing: Row | undefined): Promise<void> {
  for (const reference of descriptor.references ?? []) {
    const copies = Object.entries(reference.copy ?? {});
    const given = values[reference.field];
    const value = given === undefined ? undefined : String(given);
    const atRoot = reference.root !== undefined && (value ?? schemaDefault(descriptor, reference.field)) === reference.root;
    if (existing || !atRoot) for (const [, field] of copies) delete values[field];
    if (value === undefined || value === reference.root) continue;
    if (existing && value === String(existing[reference.field] ?? '')) continue;
    const record = await referencedRecord(ctx, reference, value);
    for (const [from, field] of copies) {
      // A fixed field cannot change by a move either.
      if (existing && descriptor.fixedFields?.includes(field) && record[from] !== existing[field]) {
        const msg = reference.copyMismatch ?? reference.missing;
        throw badRequest(msg, [{ field: reference.field, msg }]);
      }
      values[field] = record[from];
    }
    if (existing && reference.cycle) await refuseCycle(ctx, descriptor, reference, record, existing);
  }
}

/** The descriptor's `createDefaults`, for the fields a create leaves out. */
async function applyCreateDefaults(ctx: RuleContext, descriptor: ResourceDescriptor, values: Row): Promise<void> {
  for (const [field, rule] of Object.entries(descriptor.createDefaults ?? {})) {
    if (values[field] !== undefined) continue;
    // 'last': after the last row, not first (a new website without a sort goes to the end), within
    // the field's maximum.
    const maximum = (descriptor.schema.properties[field] as { maximum?: number } | undefined)?.maximum ?? Infinity;
    values[field] = rule === 'today' ? dayIn(ctx.timeZone, ctx.now) : Math.min((await maxValue(ctx.database, descriptor, field)) + 1, maximum);
  }
}

/** The stored-file fields of a descriptor, and the upload kind each must be. */
const filesOf = (descriptor: ResourceDescriptor): Readonly<Record<string, UploadKind>> => descriptor.files ?? {};

/**
 * A record may point only at files that are really stored, of the field's kind and within its
 * limit. This is where the limits hold even when a storage service does not enforce the signed
 * upload (and no record ever points at a missing file). URLs of other sites are left alone.
 */
async function checkStoredFile(storage: StorageDriver, kind: UploadKind, url: string): Promise<string | undefined> {
  const key = storage.keyOf(url);
  if (key === undefined) return undefined;
  const parsed = parseUploadKey(key);
  // Keys outside the upload scheme (a poster, say) are accepted only for the demo content.
  if (!parsed && !key.startsWith('demo/')) return '文件类型不符';
  if (parsed && parsed.kind !== kind) return '文件类型不符';
  const size = await storage.sizeOf(key);
  if (size === undefined) return '文件不存在，请重新上传';
  const policy = POLICIES[parsed?.kind ?? kind];
  if (policy.exclusiveMax ? size >= policy.maxBytes : size > policy.maxBytes) return policy.tooLargeMsg;
  return undefined;
}

async function checkFiles(ctx: RuleContext, descriptor: ResourceDescriptor, values: Row, existing: Row | undefined): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  for (const [field, kind] of Object.entries(filesOf(descriptor))) {
    const value = values[field];
    if (typeof value !== 'string' || value === '' || value === existing?.[field]) continue;
    const urls = value.startsWith('[') ? parseFileList(value).map((f) => f.url) : [value];
    const before = new Set(typeof existing?.[field] === 'string' ? parseFileList(existing[field]).map((f) => f.url) : []);
    for (const url of urls) {
      if (before.has(url)) continue;
      const msg = await checkStoredFile(ctx.storage, kind, url);
      if (msg) {
        errors.push({ field, msg });
        break;
      }
    }
  }
  return errors;
}

const fieldsCache = new Map<string, string[]>();

/** Fields of a media type (rich text, file lists), worked out once per entity: lists call this per row. */
function fieldsWith(descriptor: ResourceDescriptor, mediaType: string): string[] {
  const key = `${descriptor.resource} ${mediaType}`;
  let fields = fieldsCache.get(key);
  if (!fields) {
    fields = Object.entries(descriptor.schema.properties)
      .filter(([, s]) => (s as { contentMediaType?: string }).contentMediaType === mediaType)
      .map(([f]) => f);
    fieldsCache.set(key, fields);
  }
  return fields;
}

/** Common preparation from the schema, then the descriptor's rules. Mutates `values`. */
export async function prepareWrite(
  descriptor: ResourceDescriptor,
  ctx: RuleContext,
  values: Row,
  existing: Row | undefined,
): Promise<void> {
  const errors: FieldError[] = [];
  // The write's texts together, in the member's queue (429/503 past its caps, dropped if the client goes).
  const richFields = fieldsWith(descriptor, 'text/html').filter((field) => typeof values[field] === 'string');
  const sanitised = await sanitizeRichTexts(
    richFields.map((field) => values[field] as string),
    { member: ctx.member.AU_CODE, signal: ctx.signal },
  );
  richFields.forEach((field, i) => {
    const out = sanitised[i]!;
    if (out instanceof RichTextRefused) errors.push({ field, msg: out.message });
    else values[field] = out;
  });
  for (const field of fieldsWith(descriptor, 'application/json')) {
    if (values[field] === undefined) continue;
    const checked = checkFileList(String(values[field]));
    if (checked.ok) values[field] = checked.value;
    else errors.push({ field, msg: checked.msg });
  }
  errors.push(...(await checkFiles(ctx, descriptor, values, existing)));
  if (errors.length > 0) throw badRequest(errors[0]!.msg, errors);
  // The descriptor's rules first, so that they can tell a missing field from its default.
  await applyReferences(ctx, descriptor, values, existing);
  if (existing) for (const field of descriptor.fixedFields ?? []) delete values[field];
  if (!existing) await applyCreateDefaults(ctx, descriptor, values);

  const props = descriptor.schema.properties;
  const stamp = ctx.now.toISOString();
  if ('UpdateTime' in props) values.UpdateTime = stamp;
  if (!existing) {
    for (const [field, s] of Object.entries(props)) {
      const def = (s as { default?: unknown }).default;
      if (values[field] === undefined && def !== undefined && !s.readOnly) values[field] = def;
    }
    if (descriptor.codeField) values[descriptor.codeField] = newCode();
    if ('CreateUser' in props) values.CreateUser = ctx.member.AU_NAME;
    // The creator owns the row (the ownership rule of schemas/permissions.ts).
    if (descriptor.ownership) values[descriptor.ownership.field] = ctx.member.AU_CODE;
  }
}

/**
 * Refuses a delete while rows point at the record through a reference that refuses it (`onDelete`
 * 'refuse'): a tree's own children first, then the records of other resources. 'cascade' children
 * go with the record (server/src/db/repository.ts).
 */
export async function checkDelete(descriptor: ResourceDescriptor, ctx: RuleContext, existing: Row): Promise<void> {
  const refusing = referencesTo(descriptor.resource)
    .filter(({ reference }) => reference.onDelete === 'refuse')
    .sort((a, b) => Number(b.from.resource === descriptor.resource) - Number(a.from.resource === descriptor.resource));
  for (const { from, reference } of refusing) {
    if (await anyRow(ctx.database, from, reference.field, String(existing[reference.toField]))) {
      throw conflict(reference.refused ?? `该${descriptor.label}下还有${from.label}`);
    }
  }
}

/**
 * A stored file URL of ours in the form the driver hands out now (with S3_READ=private a record
 * saved with the bucket's public URL reads as `/files/<key>`, so closing the bucket breaks no
 * record); another site's URL as it is.
 */
export function currentFileUrl(url: string, storage?: StorageDriver): string {
  const key = storage?.keyOf(url);
  return key === undefined ? url : storage!.fileUrl(key);
}

/**
 * Shapes a stored row for the wire: malformed file lists read as an empty list, and with `storage`
 * our file URLs as the driver hands them out now (currentFileUrl).
 */
export function present(descriptor: ResourceDescriptor, row: Row, storage?: StorageDriver): Row {
  const out: Row = { ...row };
  const current = (url: string) => currentFileUrl(url, storage);
  for (const field of fieldsWith(descriptor, 'application/json')) {
    if (field in out) out[field] = JSON.stringify(parseFileList(out[field]).map((f) => ({ ...f, url: current(f.url) })));
  }
  if (storage) {
    for (const field of Object.keys(filesOf(descriptor))) {
      const value = out[field];
      if (typeof value === 'string' && value !== '' && !value.startsWith('[')) out[field] = current(value);
    }
  }
  return out;
}
