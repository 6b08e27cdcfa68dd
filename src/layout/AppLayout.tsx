import { memo, Suspense, useState } from 'react';
import { AppBar, Layout, Logout, Sidebar, UserMenu, useTranslate, type AppBarProps, type LayoutProps, type SidebarProps } from 'react-admin';
import { useMember } from '../access/useMember';
import { lazyPart, usePreloadWhenIdle } from '../components/lazyPart';
import { AppMenu } from './AppMenu';
import { ChangePasswordMenuItem } from './ChangePassword';
import { ScreenTitle } from './ScreenTitle';

/** 修改密码's dialog, with the server's validators of a password: not part of the first screen. */
const ChangePasswordDialog = lazyPart('ChangePasswordDialog', () => import('./ChangePasswordDialog').then((m) => m.ChangePasswordDialog));

/**
 * The app bar stays in place (a back office's title and user menu are as well kept in view); it
 * shows the page's title (ScreenTitle) and the user menu with 修改密码 and 登出. The dialog
 * lives here, not in the menu: the menu's items are unmounted once it closes. Memoised: react-admin
 * re-renders the layout as the session's queries settle, which does not change the bar.
 */
const AppTopBar = memo(function AppTopBar(props: AppBarProps) {
  const [changingPassword, setChangingPassword] = useState(false);
  usePreloadWhenIdle(ChangePasswordDialog);
  const { member } = useMember();
  const translate = useTranslate();
  // The button shows the member's name: its accessible name says it too (label in name, WCAG 2.5.3).
  const userMenuLabel = member ? `${member.AuName}，${translate('ra.auth.user_menu')}` : undefined;
  return (
    <>
      <AppBar
        {...props}
        alwaysOn
        // The refresh button and the user menu render with the page (the server's too): shown only
        // after the takeover, they pushed the title aside as they came.
        userMenu={
          <UserMenu label={userMenuLabel}>
            <ChangePasswordMenuItem onOpen={() => setChangingPassword(true)} />
            <Logout />
          </UserMenu>
        }
      >
        <ScreenTitle />
      </AppBar>
      {changingPassword && (
        <Suspense fallback={null}>
          <ChangePasswordDialog onClose={() => setChangingPassword(false)} />
        </Suspense>
      )}
    </>
  );
});

/**
 * react-admin's sidebar around the menu, rendered again only when its own props change: the
 * layout hands it a new `<AppMenu />` element on each of its renders, always the same menu.
 */
const AppSidebar = memo(
  function AppSidebar(props: SidebarProps) {
    return <Sidebar {...props} />;
  },
  (before, after) => before.appBarAlwaysOn === after.appBarAlwaysOn,
);

/** react-admin's layout with this app's app bar and menu. */
export function AppLayout({ children }: LayoutProps) {
  return (
    <Layout appBar={AppTopBar} menu={AppMenu} sidebar={AppSidebar} appBarAlwaysOn>
      {children}
    </Layout>
  );
}
