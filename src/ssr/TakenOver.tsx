import { useEffect, type ReactNode } from 'react';

declare global {
  interface Window {
    /** public/early-clicks.js: the clicks made on the server's page before the takeover. */
    __earlyClicks?: { loaded?: boolean; takenOver?: boolean; release?(): Element[] };
  }
}

/**
 * Wraps the app (a sibling would change the ids of useId, which React derives from the tree's
 * shape, from those the server rendered), and its effect runs after all of the app's: once the
 * page is taken over (hydrated, or rendered by the
 * browser), the clicks held meanwhile (public/early-clicks.js) are replayed on their elements, which
 * a hydration keeps; an element the browser rendered anew is gone, and its click with it. Replayed
 * in a task of their own, after the takeover's effects and the updates they start (the router's
 * and the list's), so that a click on 下一页 is not overtaken by the list settling on its first page.
 */
export function TakenOver({ children }: { children: ReactNode }) {
  useEffect(() => {
    // Told first, so that early-clicks.js, if it arrives only now, holds nothing.
    const early = (window.__earlyClicks ??= {});
    early.takenOver = true;
    const timer = window.setTimeout(() => {
      for (const element of early.release?.() ?? []) {
        if (!element.isConnected) continue;
        // An icon inside a button (SVG) has no click(): the event bubbles to the button all the same.
        if (element instanceof HTMLElement) element.click();
        else element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, view: window }));
      }
    });
    return () => window.clearTimeout(timer);
  }, []);
  return children;
}
