// The entry, kept small: it sends what can leave at once, then loads the app (start.tsx).
//
// Why small: module scripts evaluate their whole graph in one task, about 1 MB of code here. On a
// page the server rendered (src/ssr), that code, preloaded by the page's head, downloaded alongside
// the page and evaluated before its first paint, holding back text that the HTML already had. Such
// a page now comes without those preloads (server/src/http/pages.ts), and the app is loaded once
// the page has painted; clicks made before the takeover are held and replayed
// (src/ssr/earlyClicks.ts). A page the browser renders itself loads the app at once (preloaded).
// This module imports nothing heavy: only the small helper that sends a request early.
import { sendEarly } from './http/early';

// The id of ssr/pageState.ts's PAGE_STATE_ID, written here (that module imports react-query).
const serverRendered = document.getElementById('ssr-state') !== null;

const loadApp = () => import('./start');

if (serverRendered) {
  // A page the server rendered carries its session already: nothing to ask. A hidden tab (opened
  // in the background) paints nothing, and requestAnimationFrame waits there until it is shown.
  if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(loadApp));
  else void loadApp();
} else {
  // The session request leaves before the app's code evaluates; its answer is in when the app
  // first asks for it (src/http/early.ts).
  sendEarly('/Ajax/GetCurrentMember', '{}');
  void loadApp();
}
