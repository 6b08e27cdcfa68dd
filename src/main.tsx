import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadScreen } from './App';
import { authProvider } from './providers';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

// Both requests leave now, before React's first render: the session (react-admin asks for it
// first; the answer is cached, a failure is not) and the screen of the address.
authProvider.getCurrentMember().catch(() => undefined);
preloadScreen(window.location.pathname);

// A transition: React renders the app in slices and gives the browser back its main thread
// between them, instead of one long task (the app shell in index.html shows meanwhile).
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
