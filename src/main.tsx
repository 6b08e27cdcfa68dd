import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { SCREENS } from '../schemas/index';
import { App } from './App';
import { authProvider } from './providers';
import { preloadScreen } from './screens';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

// Both leave at once: the session (our authProvider keeps the answer for react-admin and for
// useMember) and the code of the screen at this address.
const session = authProvider.getCurrentMember().catch(() => undefined);
const screenCode = preloadScreen(SCREENS, window.location.pathname);

const router = createBrowserRouter([{ path: '*', element: <App /> }]);

// The first render waits for both (the app shell of index.html shows meanwhile): with the member
// known, the screen renders in it and asks for its rows at once; a screen whose code is missing
// shows its fallback, and React then holds the screen back for 300 ms after the fallback
// appeared, however soon the code arrives. It is a transition: React renders the page in slices
// and gives the browser its main thread between them, not in one long task.
void Promise.all([session, screenCode]).then(() =>
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <RouterProvider router={router} />
      </StrictMode>,
    ),
  ),
);
