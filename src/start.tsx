// The app in the browser, loaded by main.tsx (the small entry): the page the server rendered is
// taken over, or the app renders itself.
import { StrictMode, startTransition, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { appRoutes, preloadScreen } from './App';
import { cachedMember, prefillSession } from './authProvider/sessionCache';
import { takeOverServerPage } from './components/LoadBoundary';
import { sendEarly } from './http/early';
import { ServerTitle, ServerTitleContext } from './layout/PageTitle';
import { createProviders } from './providers';
import { openingQueries } from './screenQueries';
import { replayEarlyClicks } from './ssr/earlyClicks';
import { hydratePageState, readPageState } from './ssr/pageState';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('#root is missing from index.html');
const root = rootElement;

const providers = createProviders();
const { authProvider, dataProvider, queryClient } = providers;
const router = createBrowserRouter(appRoutes(providers));
const pageState = readPageState();
const app = (
  <StrictMode>
    {/* The title a server-rendered page's app bar shows until hydrated (layout/PageTitle.tsx). */}
    <ServerTitleContext.Provider value={pageState ? new ServerTitle(pageState.title) : undefined}>
      <RouterProvider router={router} />
    </ServerTitleContext.Provider>
  </StrictMode>
);

// The screen of the address downloads alongside the session check rather than after it.
const screenCode = preloadScreen(window.location.pathname);

if (pageState) {
  // The server sent this page rendered (src/ssr): the same components take over its DOM, from
  // the answers it was rendered with, so the first render matches it and asks nothing again.
  // In a transition, React hydrates in slices and gives the browser its main thread between them.
  hydratePageState(queryClient, pageState);
  const member = cachedMember(queryClient);
  if (member) authProvider.rememberMember(member);
  // The screen's code first (its download started above; the page's head does not preload it yet):
  // rendered loaded, it needs no Suspense boundary, and the page has none (LoadBoundary).
  void screenCode.then(() => {
    takeOverServerPage();
    startTransition(() => {
      hydrateRoot(
        root,
        <>
          {app}
          <AfterTakeover />
        </>,
      );
    });
  });
} else {
  // The first render waits for the session (already in flight, see main.tsx), so that the layout
  // renders once with the member instead of a loading page and a pass per answer. A visitor
  // without a session gets the login page as before.
  authProvider
    .getCurrentMember()
    .then((member) => {
      prefillSession(queryClient, member);
      sendOpeningQueries();
    })
    .catch(() => undefined)
    .finally(render);
}

/** Renders nothing; its effect runs once the whole page is taken over (the last one of the commit). */
function AfterTakeover() {
  // Clicks made before then were held by the page's inline script (src/ssr/earlyClicks.ts).
  useEffect(replayEarlyClicks, []);
  return null;
}

function render() {
  // A transition: React renders the app in slices and gives the browser back its main thread
  // between them, instead of one long task (the app shell in index.html shows meanwhile).
  startTransition(() => {
    createRoot(root).render(app);
  });
}

/**
 * The screen's first lists leave now, while its code downloads; its own first requests take their
 * answers (src/http/early.ts). Only with a session: a refusal kept for later would log out the
 * member who has just logged in.
 */
function sendOpeningQueries() {
  for (const { resource, query } of openingQueries(window.location.pathname, window.location.search)) {
    const { url, body } = dataProvider.listRequest(resource, query);
    sendEarly(url, body);
  }
}
