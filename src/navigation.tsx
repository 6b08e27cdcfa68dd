// Where the screens are, from their declarations (SCREENS and MENU_ENTRIES of schemas/index.ts): the
// screen at an address, the menu entry it lights, the title it shows, and where a link to another
// screen goes. A path or a label is written once, where the screen is declared.
import { matchPath, type Location } from 'react-router-dom';
import { MENU_ENTRIES, SCREENS, screenLink, type MenuEntry, type Screen } from '../schemas/index';

/** The app's own name: the app bar's title where no screen is (the 404 page). */
export const APP_TITLE = '知识学习后台';

/** Home's title and menu entry (the dashboard is react-admin's, not a declared screen). */
export const HOME_TITLE = '首页';

type ScreenProps = Readonly<Record<string, string | number>>;

/** The screen rendered by `component` (a file under src/resources/), with these props if it is shared. */
export function screenOf(component: string, props: ScreenProps = {}): Screen {
  const found = SCREENS.find((s) => s.component === component && Object.entries(props).every(([k, v]) => s.props?.[k] === v));
  if (!found) throw new Error(`no screen declares the component ${component} ${JSON.stringify(props)}`);
  return found;
}

/** Where a link to that screen goes: its path without an optional last segment. */
export function pathOf(component: string, props?: ScreenProps): string {
  return screenLink(screenOf(component, props));
}

/** The screen at `pathname`: the one whose path it is, else one it lies under. */
export function screenAt(pathname: string): Screen | undefined {
  return SCREENS.find((s) => matchPath(s.path, pathname)) ?? SCREENS.find((s) => matchPath(`${s.path}/*`, pathname));
}

const under = (pathname: string, prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);

/**
 * Whether the menu entry is the current page. react-admin's MenuItemLink matches the path only, so
 * the four catalogues (same path, another `type`) would all light up: decided here, query included.
 */
export function isCurrent(entry: Pick<MenuEntry, 'to' | 'match'>, location: Pick<Location, 'pathname' | 'search'>): boolean {
  if (entry.match?.some((p) => under(location.pathname, p))) return true;
  const target = new URL(entry.to, 'http://app');
  // Exact path: /Knowledge/TYKJ must not light up on /Knowledge/TYKJ/ClassifyManage.
  if (location.pathname !== target.pathname) return false;
  const query = new URLSearchParams(location.search);
  // A missing `type` means type 0, as on the legacy routes.
  return [...target.searchParams].every(([k, v]) => (query.get(k) ?? '0') === v);
}

/**
 * The page's title at this address: the label of the screen there, or of its current menu entry
 * (a catalogue's entry names its document type); 首页 at home; the app's name elsewhere.
 */
export function titleAt(location: Pick<Location, 'pathname' | 'search'>): string {
  if (location.pathname === '/') return HOME_TITLE;
  const screen = screenAt(location.pathname);
  if (!screen) return APP_TITLE;
  const entry = MENU_ENTRIES.find((e) => e.screen === screen && isCurrent(e, location));
  return entry?.label ?? screen.label;
}

/** The browser tab's title for a page titled `title`: it, then the app's name (alone where no screen is). */
export function documentTitle(title: string): string {
  return title === APP_TITLE ? APP_TITLE : `${title} - ${APP_TITLE}`;
}
