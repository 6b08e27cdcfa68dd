// The server's render of a page (the entry of the SSR build, loaded by server/src/http/pages.ts).
//
// Why: the first screen used to show its first row only after the browser had downloaded,
// evaluated and rendered the whole app (about 1.2 s on the 2-core reference host, against a
// 600 ms budget). The server now sends the page already rendered, with the visitor's session
// and the screen's first lists in it; the browser paints it with the HTML and then hydrates it
// (the same components take over the same DOM) from the answers carried in the page.
//
// The lists a page needs are found by rendering it: react-query records every query a component
// asks for, the server answers those (through its own routes, with the visitor's cookie, so every
// permission rule applies as to any call), and the page is rendered again, until nothing new is
// asked for and no part's code (lazyPart) is still loading. The answers go into the page
// (pageState.ts) for the browser's first render.
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import createEmotionServer from '@emotion/server/create-instance';
import { defaultShouldDehydrateQuery, dehydrate, hashKey, type Query, type QueryClient } from '@tanstack/react-query';
import mediaQuery from 'css-mediaquery';
import { memoryStore, type RaThemeOptions } from 'react-admin';
import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { appRoutes, preloadScreen } from '../App';
import { prefillSession } from '../authProvider/sessionCache';
import { getListQuery } from '../dataProvider/listQuery';
import type { HttpClient } from '../http/index';
import { createProviders } from '../providers';
import { theme } from '../theme';
import { pendingParts } from '../components/lazyPart';
import { openingQueries } from '../screenQueries';
import { ServerTitle, ServerTitleContext, TITLE_ID } from '../layout/PageTitle';
import { pageStateScript } from './pageState';
import { renderedStylesTag, STYLE_KEY } from './styleCache';
import { withRequestCookies } from './requestCookies';

/** The width rendered for when the request does not say it comes from a phone (a common laptop's). */
const DESKTOP_WIDTH = 1366;

/** Renders after which the page is sent with whatever is still loading (shown as loading). */
const MAX_RENDERS = 4;

export interface RenderedPage {
  /** The app's HTML, for the inside of #root. */
  html: string;
  /** How many times the page was rendered to find its data (1 when its first lists were known ahead). */
  renders: number;
  /** The styles that HTML uses (emotion's `<style data-emotion>` elements), for the head. */
  head: string;
  /** The answers it was rendered with, as a script element (JSON, not executed). */
  state: string;
}

/**
 * The app's theme with media queries answered for a screen `width` pixels wide: the server cannot
 * measure the screen, the browser's first render reads the real one (theme.ts), and where they
 * differ (the sidebar is a drawer on phones) React would discard the server's HTML.
 */
function themeForWidth(width: number): RaThemeOptions {
  const ssrMatchMedia = (query: string) => ({ matches: mediaQuery.match(query, { width: `${width}px` }) });
  return { ...theme, components: { ...theme.components, MuiUseMediaQuery: { defaultProps: { noSsr: true, ssrMatchMedia } } } };
}

/**
 * A query a component asked for that has no answer yet, and may be fetched: not one its component
 * disabled (react-admin's access checks are disabled when the authProvider has no canAccess), whose
 * `enabled` the query keeps from the options it was built with.
 */
function isAskedFor(query: Query): boolean {
  if (query.state.status !== 'pending' || query.state.fetchStatus !== 'idle') return false;
  const { enabled } = query.options as { enabled?: boolean | ((query: Query) => boolean) };
  return typeof enabled === 'function' ? enabled(query) : enabled !== false;
}

/** The app bar's empty title element (AppBarTitle): the page declares its title after it renders. */
const EMPTY_TITLE = new RegExp(`(<(\\w+)[^>]*\\sid="${TITLE_ID}"[^>]*>)(</\\2>)`);

/** The page's HTML with its title in the app bar, as AppBarTitle renders it in the browser. */
function withTitle(html: string, title: string | undefined): string {
  if (!title) return html;
  const span = renderToStaticMarkup(<span>{title}</span>);
  return html.replace(EMPTY_TITLE, (_match, open: string, _tag: string, close: string) => `${open}${span}${close}`);
}

/**
 * emotion's style elements: the global styles as its `constructStyleTagsFromChunks` writes them,
 * marked as already placed (`data-s`; emotion would otherwise move them into the head as its
 * default cache is made), and the components' styles in the element the browser adopts in place
 * (styleCache.ts).
 */
function styleTags({ styles }: { styles: { key: string; ids: string[]; css: string }[] }): string {
  return styles
    .map(({ key, ids, css }) =>
      key === STYLE_KEY ? renderedStylesTag(ids, css) : `<style data-emotion="${key} ${ids.join(' ')}" data-s="">${css}</style>`,
    )
    .join('');
}

