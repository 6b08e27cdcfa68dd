// Parts of a screen that are not needed for its first rows (the add/edit dialog and its inputs,
// the category tree, rich text): loaded on first render, or ahead of it once the browser is idle,
// so that the screen's own download stays small and its dialogs still open at once.
import { lazy, useEffect, type ComponentType, type LazyExoticComponent } from 'react';

export type LazyPart<P> = LazyExoticComponent<ComponentType<P>> & { preload: () => Promise<unknown> };

export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): LazyPart<P> {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () => {
    loading ??= load().then((component) => ({ default: component }));
    // A failed download is tried again on the next render (a network hiccup is not permanent).
    loading.catch(() => (loading = undefined));
    return loading;
  };
  return Object.assign(lazy(preload), { preload });
}

/** Runs `task` when the browser is idle (at the latest after `timeout` ms). */
function whenIdle(task: () => void, timeout = 2000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(task, { timeout });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(task, 200);
  return () => window.clearTimeout(id);
}

/** Fetches these parts once the screen is shown and the browser is idle. */
export function usePreloadWhenIdle(...parts: { preload: () => Promise<unknown> }[]): void {
  useEffect(
    () => whenIdle(() => parts.forEach((part) => void part.preload().catch(() => undefined))),
    // The parts are module-level constants.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
}
