// The article viewer's page size, remembered in a cookie for a year.
import Cookies from 'js-cookie';
import { readCookie } from '../../util/cookies';

export const PAGE_SIZES = [8, 10, 12, 15, 20, 50] as const;
export const DEFAULT_PAGE_SIZE = 12;
/** Prefixed with the project's name (package.json "name"). */
export const PAGE_SIZE_COOKIE = 'zhishi-admin-article-page-size';

/** A page size among the choices, else the default. */
export function toPageSize(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value);
  return (PAGE_SIZES as readonly number[]).includes(n) ? n : DEFAULT_PAGE_SIZE;
}

export function readPageSize(): number {
  return toPageSize(readCookie(PAGE_SIZE_COOKIE));
}

export function savePageSize(size: number): void {
  Cookies.set(PAGE_SIZE_COOKIE, String(toPageSize(size)), { expires: 365, path: '/', sameSite: 'lax' });
}
