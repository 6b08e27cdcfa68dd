import type { ComponentType } from 'react';
import { CssBaseline } from '@mui/material';
import {
  AdminContext,
  AuthenticationError,
  DefaultTitleContextProvider,
  Error as ErrorPage,
  HasDashboardContextProvider,
  LoadingPage,
  LogoutOnMount,
  NotFound,
  Notification,
  Resource,
  ResourceDefinitionContextProvider,
  useAuthState,
  useScrollToTop,
  type RaThemeOptions,
  type ResourceProps,
} from 'react-admin';
import { ErrorBoundary } from 'react-error-boundary';
import { Route, Routes, type RouteObject } from 'react-router-dom';
import { NoAccess } from './access/NoAccess';
import { RequireModule } from './access/RequireModule';
import type { ScreenModule } from './access/useMember';
import { i18nProvider } from './i18n/index';
import { AppLayout } from './layout/AppLayout';
import { Dashboard } from './layout/Dashboard';
import { LoginPage } from './layout/LoginPage';
import type { LazyPart } from './components/lazyPart';
import { lazyScreen } from './lazyScreen';
import { PATHS } from './navigation';
import type { AppProviders } from './providers';
import { theme as appTheme } from './theme';

const VideoTypeList = lazyScreen(() => import('./resources/videoType/VideoTypeList'));
const UsewebList = lazyScreen(() => import('./resources/useweb/UsewebList'));
const MemberList = lazyScreen(() => import('./resources/member/MemberList'));
const AuditLogList = lazyScreen(() => import('./resources/auditLog/AuditLogList'));
const ClassifyManage = lazyScreen(() => import('./resources/classify/ClassifyManage'));
const VideoEditScreen = lazyScreen(() => import('./resources/video/VideoList'));
const VideoViewScreen = lazyScreen(() => import('./resources/videoView/VideoViewList'));
const VideoDetailsScreen = lazyScreen(() => import('./resources/videoView/VideoDetails'));
const ArticleCatalogueScreen = lazyScreen(() => import('./resources/article/ArticleCatalogue'));
const ArticleManageScreen = lazyScreen(() => import('./resources/article/ArticleManage'));
const TykjScreen = lazyScreen(() => import('./resources/tykj/TykjView'));
const TykjManageScreen = lazyScreen(() => import('./resources/tykj/TykjManage'));

/** Each screen's path prefix and its screen, the longest prefixes first. */
const SCREENS_BY_PATH: [string, LazyPart<never>][] = (
  [
    [PATHS.videoType, VideoTypeList],
    [PATHS.useweb, UsewebList],
    [PATHS.member, MemberList],
    [PATHS.auditLog, AuditLogList],
    [PATHS.articleClassify, ClassifyManage],
    [PATHS.tykjClassify, ClassifyManage],
    [PATHS.video, VideoEditScreen],
    [PATHS.videoView, VideoViewScreen],
    [PATHS.videoDetails, VideoDetailsScreen],
    [PATHS.articleCatalogue, ArticleCatalogueScreen],
    [PATHS.articleManage, ArticleManageScreen],
    [PATHS.tykj, TykjScreen],
    [PATHS.tykjManage, TykjManageScreen],
  ] as [string, LazyPart<never>][]
).sort((a, b) => b[0].length - a[0].length);

/**
 * Starts the download of the screen the address opens, alongside the session check rather than
 * after it (a deep link or a reload would otherwise wait for one more round trip).
 */
export function preloadScreen(pathname: string): Promise<unknown> {
  const hit = SCREENS_BY_PATH.find(([prefix]) => pathname === prefix || pathname.startsWith(`${prefix}/`));
  // A failed download shows the error page when the screen renders; the next preload retries it.
  return hit ? hit[1].preload().catch(() => undefined) : Promise.resolve();
}

/** A screen behind its module's view permission: a deep link without it shows 无权限. */
function guarded(module: ScreenModule, Screen: ComponentType): ComponentType {
  function Guarded() {
    return (
      <RequireModule module={module}>
        <Screen />
      </RequireModule>
    );
  }
  return Guarded;
}

const VideoTypeScreen = guarded('videoType', VideoTypeList);
const UsewebScreen = guarded('useweb', UsewebList);
const MemberScreen = guarded('admin', MemberList);
const AuditLogScreen = guarded('admin', AuditLogList);
const VideoScreen = guarded('video', VideoEditScreen);
const VideoViewPage = guarded('videoView', VideoViewScreen);
const VideoDetailsPage = guarded('videoView', VideoDetailsScreen);
const CataloguePage = guarded('article', ArticleCatalogueScreen);
const ArticleManagePage = guarded('article', ArticleManageScreen);
const TykjPage = guarded('tykj', TykjScreen);
const TykjManagePage = guarded('tykj', TykjManageScreen);
const ArticleClassifyPage = guarded('classify', () => <ClassifyManage service="article" />);
const TykjClassifyPage = guarded('classify', () => <ClassifyManage service="tykj" />);

