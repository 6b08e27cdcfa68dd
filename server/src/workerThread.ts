// Starts one of the server's worker threads by its file's name. The compiled server
// (scripts/build-server.mjs) runs <name>.mjs beside itself; the sources (tsx, vitest) run <name>.ts
// through tsx's loader, registered in the worker (a parent's loader does not reach worker threads on
// Node 20).
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

const FROM_SOURCES = import.meta.url.endsWith('.ts');

/** The worker files, beside this one (server/src, or server/dist once compiled). */
export type WorkerFile = 'richTextWorker' | 'renderWorker' | 'fullTextWorker';

export function startWorkerThread(file: WorkerFile, options: WorkerOptions): Worker {
  const url = new URL(`./${file}.${FROM_SOURCES ? 'ts' : 'mjs'}`, import.meta.url);
  // No flags of the parent (V8 and loader flags are the process's, or do not apply to workers).
  const own = { execArgv: [], ...options };
  if (!FROM_SOURCES) return new Worker(url, own);
  // tsx's ES module API, as its package.json exports it (`tsx/esm/api`, the "import" condition).
  const require = createRequire(import.meta.url);
  const tsxPackage = require.resolve('tsx/package.json');
  const { exports } = require(tsxPackage) as { exports: Record<string, { import?: { default?: string } }> };
  const tsxApi = pathToFileURL(path.join(path.dirname(tsxPackage), exports['./esm/api']!.import!.default!)).href;
  const code = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(code, { ...own, eval: true });
}
