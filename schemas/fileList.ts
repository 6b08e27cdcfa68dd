// Handout and file lists (`VdEnclosure`, `SaPdfUrl`): JSON text arrays of { name, url }.
// Malformed values are treated as empty, so reading never fails; writing is strict.
//
// A partly bad list reads as [] (not "the good entries"): writes go through checkFileList, so a bad
// entry means the value did not come from this server (hand-edited, imported, tampered with), and
// then no entry of it is trusted more than the bad one. It also keeps the app and the server
// agreeing on a single rule.
import { FILE_URL_PATTERN } from './fields';
import type { FileEntry } from './types';

export const MAX_FILES = 50;
export const MAX_NAME_LENGTH = 255;
/** Same limit as the schemas' file URL fields. */
export const MAX_URL_LENGTH = 1000;

const FILE_URL = new RegExp(FILE_URL_PATTERN);
/** `/files/../Ajax/...` would be resolved by the browser to another path of this origin. */
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Length in code points, as JSON Schema's maxLength (and Ajv) count it. */
const codePoints = (s: string) => [...s].length;

function isFileUrl(url: unknown): url is string {
  return (
    typeof url === 'string' &&
    url.length <= MAX_URL_LENGTH &&
    FILE_URL.test(url) &&
    !(url.startsWith('/') && DOT_SEGMENT.test(url))
  );
}

function isFileName(name: unknown): name is string {
  return (
    typeof name === 'string' &&
    name.trim() !== '' &&
    codePoints(name) <= MAX_NAME_LENGTH &&
    !CONTROL.test(name)
  );
}

function isEntry(value: unknown): value is FileEntry {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const { name, url } = value as Record<string, unknown>;
  return isFileName(name) && isFileUrl(url);
}

/** Reads a stored list; anything malformed (even one bad entry) reads as an empty list. */
export function parseFileList(text: unknown): FileEntry[] {
  if (typeof text !== 'string' || text === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(value) || value.length > MAX_FILES || !value.every(isEntry)) return [];
  return value.map(({ name, url }) => ({ name, url }));
}

export type FileListCheck = { ok: true; value: string } | { ok: false; msg: string };

/** Checks a list before it is stored and returns its normalised text (only name and url kept). */
export function checkFileList(text: string): FileListCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, msg: '文件列表格式不正确' };
  }
  if (!Array.isArray(value)) return { ok: false, msg: '文件列表格式不正确' };
  if (value.length > MAX_FILES) return { ok: false, msg: `文件不能超过${MAX_FILES}个` };
  for (const entry of value) {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return { ok: false, msg: '文件列表格式不正确' };
    const { name, url } = entry as Record<string, unknown>;
    if (!isFileName(name)) return { ok: false, msg: `文件名不能为空且不能超过${MAX_NAME_LENGTH}个字符` };
    if (!isFileUrl(url)) return { ok: false, msg: '文件地址不正确' };
  }
  return { ok: true, value: JSON.stringify((value as FileEntry[]).map(({ name, url }) => ({ name, url }))) };
}
