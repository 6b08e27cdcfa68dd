// Renders any screen inside react-admin's AdminContext, with ra-core's testDataProvider (only the
// methods a test gives exist) and an authProvider over a fake member that applies the real
// permission rules of schemas/permissions.ts.
import type { ReactElement } from 'react';
import { configure, render, type RenderResult } from '@testing-library/react';
import { AdminContext, TestMemoryRouter, testDataProvider, type AuthProvider, type DataProvider } from 'react-admin';
import { canAccess, type Action } from '../../schemas/permissions';
import type { CurrentMember } from '../../schemas/types';
import { ACTION_MAP } from '../authProvider/index';
import { i18nProvider } from '../i18n/index';
import { theme } from '../theme';

// findBy* and waitFor wait 1 s by default: a screen in jsdom, on two cores shared with the API
// suite's servers, can take longer to show its rows. A missing row still fails, after 5 s.
configure({ asyncUtilTimeout: 5000 });

export function fakeMember(overrides: Partial<CurrentMember> = {}): CurrentMember {
  return {
    AuCode: 'staff-1',
    AuName: '测试员工',
    UserName: 'tester',
    IsAdmin: 0,
    OrganizationName: '造价一部',
    Modules: {},
    ...overrides,
  };
}

/** An authProvider that is always logged in as `member`. */
export function fakeAuthProvider(member: CurrentMember): AuthProvider {
  return {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getIdentity: async () => ({ id: member.AuCode, fullName: member.AuName }),
    getPermissions: async () => member,
    canAccess: async ({ action, resource, record }: { action: string; resource: string; record?: unknown }) => {
      const mapped: Action | undefined = ACTION_MAP[action];
      if (!mapped) return false;
      const row = typeof record === 'object' && record !== null ? (record as Record<string, unknown>) : undefined;
      return canAccess(member, { resource, action: mapped, ...(row ? { record: row } : {}) });
    },
  };
}

export interface RenderWithAdminOptions {
  /** The methods the screen may call (vi.fn mocks welcome); any other rejects (testDataProvider). */
  dataProvider?: Record<string, unknown>;
  member?: CurrentMember;
  /** Start location, e.g. '/Knowledge/Article/ClassifyManage/1?code=abc'. */
  initialEntries?: string[];
}

export function renderWithAdmin(ui: ReactElement, options: RenderWithAdminOptions = {}): RenderResult {
  const member = options.member ?? fakeMember();
  return render(
    <TestMemoryRouter initialEntries={options.initialEntries ?? ['/']}>
      <AdminContext
        dataProvider={testDataProvider(options.dataProvider as Partial<DataProvider> | undefined)}
        authProvider={fakeAuthProvider(member)}
        i18nProvider={i18nProvider}
        theme={theme}
      >
        {ui}
      </AdminContext>
    </TestMemoryRouter>,
  );
}
