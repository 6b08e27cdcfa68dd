import type { ReactNode } from 'react';
import { Loading } from 'react-admin';
import { NoAccess } from './NoAccess';
import { canViewModule, useMember, type ScreenModule } from './useMember';

/** Renders a screen only for members who may view its module (code 2, or IsAdmin for 'admin'). */
export function RequireModule({ module, children }: { module: ScreenModule; children: ReactNode }) {
  const { member, isPending } = useMember();
  if (isPending) return <Loading />;
  if (!canViewModule(member, module)) return <NoAccess />;
  return <>{children}</>;
}
