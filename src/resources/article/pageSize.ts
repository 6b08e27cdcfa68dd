// The article viewer's page size (SPEC.md 9), remembered in a cookie for a year.
import Cookies from 'js-cookie';
import { requestCookie } from '../../ssr/requestCookies';

export const PAGE_SIZES = [8, 10, 12, 15, 20, 50] as const;
export const DEFAULT_PAGE_SIZE = 12;
/** Prefixed with the project's name (package.json "name"). */
export const PAGE_SIZE_COOKIE = 'zhishi-admin-article-page-size';
export const PAGE_SIZE_COOKIE_OPTIONS = { expires: 365, path: '/', sameSite: 'lax' } as const;

/** A page size among the choices, else the default. */
export function toPageSize(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value);
  return (PAGE_SIZES as readonly number[]).includes(n) ? n : DEFAULT_PAGE_SIZE;
}

export function readPageSize(): number {
  // On the server (a rendered page) the request's cookie, in the browser the document's.
  return toPageSize(typeof document === 'undefined' ? requestCookie(PAGE_SIZE_COOKIE) : Cookies.get(PAGE_SIZE_COOKIE));
}

export function savePageSize(size: number): void {
  Cookies.set(PAGE_SIZE_COOKIE, String(toPageSize(size)), PAGE_SIZE_COOKIE_OPTIONS);
}
