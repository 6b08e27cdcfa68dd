// The providers of this app: same origin as the server (docs/api.md), so every call is /<service>/<call>.
import { QueryClient } from '@tanstack/react-query';
import { localStorageStore } from 'react-admin';
import { createAuthProvider } from './authProvider/index';
import { legacyDataProvider } from './dataProvider/index';
import { APP_LOCALE } from './i18n/index';

export const dataProvider = legacyDataProvider('');
export const authProvider = createAuthProvider('');
/** A refusal of the session or of a permission is an answer, not a failure worth asking again. */
export function retryQuery(failures: number, error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return status !== 401 && status !== 403 && failures < 3;
}

/** react-admin's query cache. */
export const queryClient = new QueryClient({ defaultOptions: { queries: { retry: retryQuery } } });
/** react-admin's store (sidebar state, locale…), kept in localStorage. */
export const store = localStorageStore();
// react-admin renders nothing until the stored locale is the i18nProvider's, then everything again:
// a first visit (nothing stored) would render the app only in that second pass.
if (store.getItem('locale') === undefined) store.setItem('locale', APP_LOCALE);
