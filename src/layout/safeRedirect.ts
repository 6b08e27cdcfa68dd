// Where to go after logging in. react-admin remembers the page first asked for in the router's
// location state (`nextPathname`, `nextSearch`) and navigates there after login; only a path of
// this app is followed, so nothing stored there (by a script, an extension or a future feature
// that fills it from a query parameter) can send a member off-site or to a `javascript:` URL.

/** The home page: where login goes when there is no acceptable page to return to. */
export const AFTER_LOGIN_DEFAULT = '/';

// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * A same-origin path (with its query and hash) from react-admin's location state, or '/'.
 * Refused: anything not starting with one '/', `//host` and `/\host` (protocol-relative to
 * browsers), schemes, control characters, and paths that resolve to another origin.
 */
export function safeAfterLoginPath(state: unknown, origin: string): string {
  if (typeof state !== 'object' || state === null) return AFTER_LOGIN_DEFAULT;
  const { nextPathname, nextSearch } = state as { nextPathname?: unknown; nextSearch?: unknown };
  if (typeof nextPathname !== 'string' || !nextPathname.startsWith('/')) return AFTER_LOGIN_DEFAULT;
  const search = typeof nextSearch === 'string' && nextSearch.startsWith('?') ? nextSearch : '';
  const target = nextPathname + search;
  if (CONTROL.test(target) || /^\/[/\\]/.test(target) || target.includes('\\')) return AFTER_LOGIN_DEFAULT;
  let url: URL;
  try {
    url = new URL(target, origin);
  } catch {
    return AFTER_LOGIN_DEFAULT;
  }
  if (url.origin !== new URL(origin).origin) return AFTER_LOGIN_DEFAULT;
  // Going back to the login page would only show it again.
  if (url.pathname === '/login') return AFTER_LOGIN_DEFAULT;
  return url.pathname + url.search + url.hash;
}
