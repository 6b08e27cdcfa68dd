// The server render's only reliance on its libraries beyond their documented surface, both here so
// that an upgrade has one file to check; libraryReaches.spec.tsx fails by name when either changes.
//
// 1. react-query: which queries a render asked for, and how to answer them. A component's query
//    keeps the options it was built with (`queryFn`, `enabled`) on the cached query.
// 2. react-admin: its Layout renders the preferences Inspector, which reads
//    `document?.body.clientWidth` while rendering; optional chaining on a name Node does not
//    declare throws.
import type { FetchQueryOptions, Query, QueryClient } from '@tanstack/react-query';

/** The options a component's query was built with: react-query keeps its observer's on the query. */
type BuiltQueryOptions = Query['options'] & { enabled?: boolean | ((query: Query) => boolean) };

function isEnabled(query: Query): boolean {
  const { enabled } = query.options as BuiltQueryOptions;
  return typeof enabled === 'function' ? enabled(query) : enabled !== false;
}

/**
 * The queries a render asked for that have no answer and are not being fetched, except those
 * their component disabled: as options for `queryClient.prefetchQuery`.
 */
export function askedQueries(queryClient: QueryClient): FetchQueryOptions[] {
  return queryClient
    .getQueryCache()
    .getAll()
    .filter((query) => query.state.status === 'pending' && query.state.fetchStatus === 'idle' && isEnabled(query))
    .map((query) => ({ queryKey: query.queryKey, queryFn: query.options.queryFn }) as FetchQueryOptions);
}

/**
 * Declares `document` as undefined on the server, so that react-admin's Layout reads it as it
 * intends, while `typeof document` stays 'undefined' for every other check.
 */
export function declareServerGlobals(): void {
  if (!('document' in globalThis)) Object.defineProperty(globalThis, 'document', { value: undefined, writable: true, configurable: true });
}
