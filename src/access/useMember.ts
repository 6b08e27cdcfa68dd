// The current member (authProvider.getPermissions answers it) and synchronous access checks over
// it, so that a table of 15 rows asks the pure rule of schemas/permissions.ts, not the network.
import { useCallback } from 'react';
import { useAuthProvider, usePermissions } from 'react-admin';
import type { ModuleKey } from '../../schemas/descriptor';
import { canAccess, hasCode, type Action } from '../../schemas/permissions';
import type { CurrentMember } from '../../schemas/types';
import type { SessionAuthProvider } from '../authProvider/index';

/**
 * The member: react-admin's permissions, or, until its query has answered, the session our
 * authProvider already holds (main.tsx waits for it before the first render), so that a screen
 * renders, and asks for its rows, in the first pass rather than in one more after the query.
 */
export function useMember(): { member: CurrentMember | undefined; isPending: boolean } {
  const { permissions, isPending } = usePermissions<CurrentMember>();
  const authProvider = useAuthProvider<SessionAuthProvider>();
  const member = permissions ?? authProvider?.knownMember?.();
  return { member, isPending: isPending && !member };
}

/** A screen's module: viewing needs code 2 on it; 'admin' screens need IsAdmin. */
export type ScreenModule = ModuleKey | 'admin';

export function canViewModule(member: CurrentMember | undefined, module: ScreenModule): boolean {
  if (!member) return false;
  if (module === 'admin') return member.IsAdmin === 1;
  return hasCode(member, module, '2');
}

export type AccessCheck = (action: Action, record?: Record<string, unknown>) => boolean;

/** `can('edit', row)`: the rule of schemas/permissions.ts for one resource, ownership included. */
export function useAccess(resource: string): AccessCheck {
  const { member } = useMember();
  return useCallback(
    (action: Action, record?: Record<string, unknown>) =>
      canAccess(member, { resource, action, ...(record ? { record } : {}) }),
    [member, resource],
  );
}
