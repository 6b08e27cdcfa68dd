// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { CoreAdminContext, useAuthState, useGetIdentity, usePermissions, type AuthProvider } from 'react-admin';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CurrentMember } from '../../schemas/types';
import { checkSessionOncePerLoad, prefillSession } from './sessionCache';

afterEach(cleanup);

const member = { AuCode: 'u1', AuName: '张三', OrganizationName: '造价部', IsAdmin: 1, Modules: {} } as unknown as CurrentMember;

/** Every method pending for ever: anything the hooks show came from the cache. */
function pendingAuthProvider(): AuthProvider {
  const never = () => new Promise<never>(() => undefined);
  return {
    login: vi.fn(never),
    logout: vi.fn(never),
    checkAuth: vi.fn(never),
    checkError: vi.fn(never),
    getPermissions: vi.fn(never),
    getIdentity: vi.fn(never),
  };
}

function Probe() {
  const auth = useAuthState();
  const { permissions } = usePermissions<CurrentMember>();
  const { identity } = useGetIdentity();
  return (
    <p>
      {auth.isPending ? 'checking' : String(auth.authenticated)} {permissions?.AuCode ?? 'none'} {identity?.fullName ?? 'nobody'}
    </p>
  );
}

describe('prefillSession', () => {
  it("answers react-admin's auth hooks in their first render, without asking the authProvider", () => {
    const queryClient = new QueryClient();
    checkSessionOncePerLoad(queryClient);
    prefillSession(queryClient, member);
    const authProvider = pendingAuthProvider();
    render(
      <CoreAdminContext queryClient={queryClient} authProvider={authProvider}>
        <Probe />
      </CoreAdminContext>,
    );
    expect(screen.getByText('true u1 张三')).toBeTruthy();
    expect(authProvider.checkAuth).not.toHaveBeenCalled();
    expect(authProvider.getPermissions).not.toHaveBeenCalled();
    expect(authProvider.getIdentity).not.toHaveBeenCalled();
  });

  it('leaves the hooks to ask the authProvider when nothing was filled', () => {
    const authProvider = pendingAuthProvider();
    render(
      <CoreAdminContext queryClient={new QueryClient()} authProvider={authProvider}>
        <Probe />
      </CoreAdminContext>,
    );
    expect(screen.getByText('checking none nobody')).toBeTruthy();
    expect(authProvider.checkAuth).toHaveBeenCalled();
  });
});
