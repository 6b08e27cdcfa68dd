import { useDeferredValue, type ReactNode } from 'react';
import { ListContextProvider, useListContext } from 'react-admin';

/**
 * The list around it as its children see it: new rows reach them in a render React may interrupt
 * (a deferred value), not in the one that receives them. react-query hands a list's answer to
 * react-admin in a synchronous render; a list shown whole (常用网站管理, 50 rows of cells and
 * buttons) rendered that way holds the main thread in one long stretch (200 ms of Lighthouse's
 * total blocking time), during which the page answers no click. A paged list of 15 rows stays
 * synchronous: its rows show sooner that way.
 */
export function DeferredRows({ children }: { children: ReactNode }) {
  const list = useListContext();
  const shown = useDeferredValue(list);
  return <ListContextProvider value={shown}>{children}</ListContextProvider>;
}
