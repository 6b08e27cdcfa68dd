/// <reference types="vite/client" />
// Each declared screen (SCREENS of schemas/index.ts) as a route element: a special screen is the
// default export of its file under src/resources/ (`component`), loaded on first visit, with its
// `props`; any other is the generated list of its resource. Either sits behind its module's guard.
import { Suspense, type ComponentType, type ReactElement } from 'react';
import { Loading } from 'react-admin';
import { resourceByName, screenModule, type Screen } from '../schemas/index';
import { RequireModule } from './access/RequireModule';
import { lazyPart, type LazyPart } from './components/lazyPart';
import { DashboardPanels } from './layout/Dashboard';
import { screenAt } from './navigation';

type ScreenComponent = ComponentType<Record<string, unknown>>;

/** Every file under src/resources/ (specs aside), each loaded on demand, in a chunk of its own. */
export const SCREEN_FILES = import.meta.glob<ScreenComponent>(['./resources/**/*.tsx', '!./resources/**/*.spec.tsx'], {
  import: 'default',
});

/** The key of SCREEN_FILES of a special screen's `component` ('video/VideoList'). */
export const screenFile = (component: string): string => `./${screenModule({ component }).slice('src/'.length)}`;

/** The generated list: a chunk of its own too (the login page and home do not need it). */
const SchemaList = lazyPart('SchemaList', () => import('./components/SchemaList').then((m) => m.SchemaList));

/** One loader per file, shared by the screens that render it (分类管理 on two paths). */
const parts = new Map<string, LazyPart<Record<string, unknown>>>();

function partOf(component: string): LazyPart<Record<string, unknown>> {
  let part = parts.get(component);
  if (!part) {
    const load = SCREEN_FILES[screenFile(component)];
    if (!load) throw new Error(`screen component ${component}: no file ${screenFile(component)}`);
    part = lazyPart(`screen:${component}`, load);
    parts.set(component, part);
  }
  return part;
}

function content(screen: Screen): ReactElement {
  if (screen.component) {
    const Part = partOf(screen.component);
    return <Part {...screen.props} />;
  }
  const descriptor = resourceByName(screen.resource);
  if (!descriptor) throw new Error(`screen ${screen.path}: no resource ${screen.resource}`);
  return <SchemaList descriptor={descriptor} addLabel="添加" syncWithLocation />;
}

/** The route element of a screen: its module's guard (无权限 without view code 2), then the screen. */
export function screenElement(screen: Screen): ReactElement {
  return (
    <RequireModule module={screen.module}>
      <Suspense fallback={<Loading />}>{content(screen)}</Suspense>
    </RequireModule>
  );
}

/**
 * Downloads the code of the screen at `pathname` (a deep link, a reload) alongside the session
 * check, rather than once the session is known and the screen renders. Settles when it is there.
 */
export function preloadScreen(pathname: string): Promise<void> {
  const screen = screenAt(pathname);
  // Home is react-admin's dashboard, not a declared screen: its sections' code.
  if (pathname === '/') return DashboardPanels.preload().then(
    () => undefined,
    () => undefined,
  );
  if (!screen) return Promise.resolve();
  // A failed download shows the error page when the screen renders; rendering retries it.
  return (screen.component ? partOf(screen.component) : SchemaList).preload().then(
    () => undefined,
    () => undefined,
  );
}
