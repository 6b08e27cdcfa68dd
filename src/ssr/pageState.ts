// The query answers a server-rendered page was rendered with, carried in the page itself so that
// the browser's first render (hydration) reads the same data and produces the same HTML.
import { hydrate, type DehydratedState, type QueryClient } from '@tanstack/react-query';

/** The id of the `<script type="application/json">` holding the state (main.tsx checks it too). */
export const PAGE_STATE_ID = 'ssr-state';

/**
 * JSON safe inside a `<script>` element: `<` is escaped, so no value (a category named
 * `</script><script>…`) can close the element; JSON.parse reads `\u003c` back as `<`.
 */
/** What a server-rendered page carries: its query answers, and the title its app bar shows. */
export interface PageState extends DehydratedState {
  title?: string;
}

export function pageStateScript(state: PageState): string {
  const json = JSON.stringify(state).replace(/</g, '\\u003c');
  return `<script id="${PAGE_STATE_ID}" type="application/json">${json}</script>`;
}

/** The state of a server-rendered page; undefined for a page the server did not render. */
export function readPageState(doc: Document = document): PageState | undefined {
  const text = doc.getElementById(PAGE_STATE_ID)?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as PageState;
  } catch {
    return undefined;
  }
}

/** How long the answers a page came with count as fresh: the server fetched them moments ago. */
export const PAGE_DATA_FRESH_MS = 10_000;

/**
 * Puts the page's answers into the app's query cache before hydration. They count as fresh for
 * PAGE_DATA_FRESH_MS from now (the browser's clock, not the server's), so the lists mounting as
 * the page hydrates use them rather than asking again at once (react-query refetches stale data on
 * mount, and with the default staleTime of 0 every answer is stale). Any other query, and these
 * once answered again (a change invalidates them, a page change asks anew), keep the default.
 */
export function hydratePageState(queryClient: QueryClient, state: DehydratedState): void {
  const now = Date.now();
  const fromPage = new Set<string>();
  for (const query of state.queries) {
    query.state.dataUpdatedAt = now;
    fromPage.add(query.queryHash);
  }
  hydrate(queryClient, state);
  const defaults = queryClient.getDefaultOptions();
  queryClient.setDefaultOptions({
    ...defaults,
    queries: {
      ...defaults.queries,
      staleTime: (query) => (fromPage.has(query.queryHash) && query.state.dataUpdatedAt === now ? PAGE_DATA_FRESH_MS : 0),
    },
  });
}
