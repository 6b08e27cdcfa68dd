import type { ReactNode } from 'react';
import { Loading } from 'react-admin';
import { NoAccess } from './NoAccess';
import { canViewModule, useMember, type ScreenModule } from './useMember';

/**
 * Renders a screen only for members who may view its module (code 2, or IsAdmin for 'admin').
 * Without a member (the session is being checked, or was refused and the login page is coming)
 * it shows the loading indicator, never 无权限.
 */
export function RequireModule({ module, children }: { module: ScreenModule; children: ReactNode }) {
  const { member } = useMember();
  if (!member) return <Loading />;
  if (!canViewModule(member, module)) return <NoAccess />;
  return <>{children}</>;
}
