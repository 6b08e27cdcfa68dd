// The app's start goes in steps, each a task of its own, so that the browser may paint, scroll and
// take a click between them rather than wait for one long task (docs/performance.md, "The start in
// steps").

/** Resolves in a task of its own, after whatever the browser has waiting. */
export const nextTask = (): Promise<void> => new Promise<void>((resolve) => setTimeout(resolve, 0));
