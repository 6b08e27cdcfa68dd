import { useEffect } from 'react';

declare global {
  interface Window {
    /** public/early-clicks.js: the clicks made on the server's page before the takeover. */
    __earlyClicks?: { release(): Element[] };
  }
}

/**
 * Rendered last in the app's tree: once the page is taken over (hydrated, or rendered by the
 * browser), the clicks held meanwhile (public/early-clicks.js) are replayed on their elements, which
 * a hydration keeps; an element the browser rendered anew is gone, and its click with it. Replayed
 * in a task of their own, after the takeover's effects and the updates they start (the router's
 * and the list's), so that a click on 下一页 is not overtaken by the list settling on its first page.
 */
export function TakenOver() {
  useEffect(() => {
    const timer = window.setTimeout(() => {
      for (const element of window.__earlyClicks?.release() ?? []) {
        if (!element.isConnected) continue;
        // An icon inside a button (SVG) has no click(): the event bubbles to the button all the same.
        if (element instanceof HTMLElement) element.click();
        else element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, view: window }));
      }
    });
    return () => window.clearTimeout(timer);
  }, []);
  return null;
}
