import { Suspense, type ComponentType } from 'react';
import { Loading } from 'react-admin';
import { lazyPart, type LazyPart } from './components/lazyPart';

/**
 * A screen loaded on first visit, so that the login page's bundle stays small. `preload` starts
 * its download ahead of the first render; code already there renders without a fallback.
 */
export function lazyScreen<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): LazyPart<P> {
  const Screen = lazyPart(() => load().then((m) => m.default));
  function LazyScreen(props: P) {
    return (
      <Suspense fallback={<Loading />}>
        <Screen {...props} />
      </Suspense>
    );
  }
  return Object.assign(LazyScreen, { preload: Screen.preload });
}
