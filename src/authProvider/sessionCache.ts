// The session's answers put where react-admin's auth hooks read them (ra-core 5 query keys:
// useAuthState, usePermissions, useGetIdentity), so that the app's first render already has them.
// Without them the layout renders a loading page, then itself once per answer as each arrives.
import type { QueryClient } from '@tanstack/react-query';
import type { CurrentMember } from '../../schemas/types';
import { identityOf } from './index';

export const CHECK_AUTH_KEY = ['auth', 'checkAuth', {}] as const;
export const PERMISSIONS_KEY = ['auth', 'getPermissions', {}] as const;
export const IDENTITY_KEY = ['auth', 'getIdentity'] as const;

export function prefillSession(queryClient: QueryClient, member: CurrentMember): void {
  queryClient.setQueryData(CHECK_AUTH_KEY, true);
  queryClient.setQueryData(PERMISSIONS_KEY, member);
  queryClient.setQueryData(IDENTITY_KEY, identityOf(member));
}

/** The member the cache holds (filled by prefillSession, here or on the server), if any. */
export function cachedMember(queryClient: QueryClient): CurrentMember | undefined {
  return queryClient.getQueryData<CurrentMember>(PERMISSIONS_KEY);
}

/**
 * The session is checked once per page load: the server checks every call, and a 401 logs out
 * (authProvider.checkError). react-admin would otherwise ask again on each mount and render the
 * layout twice more for the same answer.
 */
export function checkSessionOncePerLoad(queryClient: QueryClient): void {
  queryClient.setQueryDefaults(['auth', 'checkAuth'], { staleTime: Infinity });
}
