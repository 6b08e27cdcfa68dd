// The pure rules of the article screens: which columns and search
// fields a document type shows, the remembered page size, what 查看 does, which form fields show.
import type { ListColumn } from '../../../schemas/descriptor';
import { parseFileList } from '../../../schemas/fileList';
import { articleResource, tykjArticleResource } from '../../../schemas/standardArticle';
import type { FileEntry } from '../../../schemas/types';
import { choicesOf, fieldSchema, fieldTitle, formFields } from '../../components/schemaFields';
import type { SearchChoice } from '../../components/SearchBar';
import { isFileUrl } from '../../components/SafeLink';

export { EMPTY_SEARCH_MESSAGE, searchText, type SearchChoice } from '../../components/SearchBar';

/** Code-name (文号) shows on 法律法规 only. */
export const showsCodeName = (type: number) => type === 1;
/** The pinned flag (是否置顶) shows on 标准图集 and 造价刊物. */
export const showsPinned = (type: number) => type === 0 || type === 2;

/** A column of the article table: a field the schema declares. */
function column(field: string): ListColumn {
  if (!Object.hasOwn(articleResource.schema.properties, field)) throw new Error(`articleResource has no field ${field}`);
  return { field };
}

/** Viewer columns of a document type, before 查看: name, 文号 (1), 是否置顶 (0, 2), 发布时间. */
export function catalogueColumns(type: number): ListColumn[] {
  return [
    column('SaName'),
    ...(showsCodeName(type) ? [column('SaCodeName')] : []),
    ...(showsPinned(type) ? [column('IsCommon')] : []),
    column('PublishTime'),
  ];
}

/** Management columns before 查看 / 编辑 / 删除: 排序, 文章名称. */
export function manageColumns(): ListColumn[] {
  return [column('SaSort'), column('SaName')];
}

/** Search by 文章名称; 法律法规 also by 文号. */
export function catalogueSearchChoices(type: number): SearchChoice[] {
  const choices = [{ field: 'SaName', label: fieldTitle(articleResource, 'SaName') }];
  if (showsCodeName(type)) choices.push({ field: 'SaCodeName', label: fieldTitle(articleResource, 'SaCodeName') });
  return choices;
}

/** 统一口径: the selector's only choice is 文章名称. */
export const TYKJ_SEARCH_CHOICES: SearchChoice[] = [{ field: 'SaName', label: fieldTitle(tykjArticleResource, 'SaName') }];

// ---- page size of the viewer ----

export * from './pageSize';

// ---- 查看 ----

export type ViewAction =
  | { kind: 'download'; file: FileEntry }
  | { kind: 'files'; files: FileEntry[] }
  | { kind: 'preview' }
  | { kind: 'none' };

/**
 * What 查看 does: an uploaded article (SaType 0) downloads its only file directly or lists its
 * files (文件下载); an edited article (SaType 1) opens the 预览 dialog. Malformed lists read as empty.
 */
export function viewActionOf(article: { SaType?: unknown; SaPdfUrl?: unknown }): ViewAction {
  if (Number(article.SaType) === 1) return { kind: 'preview' };
  const files = parseFileList(article.SaPdfUrl);
  if (files.length === 1) return { kind: 'download', file: files[0] as FileEntry };
  if (files.length > 1) return { kind: 'files', files };
  return { kind: 'none' };
}


/**
 * Downloads a stored file: a link with `download` (a file of this server saves under its name; a
 * file of another site opens in a new window, as the browser ignores `download` across origins).
 * Only http(s) and /files/ URLs are followed.
 */
export function downloadFile(file: FileEntry, doc: Document = document): boolean {
  if (!isFileUrl(file.url)) return false;
  const link = doc.createElement('a');
  link.href = file.url;
  link.download = file.name;
  link.target = '_blank';
  link.rel = 'noopener noreferrer';
  link.style.display = 'none';
  doc.body.appendChild(link);
  link.click();
  link.remove();
  return true;
}

// ---- the 文章目录详情 form ----

/**
 * SaType's choices, from the schema: 0 file upload (文件上传), 1 edited article (在线编辑). A
 * function, not a value made as the module loads: the build may split this module and schemaFields
 * into chunks that import each other, and a call at load could then run before its target exists.
 */
export const contentTypes = () => choicesOf(fieldSchema(articleResource, 'SaType'));

/** A new article on 法律法规 starts as an edited article. */
export const defaultSaType = (type: number) => (type === 1 ? 1 : 0);

/**
 * Form fields of a document article for a page type and content type: the schema's, in its order,
 * with 文号 on 法律法规 only, 是否置顶 on 标准图集 and 造价刊物 only, and the files or the body.
 */
export function articleFormFields(type: number, saType: number): string[] {
  const shown: Partial<Record<string, boolean>> = {
    SaCodeName: showsCodeName(type),
    IsCommon: showsPinned(type),
    SaPdfUrl: saType !== 1,
    SaPdfContent: saType === 1,
  };
  return formFields(articleResource).filter((field) => shown[field] ?? true);
}

/** Last touch before sending: SaSort as a number; an empty date is left to the server (today on add). */
export function prepareArticle(data: Record<string, unknown>): Record<string, unknown> {
  const out = { ...data };
  const sort = Number(out.SaSort);
  out.SaSort = Number.isFinite(sort) ? Math.trunc(sort) : 0;
  if (out.PublishTime === null || out.PublishTime === '') delete out.PublishTime;
  if (out.SaType !== undefined) out.SaType = Number(out.SaType) === 1 ? 1 : 0;
  for (const field of ['SaCodeName', 'SaPdfContent', 'SaProblem', 'SaAnswer']) {
    if (out[field] === null) out[field] = '';
  }
  return out;
}

/** The list filter of a category's articles of a page type. */
export function articleFilter(code: string, type: number): { ScCode: string; type: number } {
  return { ScCode: code, type };
}
