// The providers of this app: same origin as the server (API.md), so every call is /<service>/<call>.
import { QueryClient } from '@tanstack/react-query';
import { createAuthProvider } from './authProvider/index';
import { checkSessionOncePerLoad } from './authProvider/sessionCache';
import { legacyDataProvider } from './dataProvider/index';

export const dataProvider = legacyDataProvider('');
export const authProvider = createAuthProvider('');

/** react-admin's query cache, made here so that main.tsx can fill it before the first render. */
export const queryClient = new QueryClient();
checkSessionOncePerLoad(queryClient);
