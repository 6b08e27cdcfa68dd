import { useEffect } from 'react';
import { useListContext } from 'react-admin';
import { whenIdle } from './lazyPart';

/**
 * Calls `onSettled` once the list around it has its first answer (rows or an error) shown, when
 * the browser is next idle. A screen whose other lists are large (10,000 classifications: 1.6 MB)
 * asks for them after it, so that they share neither the network nor the main thread with the
 * rows shown first.
 */
export function ListSettled({ onSettled }: { onSettled: () => void }) {
  const { isPending } = useListContext();
  useEffect(() => {
    if (isPending) return;
    return whenIdle(onSettled, 200);
  }, [isPending, onSettled]);
  return null;
}
