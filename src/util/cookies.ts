// Cookies the screens read while rendering (the article viewer's page size): the browser's own, or,
// while the server renders a page, those of its request, so that both render the same page.
// js-cookie reads and writes the browser's; the `cookie` package parses a request's header.
import { parse } from 'cookie';
import Cookies from 'js-cookie';

/** The request's Cookie header while the server renders (renderToString is synchronous). */
let requestCookies: string | undefined;

/** Runs a synchronous server render with `header` as the cookies screens read. */
export function withRequestCookies<T>(header: string, render: () => T): T {
  requestCookies = header;
  try {
    return render();
  } finally {
    requestCookies = undefined;
  }
}

export function readCookie(name: string): string | undefined {
  return requestCookies === undefined ? Cookies.get(name) : parse(requestCookies)[name];
}
