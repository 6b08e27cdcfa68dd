// Builds the admin app when dist/index.html is missing or older than any of its sources, so that
// `npm install && npm start` alone serves a working admin.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const output = path.join(root, 'dist', 'index.html');
const sources = ['src', 'schemas', 'index.html', 'vite.config.ts', 'package.json', 'package-lock.json'];

function newest(p) {
  let stat;
  try {
    stat = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) {
    // Unit specs and test helpers are not part of the bundle.
    if (/\.spec\.tsx?$/.test(entry)) continue;
    latest = Math.max(latest, newest(path.join(p, entry)));
  }
  return latest;
}

const built = fs.existsSync(output) ? fs.statSync(output).mtimeMs : 0;
const latestSource = Math.max(...sources.map((s) => newest(path.join(root, s))));

if (built >= latestSource) {
  console.log('admin app is up to date (dist/)');
} else {
  console.log(built ? 'sources changed since the last build: rebuilding the admin app…' : 'building the admin app (about a minute)…');
  const started = Date.now();
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  // Vite's report (some 200 lines) is shown only when the build fails or BUILD_LOG=1 asks for it:
  // the start's own lines (the address, the passwords) stay on the first screen.
  const verbose = ['1', 'true', 'yes', 'on'].includes((process.env.BUILD_LOG ?? '').toLowerCase());
  const stdio = verbose ? 'inherit' : ['ignore', 'pipe', 'pipe'];
  // The app for the browser, then the server's render of it (vite.config.ts).
  const build = (args) => spawnSync(process.execPath, [vite, 'build', ...args], { cwd: root, stdio, maxBuffer: 256 * 1024 * 1024 });
  let result = build([]);
  if (result.status === 0) result = build(['--ssr', 'src/ssr/render.tsx']);
  if (result.status !== 0) {
    if (!verbose) process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    console.error('the admin app failed to build; see the messages above');
    process.exit(result.status ?? 1);
  }
  console.log(`admin app built in ${Math.round((Date.now() - started) / 1000)} s (BUILD_LOG=1 shows the build's report)`);
}
