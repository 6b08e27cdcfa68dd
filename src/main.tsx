// './boot' first: it sends the session request before the libraries below evaluate.
import './boot';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadScreen } from './App';
import { prefillSession } from './authProvider/sessionCache';
import { sendEarly } from './http/early';
import { authProvider, dataProvider, queryClient } from './providers';
import { openingQueries } from './screenQueries';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('#root is missing from index.html');
const root = rootElement;

// The screen of the address downloads alongside the session check rather than after it.
preloadScreen(window.location.pathname);

function render() {
  // A transition: React renders the app in slices and gives the browser back its main thread
  // between them, instead of one long task (the app shell in index.html shows meanwhile).
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}

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
