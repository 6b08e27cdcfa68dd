import { StrictMode, startTransition } from 'react';
import { hydrate } from '@tanstack/react-query';
import { createRoot, hydrateRoot } from 'react-dom/client';
import './start/afterReact';
import { localStorageStore } from 'react-admin';
import './start/afterLibraries';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { App } from './App';
import { preloadParts } from './components/lazyPart';
import { fetchJson } from './http/index';
import { createProviders } from './providers';
import { preloadScreen } from './screens';
import { pageSession, readPageState, storeMatches } from './ssr/pageState';
import { TakenOver } from './ssr/TakenOver';
import { nextTask } from './start/nextTask';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

/** How long the answers a page rendered by the server carries count as fresh. */
const SERVER_ANSWERS_FRESH_MS = 10_000;

/**
 * The start goes on in steps after the code's evaluation (itself in steps: start/afterReact.ts):
 * done in the task that evaluates the app's code, they would lengthen the longest task of the load
 * by about half again.
 */
async function start(container: HTMLElement): Promise<void> {
  // First the code of the screen at this address, which has the furthest to come, then the parts
  // of it the server's page shows (a date picker, a tree).
  await nextTask();
  const page = readPageState();
  const screenCode = preloadScreen(window.location.pathname).then(() => preloadParts(page?.parts ?? []));

  await nextTask();
  const providers = createProviders(localStorageStore(), fetchJson, pageSession(page));
  // The answers a page rendered by the server was rendered with: the takeover renders from them,
  // without asking for them again as its components mount.
  if (page) {
    // Current as the page arrives, however long ago it was rendered: the server sends a page it kept
    // only while nothing has changed since (server/src/http/pages.ts). Timed by the server's render,
    // a kept page's answers would look stale and be asked for again at once.
    const arrived = Date.now();
    for (const query of page.queries.queries) query.state.dataUpdatedAt = arrived;
    hydrate(providers.queryClient, page.queries);
    for (const { queryKey } of page.queries.queries) providers.queryClient.setQueryDefaults(queryKey, { staleTime: SERVER_ANSWERS_FRESH_MS });
  }
  // On a page the server did not render, the session, alongside the screen's code (our
  // authProvider keeps the answer for react-admin and for useMember; on a page sent without a
  // session it answers at once, without asking).
  const session = page ? undefined : providers.authProvider.getCurrentMember().catch(() => undefined);

  await nextTask();
  const router = createBrowserRouter([{ path: '*', element: <App {...providers} /> }]);
  const app = (
    <StrictMode>
      <TakenOver>
        <RouterProvider router={router} />
      </TakenOver>
    </StrictMode>
  );

  // Renders are transitions: React renders the page in slices and gives the browser its main thread
  // between them, not in one long task. A page the server rendered is taken over (hydrated) once its
  // screen's code is there, unless this browser's store (sidebar, list settings) differs from what
  // the server assumed: then the browser renders it anew. Otherwise the first render waits for the
  // session and the code (index.html's shell shows meanwhile): with the member known, the screen
  // renders at once and asks for its rows.
  await Promise.all([session, screenCode]);
  startTransition(() => {
    if (page && storeMatches(providers.store, page.store)) hydrateRoot(container, app);
    else createRoot(container).render(app);
  });
}

void start(root);
