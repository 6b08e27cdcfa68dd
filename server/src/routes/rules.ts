// Per-entity rules of the generic calls: what a write must satisfy and what a delete must not
// lose. Everything common (rich text, file lists, defaults, server-owned fields) is derived from
// the schema here too, so a new entity gets it by declaring its fields.
import type { ResourceDescriptor } from '../../../schemas/descriptor';
import { ROOT_CODE } from '../../../schemas/standardClassify';
import { checkFileList, parseFileList } from '../../../schemas/fileList';
import { articleResource, tykjArticleResource } from '../../../schemas/standardArticle';
import { classifyResource, tykjClassifyResource } from '../../../schemas/standardClassify';
import { videoResource } from '../../../schemas/video';
import { videoTypeResource } from '../../../schemas/videoType';
import { newCode, type MemberRow } from '../auth/members';
import type { Db } from '../db/database';
import { anyRow, findRow, listRows, type Row } from '../db/repository';
import { badRequest, conflict, type FieldError } from '../errors';
import { RichTextRefused, sanitizeRichText } from '../richText';
import { parseUploadKey, POLICIES } from '../storage/policies';
import type { StorageDriver } from '../storage/types';
import type { UploadKind } from '../../../schemas/types';

export interface RuleContext {
  database: Db;
  storage: StorageDriver;
  member: MemberRow;
  now: Date;
}

interface ResourceRules {
  /** Checks a write and completes the values to store; `existing` is the stored row on update. */
  prepare?(ctx: RuleContext, d: ResourceDescriptor, values: Row, existing: Row | undefined): Promise<void>;
  /** Refuses a delete that would orphan rows. */
  beforeDelete?(ctx: RuleContext, d: ResourceDescriptor, existing: Row): Promise<void>;
}

const today = (now: Date) => now.toISOString().slice(0, 10);

/** Classification table of an article table, and the reverse: the two services never mix. */
const CLASSIFY_OF: Record<string, ResourceDescriptor> = {
  article: classifyResource,
  tykjArticle: tykjClassifyResource,
};
const ARTICLES_OF: Record<string, ResourceDescriptor> = {
  classify: articleResource,
  tykjClassify: tykjArticleResource,
};

/** Longest parent chain walked when looking for a cycle; deeper trees are refused. */
const MAX_DEPTH = 64;

async function classifyParent(ctx: RuleContext, descriptor: ResourceDescriptor, code: string): Promise<Row> {
  const parent = await findRow(ctx.database, descriptor, 'ScCode', code);
  if (!parent) throw badRequest('上级分类不存在', [{ field: 'ScFatherCode', msg: '上级分类不存在' }]);
  return parent;
}

const classifyRules: ResourceRules = {
  async prepare(ctx, d, values, existing) {
    const father = values.ScFatherCode === undefined ? undefined : String(values.ScFatherCode);
    if (!existing) {
      // A child has its parent's type; a top-level classification takes the page's type.
      if (father && father !== ROOT_CODE) values.type = (await classifyParent(ctx, d, father)).type;
      return;
    }
    // The type is fixed at creation (it follows the parent); moving keeps it.
    delete values.type;
    if (father === undefined || father === existing.ScFatherCode || father === ROOT_CODE) return;
    const parent = await classifyParent(ctx, d, father);
    if (parent.type !== existing.type) {
      throw badRequest('不能移动到其他类型的分类下', [{ field: 'ScFatherCode', msg: '不能移动到其他类型的分类下' }]);
    }
    let cursor: Row | undefined = parent;
    for (let depth = 0; cursor; depth++) {
      if (cursor.ScCode === existing.ScCode || depth > MAX_DEPTH) {
        throw conflict('上级分类不能是该分类自身或其下级分类');
      }
      const next: string = String(cursor.ScFatherCode);
      cursor = next === ROOT_CODE ? undefined : await findRow(ctx.database, d, 'ScCode', next);
    }
  },
  async beforeDelete(ctx, d, existing) {
    if (await anyRow(ctx.database, d, 'ScFatherCode', String(existing.ScCode))) {
      throw conflict('该分类下还有子分类，请先删除子分类');
    }
    const articles = ARTICLES_OF[d.resource];
    if (articles && (await anyRow(ctx.database, articles, 'ScCode', String(existing.ScCode)))) {
      throw conflict('该分类下还有文章，请先删除或移走文章');
    }
  },
};

const articleRules: ResourceRules = {
  async prepare(ctx, d, values, existing) {
    if (!existing && values.PublishTime === undefined) values.PublishTime = today(ctx.now);
    delete values.type;
    if (values.ScCode === undefined) return;
    const code = String(values.ScCode);
    const classify = CLASSIFY_OF[d.resource];
    const parent = classify && code !== ROOT_CODE ? await findRow(ctx.database, classify, 'ScCode', code) : undefined;
    if (!parent) throw badRequest('所属分类不存在', [{ field: 'ScCode', msg: '请选择所属分类' }]);
    // The document type of an article is that of its classification.
    values.type = parent.type;
  },
};

const videoRules: ResourceRules = {
  async prepare(ctx, _d, values, existing) {
    if (!existing && values.VdTime === undefined) values.VdTime = today(ctx.now);
    if (values.VdtCode !== undefined && values.VdtCode !== existing?.VdtCode) {
      if (!(await anyRow(ctx.database, videoTypeResource, 'VdtCode', String(values.VdtCode)))) {
        throw badRequest('视频分类不存在', [{ field: 'VdtCode', msg: '视频分类不存在' }]);
      }
    }
  },
};

