// The cookies of the request the server is rendering a page for (src/ssr/render.tsx), for the
// few settings the app keeps in cookies (the article viewer's page size), so that the server's
// render uses the member's setting as the browser's will.
import { parse } from 'cookie';

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
