// The app in the browser, loaded by main.tsx (the small entry): the page the server rendered is
// taken over, or the app renders itself.
import { CacheProvider } from '@emotion/react';
import { StrictMode, startTransition, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { appRoutes, preloadScreen } from './App';
import { cachedMember, prefillSession } from './authProvider/sessionCache';
import { sendEarly } from './http/early';
import { ServerTitle, ServerTitleContext } from './layout/PageTitle';
import { createProviders, type AppProviders } from './providers';
import { gatherQueryTimers } from './queryTimers';
import { openingQueries } from './screenQueries';
import { replayEarlyClicks } from './ssr/earlyClicks';
import { hydratePageState, readPageState } from './ssr/pageState';
import { browserStyleCache } from './ssr/styleCache';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('#root is missing from index.html');
const root = rootElement;

// The app's modules evaluate in one task, the longest of the takeover (about 200 ms of a
// 4x-throttled CPU). What follows runs in tasks of its own, so that no single one holds the main
// thread as long (a page answers no input during a task): the screen's download (Vite's helper
// inserts a preload link per file of its chunk), the providers and the router, the takeover.
// Timers of a hidden tab may wait; its page is not being looked at.
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve));

void start();

async function start() {
  await nextTask();
  // The screen of the address downloads alongside the session check rather than after it.
  const screenCode = preloadScreen(window.location.pathname);
  await nextTask();

  gatherQueryTimers();
  const providers = createProviders();
  const { authProvider, dataProvider, queryClient } = providers;
  const router = createBrowserRouter(appRoutes(providers));
  await nextTask();
  const pageState = readPageState();
  const app = (
    <StrictMode>
      <CacheProvider value={browserStyleCache()}>
        {/* The title a server-rendered page's app bar shows until hydrated (layout/PageTitle.tsx). */}
        <ServerTitleContext.Provider value={pageState ? new ServerTitle(pageState.title) : undefined}>
          <RouterProvider router={router} />
        </ServerTitleContext.Provider>
      </CacheProvider>
    </StrictMode>
  );

  if (pageState) {
    // The server sent this page rendered (src/ssr): the same components take over its DOM, from
    // the answers it was rendered with, so the first render matches it and asks nothing again.
    // In a transition, React hydrates in slices and gives the browser its main thread between them.
    hydratePageState(queryClient, pageState);
    const member = cachedMember(queryClient);
    if (member) authProvider.rememberMember(member);
    // The screen's code first (its download started above; the page's head does not preload it
    // yet), then a task of its own, not the one that evaluated that code.
    // The frame and the screen are Suspense boundaries (AppLayout, lazyScreen): React takes the
    // page over in a commit for each, rendered in slices, rather than in one commit of the whole
    // page (110-200 ms of a 4x-throttled CPU).
    await screenCode;
    await nextTask();
    startTransition(() => {
      hydrateRoot(
        root,
        <>
          {app}
          <AfterTakeover />
        </>,
      );
    });
    return;
  }
  // The first render waits for the session (already in flight, see main.tsx), so that the layout
  // renders once with the member instead of a loading page and a pass per answer. A visitor
  // without a session gets the login page as before.
  try {
    prefillSession(queryClient, await authProvider.getCurrentMember());
    sendOpeningQueries(dataProvider);
  } catch {
    // No session: the login page.
  }
  // A transition: React renders the app in slices and gives the browser back its main thread
  // between them, instead of one long task (the app shell in index.html shows meanwhile).
  startTransition(() => {
    createRoot(root).render(app);
  });
}

/** Renders nothing; its effect runs once the app bar and the menu are taken over. */
function AfterTakeover() {
  // Clicks made before then were held by the page's inline script (src/ssr/earlyClicks.ts). One
  // on a part still to be taken over (the screen) makes React take that part over at once first,
  // which it cannot do while it runs effects: so in a task of its own.
  useEffect(() => {
    const timer = setTimeout(replayEarlyClicks);
    return () => clearTimeout(timer);
  }, []);
  return null;
}

/**
 * The screen's first lists leave now, while its code downloads; its own first requests take their
 * answers (src/http/early.ts). Only with a session: a refusal kept for later would log out the
 * member who has just logged in.
 */
function sendOpeningQueries(dataProvider: AppProviders['dataProvider']) {
  for (const { resource, query } of openingQueries(window.location.pathname, window.location.search)) {
    const { url, body } = dataProvider.listRequest(resource, query);
    sendEarly(url, body);
  }
}
