// The one place that reads react-query's cached queries beyond their documented surface: which
// queries a server render asked for, and how to answer them (askedQueries.spec.tsx fails by name
// when react-query stops keeping `queryFn` or `enabled` on a query built for a component).
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
