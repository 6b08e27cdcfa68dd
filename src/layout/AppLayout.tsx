import { memo, useDeferredValue, useState } from 'react';
import { AppBar, Layout, Logout, Sidebar, UserMenu, type AppBarProps, type LayoutProps, type SidebarProps } from 'react-admin';
import { AppMenu } from './AppMenu';
import { ChangePasswordDialog, ChangePasswordMenuItem } from './ChangePassword';
import { ScreenTitle } from './ScreenTitle';

/**
 * The app bar stays in place (a back office's title and user menu are as well kept in view); it
 * shows the page's title (ScreenTitle) and the user menu with 修改密码 and 登出. The dialog
 * lives here, not in the menu: the menu's items are unmounted once it closes. Memoised: react-admin
 * re-renders the layout as the session's queries settle, which does not change the bar.
 */
const AppTopBar = memo(function AppTopBar(props: AppBarProps) {
  const [changingPassword, setChangingPassword] = useState(false);
  // The loading indicator and the user menu render after the screen, with the menu's entries
  // (AppMenu), in a render React may interrupt.
  const complete = useDeferredValue(true, false);
  return (
    <>
      <AppBar
        {...props}
        alwaysOn
        toolbar={complete ? undefined : null}
        userMenu={
          complete ? (
            <UserMenu>
              <ChangePasswordMenuItem onOpen={() => setChangingPassword(true)} />
              <Logout />
            </UserMenu>
          ) : (
            false
          )
        }
      >
        <ScreenTitle />
      </AppBar>
      {changingPassword && <ChangePasswordDialog onClose={() => setChangingPassword(false)} />}
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
