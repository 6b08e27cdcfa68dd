import { useSyncExternalStore } from 'react';

const noSubscription = () => () => undefined;

/**
 * false on the server and while the browser hydrates a server-rendered page (src/ssr), true
 * otherwise: for what only the browser can render (a portal into the app bar, HTML sanitised with
 * the browser's DOM), so that the server's render and the browser's first render agree. React
 * renders again with true right after hydrating; a page the browser renders itself gets true at once.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
