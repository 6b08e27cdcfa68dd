// Clicks made on a page the server rendered before the browser has taken it over.
//
// Why: such a page shows its buttons and links at once, but they answer only once React has
// hydrated them, after the app's code has downloaded and evaluated (a second or more on a slow
// phone). React replays a click itself only from `hydrateRoot` on; one made before was simply lost
// (添加 clicked at once did nothing). So a small inline script, which the server puts in front of
// the rendered page, holds the clicks made inside #root; once the page is taken over, the app
// dispatches them again on the same elements (hydration keeps the server's DOM nodes), in order.
// A node the takeover replaced (a page React had to render anew) no longer gets its click.
//
// Plain JavaScript in a string: the server writes exactly this text into the page and allows it
// by its hash in the Content-Security-Policy (server/src/plugins/security.ts), which still allows
// no other inline script. This module imports nothing: the server's bundle includes it too.

/** The window property through which the app takes the held clicks (and stops the holding). */
const TAKE = '__takeEarlyClicks';

/** The inline script's source. */
export const EARLY_CLICKS_SCRIPT =
  '(function(){var held=[];' +
  'function hold(e){var root=document.getElementById("root");' +
  'if(!root||!(e.target instanceof Node)||!root.contains(e.target))return;' +
  'e.preventDefault();e.stopImmediatePropagation();held.push(e)}' +
  'document.addEventListener("click",hold,true);' +
  `window.${TAKE}=function(){document.removeEventListener("click",hold,true);delete window.${TAKE};return held}})()`;

declare global {
  interface Window {
    [TAKE]?: () => MouseEvent[];
  }
}

/**
 * Stops holding clicks and dispatches the held ones again, each on its own element if it is still
 * in the page. Call once the page is taken over (its handlers are attached); nothing happens on a
 * page without the script.
 */
export function replayEarlyClicks(): void {
  const held = window[TAKE]?.() ?? [];
  for (const click of held) {
    const target = click.target;
    if (!(target instanceof Node) || !target.isConnected) continue;
    // The same kind of click: the modifier keys matter to links (a new tab) and to selections.
    target.dispatchEvent(
      new MouseEvent('click', {
        bubbles: true,
        cancelable: true,
        composed: true,
        view: window,
        detail: click.detail,
        screenX: click.screenX,
        screenY: click.screenY,
        clientX: click.clientX,
        clientY: click.clientY,
        ctrlKey: click.ctrlKey,
        shiftKey: click.shiftKey,
        altKey: click.altKey,
        metaKey: click.metaKey,
        button: click.button,
      }),
    );
  }
}
