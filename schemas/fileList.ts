// Handout and file lists (`VdEnclosure`, `SaPdfUrl`): JSON text arrays of { name, url }.
// SPEC.md: malformed values are treated as empty, so reading never fails; writing is strict.
import { FILE_URL_PATTERN } from './fields';
import type { FileEntry } from './types';

export const MAX_FILES = 50;
const FILE_URL = new RegExp(FILE_URL_PATTERN);

function isEntry(value: unknown): value is FileEntry {
  if (!value || typeof value !== 'object') return false;
  const { name, url } = value as Record<string, unknown>;
  return typeof name === 'string' && name.length >= 1 && name.length <= 255 && typeof url === 'string' && FILE_URL.test(url);
}

/** Reads a stored list; anything malformed (even one bad entry) reads as an empty list. */
export function parseFileList(text: unknown): FileEntry[] {
  if (typeof text !== 'string' || text === '') return [];
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value) || !value.every(isEntry)) return [];
    return value.map(({ name, url }) => ({ name, url }));
  } catch {
    return [];
  }
}

/** Checks a list before it is stored and returns its normalised text (only name and url kept). */
export function checkFileList(text: string): { ok: true; value: string } | { ok: false; msg: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, msg: '文件列表格式不正确' };
  }
  if (!Array.isArray(value)) return { ok: false, msg: '文件列表格式不正确' };
  if (value.length > MAX_FILES) return { ok: false, msg: `文件不能超过${MAX_FILES}个` };
  if (!value.every(isEntry)) return { ok: false, msg: '文件名或文件地址不正确' };
  return { ok: true, value: JSON.stringify(value.map(({ name, url }) => ({ name, url }))) };
}