/**
 * The hashes of the queries the components read while rendering: react-query finds (or makes)
 * the query of every useQuery through its cache's `build`, on the server as in the browser.
 */
function recordReadQueries(queryClient: QueryClient): Set<string> {
  const queryCache = queryClient.getQueryCache();
  const read = new Set<string>();
  const build = queryCache.build.bind(queryCache);
  queryCache.build = (...args) => {
    const query = build(...args);
    read.add(query.queryHash);
    return query;
  };
  return read;
}

/**
 * The page at `url` (path and query) for the visitor whose calls `httpClient` makes, whose request
 * carried `cookies`, on a screen about `screenWidth` pixels wide; undefined when there is no session
 * (the browser then shows the login page as before).
 */
export async function renderPage(url: string, httpClient: HttpClient, cookies = '', screenWidth = DESKTOP_WIDTH): Promise<RenderedPage | undefined> {
  const { pathname, search } = new URL(url, 'http://localhost');
  // The login page reads the browser's address while rendering: it is the browser's own.
  if (pathname === '/login') return undefined;
  // A store of its own per page (the browser's is its localStorage).
  const providers = createProviders(httpClient, memoryStore());
  const { authProvider, dataProvider, queryClient } = providers;
  const screenCode = preloadScreen(pathname);
  // The screen's first lists, as far as the address decides them, leave with the session (the
  // server has just checked it): the first render then mostly has every answer, and is the only one.
  const aheadKeys = new Set<string>();
  const openingLists = withRequestCookies(cookies, () => openingQueries(pathname, search)).map(({ resource, query }) => {
    const list = getListQuery(dataProvider, resource, query);
    aheadKeys.add(hashKey(list.queryKey));
    return queryClient.prefetchQuery(list);
  });
  let member;
  try {
    member = await authProvider.getCurrentMember();
  } catch {
    return undefined;
  }
  prefillSession(queryClient, member);
  await Promise.all([screenCode, ...openingLists]);

  const handler = createStaticHandler(appRoutes(providers, themeForWidth(screenWidth)));
  const context = await handler.query(new Request(new URL(url, 'http://localhost')));
  if (context instanceof Response) return undefined;
  const router = createStaticRouter(handler.dataRoutes, context);

  const read = recordReadQueries(queryClient);
  for (let round = 1; ; round++) {
    read.clear();
    // A cache per render: its styles are exactly those of this render's HTML. The emotion server
    // is made before rendering: it switches the cache to collecting styles instead of writing
    // <style> elements into the HTML (which, inside a table, the browser would move out of it).
    const cache = createCache({ key: STYLE_KEY });
    const { extractCriticalToChunks } = createEmotionServer(cache);
    // renderToString, not React's streaming renderers: those send large parts of the page as
    // hidden blocks that an inline script reveals, which the page's CSP (script-src 'self')
    // refuses. A part whose code is still loading renders its fallback and is waited for below.
    const serverTitle = new ServerTitle();
    const html = withRequestCookies(cookies, () =>
      renderToString(
        <CacheProvider value={cache}>
          <ServerTitleContext.Provider value={serverTitle}>
            <StaticRouterProvider router={router} context={context} hydrate={false} />
          </ServerTitleContext.Provider>
        </CacheProvider>,
      ),
    );
    const asked = queryClient.getQueryCache().getAll().filter(isAskedFor);
    const loading = pendingParts();
    if ((asked.length === 0 && loading.length === 0) || round === MAX_RENDERS) {
      // Every style the render made, not only those whose class is in the HTML: a styled wrapper's
      // own styles are merged into its child's class and so never appear there, but the browser's
      // render makes them again, and would compile and insert each one (about 35 ms of the
      // takeover's commit on /videoType) unless the page says they are there.
      const registered = Object.keys(cache.registered).join(' ');
      const head = styleTags(extractCriticalToChunks(`${html} ${registered}`));
      // Only answered queries go into the page (the browser asks again for any other), and of the
      // lists fetched ahead only those the page read: a screen the member may not open reads none.
      const state = dehydrate(queryClient, {
        shouldDehydrateQuery: (query) => defaultShouldDehydrateQuery(query) && (!aheadKeys.has(query.queryHash) || read.has(query.queryHash)),
      });
      const { title } = serverTitle;
      return { html: withTitle(html, title), head, renders: round, state: pageStateScript({ ...state, title }) };
    }
    await Promise.allSettled([...asked.map((query) => query.fetch()), ...loading]);
  }
}
