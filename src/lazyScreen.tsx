import { lazy, Suspense, type ComponentType } from 'react';
import { Loading } from 'react-admin';

/** A screen loaded on first visit, so that the login page's bundle stays small. */
export function lazyScreen<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
  const Screen = lazy(load);
  function LazyScreen(props: P) {
    return (
      <Suspense fallback={<Loading />}>
        <Screen {...props} />
      </Suspense>
    );
  }
  return LazyScreen;
}
