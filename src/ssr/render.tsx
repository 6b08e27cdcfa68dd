// The server's render of a page: the entry of the server build (`npm run build` writes it to
// dist/.ssr, its entry named in dist/.ssr/.vite/manifest.json), loaded by the server's render worker
// (server/src/renderWorker.ts, started by server/src/http/pages.ts); no code of the server imports it.
//
// Why: a page the browser renders itself shows its first row only once it has downloaded,
// compiled and run the whole app (about 0.9–1.4 s on an office PC), against a 600 ms budget. The
// server sends the page with its first rows in the HTML instead; the browser paints it at once,
// then hydrates it (main.tsx) from the answers the page carries.
//
// The data a page needs is found by rendering it: every query a component asks for is in the
// query cache after the render; the server answers those it may (through its own routes, with the
// visitor's cookie, so every rule applies as to any call) and renders again, until nothing new is
// asked for and no part's code is still loading. Only documented APIs: React's renderToString,
// React Router's static handler and router, react-query's dehydrate, emotion's server extraction.
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import createEmotionServer from '@emotion/server/create-instance';
import { dehydrate } from '@tanstack/react-query';
import { memoryStore } from 'react-admin';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { App } from '../App';
import { partsLoading, renderedParts } from '../components/lazyPart';
import type { HttpClient } from '../http/index';
import { APP_LOCALE } from '../i18n/index';
// The server sets its business time zone (TIME_ZONE) once, before the first page: dates render as the browser will show them.
export { setTimeZone } from '../i18n/dayjs';
// And its rich-text sanitiser (DOMPurify over its jsdom): a page arrives with its rich text.
export { setRichTextSanitizer } from '../util/serverSanitizer';
import { withRequestCookies } from '../util/cookies';
import { documentTitle, titleAt } from '../navigation';
import { createProviders } from '../providers';
import { preloadScreen } from '../screens';
import { askedQueries, declareServerGlobals } from '../util/libraryReaches';
import { recordingStore, STATE_ELEMENT_ID, type PageState } from './pageState';

declareServerGlobals();

/** Renders after which the page is sent with what is still missing shown as loading. */
const MAX_RENDERS = 5;

export interface RenderedPage {
  /** The app's HTML, for the inside of #root. */
  html: string;
  /** For the head: emotion's `<style>` elements of that HTML, after the link that holds its rendering until it is parsed. */
  head: string;
  /** The browser tab's title as the app names it in the browser, as HTML (its text escaped), for the head's <title>. */
  title: string;
  /** The answers and store values it was rendered with: a JSON script element (never executed). */
  state: string;
  /** How many renders it took to find its data. */
  renders: number;
}

/** Holds the page's first rendering until the state element, its last, is parsed (HTML's `expect` link). */
const renderBlocking = `<link rel="expect" href="#${STATE_ELEMENT_ID}" blocking="render">`;

/** JSON inside a script element: `<` escaped, so no string in it can close the element. */
function stateElement(state: PageState): string {
  const json = JSON.stringify(state).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${STATE_ELEMENT_ID}">${json}</script>`;
}

/**
 * The page at `url` (path and query) for the visitor whose calls `httpClient` makes and whose
 * request carried `cookies` (the Cookie header: screens read some while rendering); undefined
 * when there is no session, the address is the login page, a call the page needs failed, or
 * `signal` aborted (the server sent the plain app): the browser renders those itself.
 */
export async function renderPage(url: string, httpClient: HttpClient, cookies = '', signal?: AbortSignal): Promise<RenderedPage | undefined> {
  const request = new Request(new URL(url, 'http://localhost'));
  const { pathname, search } = new URL(request.url);
  if (pathname === '/login') return undefined;
  // The browser's store is its localStorage, which the server cannot see: the server's holds
  // nothing but the locale (set ahead: memoryStore keeps writes made before its setup, an effect,
  // for later), and the page says what the render read (main.tsx compares).
  const { store, reads } = recordingStore(memoryStore({ locale: APP_LOCALE }));
  const providers = createProviders(store, httpClient);
  // A refused call is not asked again here: the app's back-off (1 + 2 + 4 s) would hold the page.
  // The page goes out plain at once instead, and the browser asks under its own rules.
  const { queryClient } = providers;
  queryClient.setDefaultOptions({ ...queryClient.getDefaultOptions(), queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  let member;
  try {
    member = await providers.authProvider.getCurrentMember();
  } catch {
    return undefined;
  }
  await preloadScreen(pathname);

  const handler = createStaticHandler([{ path: '*', element: <App {...providers} /> }]);
  const context = await handler.query(request);
  if (context instanceof Response || signal?.aborted) return undefined;
  const router = createStaticRouter(handler.dataRoutes, context);

  // One style cache for the page's renders: each style is serialised once. The emotion server made
  // with it collects the styles rather than writing them into the HTML, and extracts only those
  // the final HTML names.
  const cache = createCache({ key: 'css' });
  const { extractCriticalToChunks, constructStyleTagsFromChunks } = createEmotionServer(cache);
  for (let renders = 1; ; renders++) {
    renderedParts();
    const html = withRequestCookies(cookies, () =>
      renderToString(
        <CacheProvider value={cache}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </CacheProvider>,
      ),
    );
    const parts = renderedParts();
    const asked = askedQueries(queryClient);
    const loading = partsLoading();
    if ((asked.length === 0 && loading.length === 0) || renders === MAX_RENDERS) {
      // The page is drawn once it is parsed whole (the state element closes it), never half-parsed:
      // a half-drawn row or app bar would grow, and push what is beside it, as the rest arrives.
      const head = renderBlocking + constructStyleTagsFromChunks(extractCriticalToChunks(html));
      const title = renderToString(<>{documentTitle(titleAt({ pathname, search }))}</>);
      return { html, head, title, renders, state: stateElement({ member, queries: dehydrate(queryClient), store: Object.fromEntries(reads), parts }) };
    }
    await Promise.allSettled([...asked.map((query) => queryClient.prefetchQuery(query)), ...loading]);
    if (signal?.aborted) return undefined;
    // A page showing an error would not match what the browser renders (it asks again): plain.
    if (asked.some((query) => queryClient.getQueryState(query.queryKey)?.status === 'error')) return undefined;
  }
}
