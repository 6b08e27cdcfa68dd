// The built admin app (`npm run build`) for tests of the pages the server renders: dist/, or the
// build APP_DIST names, as for the browser tests (tests/browser/helpers.ts).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const APP_DIST = process.env.APP_DIST ? path.resolve(process.env.APP_DIST) : path.join(REPO, 'dist');

/** Fails with what to run when the build or its server render is missing. */
export function requireServerRender(): string {
  if (!fs.existsSync(path.join(APP_DIST, '.ssr', '.vite', 'manifest.json'))) {
    throw new Error(`The server render is not built (${APP_DIST}/.ssr is missing): run \`npm run build\` first.`);
  }
  return APP_DIST;
}
