// Debian's Chromium flags, apart from helpers.ts so that scripts outside vitest (npm run bench:ui)
// launch it the same way.

/** Without the networking flags, Chromium stalls on this closed network. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
