// The app's only reliance on its libraries beyond their documented surface, all here so that an
// upgrade has one file to check; libraryReaches.spec.tsx fails by name when one of them changes.
//
// 1. react-query: which queries a server render asked for, and how to answer them. A component's
//    query keeps the options it was built with (`queryFn`, `enabled`) on the cached query.
// 2. react-admin: its Layout renders the preferences Inspector, which reads
//    `document?.body.clientWidth` while rendering; optional chaining on a name Node does not
//    declare throws on the server.
// 3. React: `use(promise)` reads a promise's `status` and `value` when it carries them (React's
//    protocol for promises, from its RFC, not its API reference), and answers a fulfilled one at
//    once instead of suspending: code already downloaded renders without a fallback (lazyPart.ts).
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

/** A promise that says how it settled, for React's `use`. */
export type TrackedPromise<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

/** `promise`, marked with its status as it settles. */
export function trackedPromise<T>(promise: Promise<T>): TrackedPromise<T> {
  const tracked: TrackedPromise<T> = promise;
  tracked.status = 'pending';
  tracked.then(
    (value) => {
      tracked.status = 'fulfilled';
      tracked.value = value;
    },
    (reason: unknown) => {
      tracked.status = 'rejected';
      tracked.reason = reason;
    },
  );
  return tracked;
}
