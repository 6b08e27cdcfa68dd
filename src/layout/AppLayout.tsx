import { Suspense, useState, type ErrorInfo, type ReactNode } from 'react';
import { Box } from '@mui/material';
import { AppBar, AppBarClasses, Error as ErrorPage, Loading, Logout, Sidebar, SkipNavigationButton, UserMenu, type AppBarProps } from 'react-admin';
import { ErrorBoundary } from 'react-error-boundary';
import { AppMenu } from './AppMenu';
import { ChangePasswordDialog, ChangePasswordMenuItem } from './ChangePassword';
import { AppBarTitle } from './PageTitle';

/**
 * The app bar stays in place: react-admin's default hides it on scroll, and the scroll watcher
 * reads the page's scroll offset as the layout mounts, forcing a layout of the whole page before
 * its first paint. A back office's title and user menu are as well kept in view.
 * The user menu holds 修改密码 and 登出. The dialog lives here, not in the menu: the menu's items
 * are unmounted once it closes.
 */
function FixedAppBar(props: AppBarProps) {
  const [changingPassword, setChangingPassword] = useState(false);
  return (
    <>
      <AppBar
        {...props}
        alwaysOn
        userMenu={
          <UserMenu>
            <ChangePasswordMenuItem onOpen={() => setChangingPassword(true)} />
            <Logout />
          </UserMenu>
        }
      >
        <AppBarTitle className={AppBarClasses.title} />
      </AppBar>
      {changingPassword && <ChangePasswordDialog onClose={() => setChangingPassword(false)} />}
    </>
  );
}

// One style object for the frame, as classes (react-admin's Layout has the same shape: app bar,
// then the sidebar beside the content).
const layoutSx = {
  display: 'flex',
  flexDirection: 'column',
  zIndex: 1,
  minHeight: '100vh',
  bgcolor: 'background.default',
  position: 'relative',
  minWidth: 'fit-content',
  width: '100%',
  '& .app-frame': { display: 'flex', flexDirection: 'column', flexGrow: 1, mt: { xs: 7, sm: 6 } },
  '& .app-main': { display: 'flex', flexGrow: 1 },
  '& .app-content': {
    bgcolor: 'background.default',
    zIndex: 2,
    display: 'flex',
    flexDirection: 'column',
    flexGrow: 1,
    flexBasis: 0,
    px: 1,
  },
} as const;

/**
 * react-admin's layout parts (app bar, sidebar with our menu, error page) in a frame of our own.
 * Not react-admin's `Layout`: it also renders the preferences inspector (for configurable
 * components, which this app has none of), and that reads `document` while rendering, so the
 * server could not render a page with it (src/ssr).
 */
export function AppLayout({ children }: { children: ReactNode }) {
  const [errorInfo, setErrorInfo] = useState<ErrorInfo | undefined>(undefined);
  return (
    <Box className="layout" sx={layoutSx}>
      <SkipNavigationButton />
      <div className="app-frame">
        <FixedAppBar />
        <main className="app-main">
          <Sidebar appBarAlwaysOn>
            <AppMenu />
          </Sidebar>
          <div id="main-content" className="app-content">
            <ErrorBoundary
              onError={(_error, info) => setErrorInfo(info)}
              fallbackRender={({ error, resetErrorBoundary }) => (
                <ErrorPage error={error} errorInfo={errorInfo} resetErrorBoundary={resetErrorBoundary} />
              )}
            >
              <Suspense fallback={<Loading />}>{children}</Suspense>
            </ErrorBoundary>
          </div>
        </main>
      </div>
    </Box>
  );
}
