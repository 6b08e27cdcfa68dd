import { Suspense, useLayoutEffect, useState, type ReactNode } from 'react';

// While the browser takes over a page the server rendered, React leaves each Suspense boundary of
// the page dehydrated and hydrates it later, in a pass of its own. An update that reaches such a
// boundary before then (a state change above it: react-admin's Admin rebuilt its routes after
// mount) makes React hydrate all of it at once, in one long synchronous task: the page stops
// answering for as long.
// The frame and the screen need no boundary while being taken over, because the screen's code is
// loaded before hydration starts (start.tsx) and the server renders it loaded. So these boundaries
// leave no marker in the server's HTML and exist only where the browser mounts them afterwards
// (a screen opened later, or a page the browser renders itself).

/** On the server, and in the browser from `takeOverServerPage` until that render commits. */
let takingOver = typeof document === 'undefined';

/** Call before hydrating a page the server rendered (with the screen's code loaded). */
export function takeOverServerPage(): void {
  takingOver = true;
}

/** A Suspense boundary, except in a page rendered by the server and taken over by the browser. */
export function LoadBoundary({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  // Decided once per instance: the element tree must stay the same for the life of the instance.
  const [bounded] = useState(() => !takingOver);
  useLayoutEffect(() => {
    takingOver = false;
  }, []);
  return bounded ? <Suspense fallback={fallback}>{children}</Suspense> : children;
}
