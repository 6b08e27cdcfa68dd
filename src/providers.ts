// The providers of this app: same origin as the server (docs/api.md), so every call is /<service>/<call>.
import { QueryClient } from '@tanstack/react-query';
import { localStorageStore, type Store } from 'react-admin';
import { createAuthProvider } from './authProvider/index';
import { checkSessionOncePerLoad } from './authProvider/sessionCache';
import { legacyDataProvider } from './dataProvider/index';
import { fetchJson, type HttpClient } from './http/index';
import { appStore } from './appStore';

export interface AppProviders {
  dataProvider: ReturnType<typeof legacyDataProvider>;
  authProvider: ReturnType<typeof createAuthProvider>;
  /** react-admin's query cache, made here so that it can be filled before the first render. */
  queryClient: QueryClient;
  /** react-admin's store (sidebar state, locale…). */
  store: Store;
}

/**
 * One set per page load in the browser; one per request when the server renders a page
 * (src/ssr), where `httpClient` answers through the server itself with the visitor's cookie.
 */
export function createProviders(httpClient: HttpClient = fetchJson, store: Store = localStorageStore()): AppProviders {
  const queryClient = new QueryClient();
  checkSessionOncePerLoad(queryClient);
  return {
    dataProvider: legacyDataProvider('', httpClient),
    authProvider: createAuthProvider('', httpClient),
    queryClient,
    store: appStore(store),
  };
}