const videoTypeRules: ResourceRules = {
  async beforeDelete(ctx, _d, existing) {
    if (await anyRow(ctx.database, videoResource, 'VdtCode', String(existing.VdtCode))) {
      throw conflict('该视频分类下还有视频，请先删除或移走视频');
    }
  },
};

const usewebRules: ResourceRules = {
  async prepare(ctx, d, values, existing) {
    // A new website without a sort goes last, not first.
    if (!existing && values.UwSort === undefined) {
      const { rows } = await listRows(ctx.database, d, { equals: {}, contains: {}, order: [{ column: 'UW_SORT', direction: 'desc' }], page: { index: 1, size: 1 }, limit: 1 });
      values.UwSort = Number(rows[0]?.UwSort ?? 0) + 1;
    }
  },
};

const RULES: Record<string, ResourceRules> = {
  useweb: usewebRules,
  video: videoRules,
  videoType: videoTypeRules,
  article: articleRules,
  tykjArticle: articleRules,
  classify: classifyRules,
  tykjClassify: classifyRules,
};

/** Fields holding stored files, and the upload kind each must be. */
export const FILE_FIELDS: Readonly<Record<string, UploadKind>> = {
  VdUrl: 'video',
  VdEnclosure: 'handout',
  SaPdfUrl: 'handout',
  ScImg: 'image',
  ScPageimg: 'image',
};

/**
 * A record may point only at files that are really stored, of the field's kind and within its
 * limit. This is where the limits hold even when a storage service does not enforce the signed
 * upload (and no record ever points at a missing file). URLs of other sites are left alone.
 */
async function checkStoredFile(storage: StorageDriver, field: string, url: string): Promise<string | undefined> {
  const key = storage.keyOf(url);
  if (key === undefined) return undefined;
  const kind = FILE_FIELDS[field];
  const parsed = parseUploadKey(key);
  // Keys outside the upload scheme (a poster, say) are accepted only for the demo content.
  if (!parsed && !key.startsWith('demo/')) return '文件类型不符';
  if (parsed && kind && parsed.kind !== kind) return '文件类型不符';
  const size = await storage.sizeOf(key);
  if (size === undefined) return '文件不存在，请重新上传';
  const policy = POLICIES[parsed?.kind ?? kind ?? 'handout'];
  if (policy.exclusiveMax ? size >= policy.maxBytes : size > policy.maxBytes) return policy.tooLargeMsg;
  return undefined;
}

async function checkFiles(ctx: RuleContext, values: Row, existing: Row | undefined): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  for (const field of Object.keys(FILE_FIELDS)) {
    const value = values[field];
    if (typeof value !== 'string' || value === '' || value === existing?.[field]) continue;
    const urls = value.startsWith('[') ? parseFileList(value).map((f) => f.url) : [value];
    const before = new Set(typeof existing?.[field] === 'string' ? parseFileList(existing[field]).map((f) => f.url) : []);
    for (const url of urls) {
      if (before.has(url)) continue;
      const msg = await checkStoredFile(ctx.storage, field, url);
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

/** Common preparation from the schema, then the entity's own rules. Mutates `values`. */
export async function prepareWrite(
  descriptor: ResourceDescriptor,
  ctx: RuleContext,
  values: Row,
  existing: Row | undefined,
): Promise<void> {
  const errors: FieldError[] = [];
  for (const field of fieldsWith(descriptor, 'text/html')) {
    if (typeof values[field] !== 'string') continue;
    try {
      values[field] = await sanitizeRichText(values[field]);
    } catch (err) {
      if (!(err instanceof RichTextRefused)) throw err;
      errors.push({ field, msg: err.message });
    }
  }
  for (const field of fieldsWith(descriptor, 'application/json')) {
    if (values[field] === undefined) continue;
    const checked = checkFileList(String(values[field]));
    if (checked.ok) values[field] = checked.value;
    else errors.push({ field, msg: checked.msg });
  }
  errors.push(...(await checkFiles(ctx, values, existing)));
  if (errors.length > 0) throw badRequest(errors[0]!.msg, errors);
  // The entity's own rules first, so that they can tell a missing field from its default.
  await RULES[descriptor.resource]?.prepare?.(ctx, descriptor, values, existing);

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
    if ('CreateAuCode' in props) values.CreateAuCode = ctx.member.AU_CODE;
  }
}

export async function checkDelete(descriptor: ResourceDescriptor, ctx: RuleContext, existing: Row): Promise<void> {
  await RULES[descriptor.resource]?.beforeDelete?.(ctx, descriptor, existing);
}

/**
 * Shapes a stored row for the wire: malformed file lists read as an empty list, and with `storage`
 * our file URLs in the form the driver hands out now (with S3_READ=private a record saved with the
 * bucket's public URL reads as `/files/<key>`, so closing the bucket breaks no record).
 */
export function present(descriptor: ResourceDescriptor, row: Row, storage?: StorageDriver): Row {
  const out: Row = { ...row };
  const current = (url: string) => {
    const key = storage?.keyOf(url);
    return key === undefined ? url : storage!.fileUrl(key);
  };
  for (const field of fieldsWith(descriptor, 'application/json')) {
    if (field in out) out[field] = JSON.stringify(parseFileList(out[field]).map((f) => ({ ...f, url: current(f.url) })));
  }
  if (storage) {
    for (const field of Object.keys(FILE_FIELDS)) {
      const value = out[field];
      if (typeof value === 'string' && value !== '' && !value.startsWith('[')) out[field] = current(value);
    }
  }
  return out;
}
