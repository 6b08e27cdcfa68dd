// Compiles the server to JavaScript (server/dist/server.mjs and its worker) for `npm start`: the
// packages stay external (node_modules), only our TypeScript is joined. Running plain JavaScript
// spares the TypeScript loader at run time (some 40 MB of memory and its start-up work).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

await build({
  // The worker threads are files of their own, started from beside the server (workerThread.ts):
  // server/dist/richTextWorker.mjs, renderWorker.mjs and fullTextWorker.mjs; code they share goes into a shared chunk.
  entryPoints: ['server.ts', 'richTextWorker.ts', 'renderWorker.ts', 'fullTextWorker.ts'].map((file) => path.join(root, 'server/src', file)),
  outdir: path.join(root, 'server/dist'),
  outExtension: { '.js': '.mjs' },
  // Dynamic imports stay chunks of their own, loaded only when used: the S3 driver and its SDK, and
  // the app itself (server/src/cluster.ts), which a cluster's primary never builds.
  // Its workers run this same server.mjs (Node's cluster forks the entry file).
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
