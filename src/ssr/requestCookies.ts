// The few settings the app keeps in cookies (the sidebar's state, the article viewer's page size),
// read from the request the server is rendering a page for (src/ssr/render.tsx) as the browser
// reads them from its document, so that the server's render uses the member's setting as the
// browser's will.
import { parse } from 'cookie';
import Cookies from 'js-cookie';

/** Settings are kept for a year, for the whole app. */
const SETTING_COOKIE_OPTIONS = { expires: 365, path: '/', sameSite: 'lax' } as const;

let rendering: Record<string, string | undefined> | undefined;

/**
 * Runs one synchronous render with this request's cookies readable. renderToString is
 * synchronous, so no other request's render can run in between and see them.
 */
export function withRequestCookies<T>(header: string, render: () => T): T {
  rendering = parse(header);
  try {
    return render();
  } finally {
    rendering = undefined;
  }
}

/** A cookie of the request being rendered on the server; undefined in the browser. */
export function requestCookie(name: string): string | undefined {
  return rendering?.[name];
}

/** A setting kept in a cookie: the request's on the server, the document's in the browser. */
export function readSettingCookie(name: string): string | undefined {
  return typeof document === 'undefined' ? requestCookie(name) : Cookies.get(name);
}

/** Keeps a setting in a cookie (in the browser). */
export function saveSettingCookie(name: string, value: string): void {
  Cookies.set(name, value, SETTING_COOKIE_OPTIONS);
}
