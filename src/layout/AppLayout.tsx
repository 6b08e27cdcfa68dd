import type { ReactNode } from 'react';
import { AppBar, Layout, type AppBarProps } from 'react-admin';
import { AppMenu } from './AppMenu';

/**
 * The app bar stays in place: react-admin's default hides it on scroll, and the scroll watcher
 * reads the page's scroll offset as the layout mounts, forcing a layout of the whole page before
 * its first paint. A back office's title and user menu are as well kept in view.
 */
function FixedAppBar(props: AppBarProps) {
  return <AppBar {...props} alwaysOn />;
}

export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <Layout menu={AppMenu} appBar={FixedAppBar}>
      {children}
    </Layout>
  );
}
