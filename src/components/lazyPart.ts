// Code loaded on demand: the screens (src/screens.tsx) and the parts of a screen that are not
// needed for its first rows (the add/edit dialog and its inputs, the category tree, rich text).
// Parts load on first render, or ahead of it once the browser is idle, so that the screen's own
// download stays small and its dialogs still open at once.
//
// Why not React.lazy: it suspends on its first render even when the code has already arrived
// (it calls the loader itself and waits for the promise), so its Suspense boundary commits the
// fallback, and React then holds back revealing the content until 300 ms after that fallback was
// shown (its "fallback throttle"). A screen or tree whose code was fetched ahead of time would
// still wait up to 300 ms. Here the promise carries its status, which React's `use` reads
// synchronously (trackedPromise, in util/libraryReaches.ts): code that is already there renders at
// once, without a fallback.
import { createElement, use, useEffect, type ComponentType } from 'react';
import { trackedPromise, type TrackedPromise } from '../util/libraryReaches';

interface Loader<T> {
  /** Starts the download (again after a failure); answers its promise. */
  preload: () => Promise<T>;
  /** In a component: the loaded value, or suspends until it is there (a failure reaches the error boundary). */
  useValue: () => T;
}

/** Downloads under way, of every part: the server's render waits for them (ssr/render.tsx). */
const downloading = new Set<Promise<unknown>>();

/** Every part by its name, once the module that declares it has run. */
const named = new Map<string, Loader<unknown>>();
/** The names of the parts rendered since `renderedParts` was last asked (the server's render). */
const rendered = new Set<string>();

/**
 * The names of the parts rendered since the last call: the server's render asks before and after
 * each pass (renderToString runs whole, so no other page's pass comes in between), and the page
 * names them for the browser, which loads them before it takes the page over (`preloadParts`).
 */
export function renderedParts(): string[] {
  const names = [...rendered];
  rendered.clear();
  return names;
}

/**
 * Loads the parts a page rendered by the server shows, before the browser takes it over: a part
 * whose code is still missing then would show its fallback in place of the server's HTML (React
 * renders a boundary anew when it changes before it is hydrated). A part declared in another
 * part's code is found once that code is there; names that never appear are left.
 */
export async function preloadParts(names: readonly string[]): Promise<void> {
  const started = new Set<string>();
  for (;;) {
    const ready = names.filter((name) => !started.has(name) && named.has(name));
    if (ready.length === 0) return;
    for (const name of ready) started.add(name);
    await Promise.allSettled(ready.map((name) => named.get(name)!.preload()));
  }
}

/** The parts' downloads under way; each settles (never rejects) when its code is there or failed. */
export function partsLoading(): Promise<unknown>[] {
  return [...downloading];
}

function loader<T>(name: string, load: () => Promise<T>): Loader<T> {
  let current: TrackedPromise<T> | undefined;
  const preload = (): Promise<T> => {
    if (!current || current.status === 'rejected') {
      const promise = trackedPromise(load());
      current = promise;
      const settled = promise.then(
        () => undefined,
        () => undefined,
      );
      downloading.add(settled);
      void settled.then(() => downloading.delete(settled));
    }
    return current;
  };
  const useValue = () => {
    rendered.add(name);
    // A rejected download is shown (error boundary), not retried in a loop; preload() retries it.
    return use<T>((current as Promise<T> | undefined) ?? preload());
  };
  const part = { preload, useValue };
  named.set(name, part);
  return part;
}

export type LazyPart<P> = ComponentType<P> & { preload: () => Promise<unknown> };

/** A component whose code loads on first render (render it inside a Suspense boundary); `name` is unique among parts. */
export function lazyPart<P extends object>(name: string, load: () => Promise<ComponentType<P>>): LazyPart<P> {
  const code = loader(name, load);
  function Part(props: P) {
    return createElement(code.useValue(), props);
  }
  return Object.assign(Part, { preload: code.preload });
}

/** Runs `task` when the browser is idle (at the latest after `timeout` ms); answers a cancel. */
export function whenIdle(task: () => void, timeout = 2000): () => void {
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
