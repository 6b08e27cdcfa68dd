// The app: react-admin's Admin over the declared screens (SCREENS of schemas/index.ts). A screen at
// `/${resource}` is that resource's list; any other keeps its own path (the legacy product's).
import { Admin, CustomRoutes, Notification, Resource } from 'react-admin';
import { Route } from 'react-router-dom';
import { SCREENS, type Screen } from '../schemas/index';
import { NoAccess } from './access/NoAccess';
import { i18nProvider } from './i18n/index';
import { AppLayout } from './layout/AppLayout';
import { Dashboard } from './layout/Dashboard';
import { LoginPage } from './layout/LoginPage';
import { NotFound } from './layout/NotFound';
import { APP_TITLE } from './navigation';
import type { Providers } from './providers';
import { screenElement } from './screens';
import { theme } from './theme';

const isResourceList = (screen: Screen) => screen.path === `/${screen.resource}`;

const resources = SCREENS.filter(isResourceList).map((screen) => (
  <Resource key={screen.resource} name={screen.resource} list={screenElement(screen)} options={{ label: screen.label }} />
));

const routes = SCREENS.filter((screen) => !isResourceList(screen)).map((screen) => (
  <Route key={screen.path} path={screen.path} element={screenElement(screen)} />
));

/**
 * Messages at the top centre, as back offices show them: react-admin's default, the bottom centre,
 * lies over the buttons of a dialog as tall as the window.
 */
function TopNotification() {
  return <Notification anchorOrigin={{ vertical: 'top', horizontal: 'center' }} />;
}

/**
 * Rendered by a data router (main.tsx in the browser, ssr/render.tsx on the server) rather than
 * react-admin's own: the legacy paths are real URLs, and react-admin's blockers (unsaved-changes
 * warnings) need a data router.
 */
export function App({ dataProvider, authProvider, queryClient, store }: Providers) {
  return (
    <Admin
      title={APP_TITLE}
      dataProvider={dataProvider}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      queryClient={queryClient}
      store={store}
      theme={theme}
      layout={AppLayout}
      loginPage={LoginPage}
      dashboard={Dashboard}
      accessDenied={NoAccess}
      catchAll={NotFound}
      notification={TopNotification}
      // Not requireAuth: the layout then renders at once, while the session is asked for, rather
      // than after it. Every screen waits for the member (RequireModule), and a refused session
      // (401) logs out to the login page (authProvider.checkError), as the server checks every call.
      disableTelemetry
    >
      {resources}
      <CustomRoutes>{routes}</CustomRoutes>
    </Admin>
  );
}
