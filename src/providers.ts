// The providers of this app: same origin as the server (docs/api.md), so every call is /<service>/<call>.
// One set per page: the browser makes one (main.tsx), the server one per page it renders (ssr/render.tsx),
// each with the HTTP client of its side.
import { QueryClient } from '@tanstack/react-query';
import type { Store } from 'react-admin';
import { createAuthProvider, type SessionAuthProvider } from './authProvider/index';
import { legacyDataProvider, type LegacyDataProvider } from './dataProvider/index';
import { fetchJson, type HttpClient } from './http/index';
import { APP_LOCALE } from './i18n/index';
import type { CurrentMember } from '../schemas/types';

/** A refusal of the session or of a permission is an answer, not a failure worth asking again. */
export function retryQuery(failures: number, error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return status !== 401 && status !== 403 && failures < 3;
}

export interface Providers {
  dataProvider: LegacyDataProvider;
  authProvider: SessionAuthProvider;
  /** react-admin's query cache. */
  queryClient: QueryClient;
  /** react-admin's store (sidebar state, locale, list settings…). */
  store: Store;
}

/**
 * `session`: the member a page rendered by the server was rendered for; null when the page says that
 * there is no session; undefined: unknown (the authProvider asks).
 */
export function createProviders(store: Store, httpClient: HttpClient = fetchJson, session?: CurrentMember | null): Providers {
  // react-admin renders nothing until the stored locale is the i18nProvider's, then everything
  // again: a first visit (nothing stored) would render the app only in that second pass.
  if (store.getItem('locale') === undefined) store.setItem('locale', APP_LOCALE);
  return {
    dataProvider: legacyDataProvider('', httpClient),
    authProvider: createAuthProvider('', httpClient, session),
    queryClient: new QueryClient({ defaultOptions: { queries: { retry: retryQuery } } }),
    store,
  };
}
