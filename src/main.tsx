// './boot' first: it sends the session request before the libraries below evaluate.
import './boot';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { appRoutes, preloadScreen } from './App';
import { cachedMember, prefillSession } from './authProvider/sessionCache';
import { sendEarly } from './http/early';
import { createProviders } from './providers';
import { openingQueries } from './screenQueries';
import { hydratePageState, readPageState } from './ssr/pageState';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('#root is missing from index.html');
const root = rootElement;

const providers = createProviders();
const { authProvider, dataProvider, queryClient } = providers;
const router = createBrowserRouter(appRoutes(providers));
const app = (
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>
);

// The screen of the address downloads alongside the session check rather than after it.
void preloadScreen(window.location.pathname);

const pageState = readPageState();
if (pageState) {
  // The server sent this page rendered (src/ssr): the same components take over its DOM, from
  // the answers it was rendered with, so the first render matches it and asks nothing again.
  // In a transition, React hydrates in slices and gives the browser its main thread between them.
  hydratePageState(queryClient, pageState);
  const member = cachedMember(queryClient);
  if (member) authProvider.rememberMember(member);
  startTransition(() => {
    hydrateRoot(root, app);
  });
} else {
  // The first render waits for the session (already in flight, see boot.ts), so that the layout
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
