// react-admin's store for this app: its localStorage store (memory on the server), with two
// settings answered so that the server's render of a page (src/ssr) and the browser's first
// render agree.
import type { Store } from 'react-admin';
import { APP_LOCALE } from './i18n/index';
import { readSettingCookie, saveSettingCookie } from './ssr/requestCookies';

/** react-admin's key for the sidebar (open or closed), kept in this cookie as well. */
const SIDEBAR_KEY = 'sidebar.open';
/** Prefixed with the project's name (package.json "name"). */
export const SIDEBAR_COOKIE = 'zhishi-admin-sidebar-open';

function sidebarCookie(): boolean | undefined {
  const value = readSettingCookie(SIDEBAR_COOKIE);
  return value === '1' ? true : value === '0' ? false : undefined;
}

/**
 * - The locale is the app's while none is stored: react-admin renders nothing on its first render
 *   until the stored locale equals the i18nProvider's (I18nContextProvider), then renders again;
 *   with a fresh store (a first visit, or the server's render) that was one empty pass, and the
 *   server's HTML would have been empty.
 * - The sidebar's state is also a cookie, which the server reads: a member who closed the sidebar
 *   gets the page rendered with it closed, as the browser will render it.
 */
export function appStore(base: Store): Store {
  // In the browser the cookie is read once: reading document.cookie asks the browser's cookie store,
  // and some twenty components (the menu's items among them) read the sidebar's state as they mount.
  let browserSidebar: { open: boolean | undefined } | undefined;
  const sidebarOpen = () => (typeof document === 'undefined' ? sidebarCookie() : (browserSidebar ??= { open: sidebarCookie() }).open);
  return {
    ...base,
    getItem: <T,>(key: string, defaultValue?: T): T | undefined => {
      if (key === SIDEBAR_KEY) {
        const open = sidebarOpen();
        if (open !== undefined) return open as T;
      }
      return base.getItem<T>(key, key === 'locale' && defaultValue === undefined ? (APP_LOCALE as T) : defaultValue);
    },
    setItem: <T,>(key: string, value: T): void => {
      if (key === SIDEBAR_KEY && typeof document !== 'undefined') {
        saveSettingCookie(SIDEBAR_COOKIE, value ? '1' : '0');
        browserSidebar = { open: Boolean(value) };
      }
      base.setItem(key, value);
    },
  };
}
