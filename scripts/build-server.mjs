// Compiles the server to one JavaScript file (server/dist/server.mjs) for `npm start`: the
// packages stay external (node_modules), only our TypeScript is joined. Running plain JavaScript
// spares the TypeScript loader at run time (some 40 MB of memory and its start-up work).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

await build({
  entryPoints: [path.join(root, 'server/src/server.ts')],
  outdir: path.join(root, 'server/dist'),
  outExtension: { '.js': '.mjs' },
  // Dynamic imports (the S3 driver and its SDK) stay chunks of their own, loaded only when used.
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