/** react-admin's resources: their list screens, and their definitions for the menu and links. */
const RESOURCES: ResourceProps[] = [
  { name: 'video', list: VideoScreen, options: { label: '视频学习编辑' } },
  { name: 'videoType', list: VideoTypeScreen, options: { label: '视频分类' } },
  { name: 'useweb', list: UsewebScreen, options: { label: '常用网站管理' } },
  { name: 'member', list: MemberScreen, options: { label: '成员管理' } },
  { name: 'auditLog', list: AuditLogScreen, options: { label: '操作日志' } },
];

/**
 * Registered before the first render. react-admin's `Admin` registers them in an effect after
 * mount; each registration re-renders everything that reads them, the whole page included.
 */
const RESOURCE_DEFINITIONS = Object.fromEntries(RESOURCES.map((props) => [props.name, Resource.registerResource(props)]));

/**
 * The signed-in part: the layout around the screens. Routes of our own rather than react-admin's
 * `CoreAdminRoutes`, which copies its routes into state in an effect after mount and so renders the
 * whole page a second time as soon as it is shown (or, on a page the server rendered, while the
 * browser is still taking it over).
 */
function SignedIn() {
  useScrollToTop();
  const { authenticated, isPending } = useAuthState(undefined, false);
  if (isPending) return <LoadingPage />;
  if (!authenticated) return <LogoutOnMount />;
  return (
    <HasDashboardContextProvider value>
      <AppLayout>
        <Routes>
          {/* The legacy product's paths, real deep links (a browser router, not a hash). */}
          <Route path={PATHS.videoView} element={<VideoViewPage />} />
          <Route path={PATHS.videoDetails} element={<VideoDetailsPage />} />
          <Route path={PATHS.articleCatalogue} element={<CataloguePage />} />
          <Route path={PATHS.articleManage} element={<ArticleManagePage />} />
          <Route path={PATHS.articleClassify} element={<ArticleClassifyPage />} />
          <Route path={`${PATHS.articleClassify}/:type`} element={<ArticleClassifyPage />} />
          <Route path={PATHS.tykj} element={<TykjPage />} />
          <Route path={PATHS.tykjManage} element={<TykjManagePage />} />
          <Route path={PATHS.tykjClassify} element={<TykjClassifyPage />} />
          {RESOURCES.map((props) => (
            <Route key={props.name} path={`${props.name}/*`} element={<Resource {...props} />} />
          ))}
          <Route path="/" element={<Dashboard />} />
          <Route path="/authentication-error" element={<AuthenticationError />} />
          <Route path="/access-denied" element={<NoAccess />} />
          <Route path="*" element={<NotFound />} />
        </Routes>
      </AppLayout>
    </HasDashboardContextProvider>
  );
}

/** react-admin's providers and UI parts (as its `Admin` puts them), around our own routes. */
function AdminApp({ dataProvider, authProvider, queryClient, store, theme }: AppProviders & { theme: RaThemeOptions }) {
  return (
    <AdminContext
      dataProvider={dataProvider}
      authProvider={authProvider}
      queryClient={queryClient}
      store={store}
      i18nProvider={i18nProvider}
      theme={theme}
    >
      <ResourceDefinitionContextProvider definitions={RESOURCE_DEFINITIONS}>
        <CssBaseline enableColorScheme>
          <DefaultTitleContextProvider value="知识学习后台">
            <ErrorBoundary fallbackRender={({ error, resetErrorBoundary }) => <ErrorPage error={error} resetErrorBoundary={resetErrorBoundary} />}>
              <Routes>
                <Route path="/login" element={<LoginPage />} />
                <Route path="/*" element={<SignedIn />} />
              </Routes>
            </ErrorBoundary>
          </DefaultTitleContextProvider>
        </CssBaseline>
        <Notification />
      </ResourceDefinitionContextProvider>
    </AdminContext>
  );
}

/**
 * The app's routes for a data router (not react-admin's default hash router): the legacy paths are
 * real URLs, and react-admin's blockers (unsaved-changes warnings) need a data router. The browser
 * makes a browser router of them (start.tsx), the server a static one (src/ssr).
 */
export function appRoutes(providers: AppProviders, theme: RaThemeOptions = appTheme): RouteObject[] {
  return [{ path: '*', element: <AdminApp {...providers} theme={theme} /> }];
}
