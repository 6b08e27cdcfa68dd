import { useSyncExternalStore } from 'react';

const noChange = () => () => undefined;

/**
 * False while the server renders a page and while the browser takes that page over (hydrates
 * it), true from the browser's next render on (and at once on a page the browser renders itself):
 * for what renders differently where there is a document.
 */
export function useInBrowser(): boolean {
  return useSyncExternalStore(
    noChange,
    () => true,
    () => false,
  );
}
