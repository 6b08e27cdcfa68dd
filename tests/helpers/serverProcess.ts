// Starts the real server as its own process (`node --import tsx server/src/server.ts`), as it runs
// in production: several of them on one database for the scale-out test, one for the upload
// benchmark, which reads the memory of exactly this process (node itself, no npx or tsx wrapper).
// One process unless the test sets WORKERS: then it is the cluster's primary (workerPids).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServerProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** What the process wrote to stdout so far (start-up messages). */
  stdout(): string;
  /** What the process wrote to stderr so far (for failure messages). */
  stderr(): string;
  /** SIGTERM (the server closes cleanly), then SIGKILL if it lingers. */
  stop(): Promise<void>;
}

/**
 * Starts one server process with `env` over a clean environment; resolves once it listens (a
 * cluster: once every worker listens). `built`: run the compiled server/dist/server.mjs of
 * `npm start` (scripts/build-server.mjs) instead of the sources through tsx. `cwd`: another copy
 * of the repository to run the server from. `nodeArgs`: more flags for node (a profiler's).
 */
export async function startServerProcess(
  env: Record<string, string>,
  timeoutMs = 150_000,
  options: { built?: boolean; cwd?: string; nodeArgs?: string[] } = {},
): Promise<ServerProcess> {
  // The built server with the V8 flag of `npm start` (package.json): a 4 MB young generation.
  const entry = [...(options.nodeArgs ?? []), ...(options.built ? ['--max-semi-space-size=4', 'server/dist/server.mjs'] : ['--import', 'tsx', 'server/src/server.ts'])];
  const child = spawn(process.execPath, entry, {
    cwd: options.cwd ?? ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG: '0',
      DEMO_DATA: '0',
      // One process, as the tests and figures that use this helper expect, unless they ask for more.
      WORKERS: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within ${timeoutMs} ms\n${err}`)), timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      // server.ts prints the address it bound once it listens.
      const found = /知识学习后台: (http:\/\/[^\s/]+)\//.exec(out);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before listening\n${err}`));
    });
  });
  // A server that dies under a test leaves only "fetch failed" in the test: say why it died.
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`server process ${child.pid} exited (${code ?? signal}) during the test; its stderr:\n${err.slice(-4000)}`);
  });
  return {
    url,
    pid: child.pid!,
    child,
    stdout: () => out,
    stderr: () => err,
    async stop() {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The pids of a process's children (a cluster primary's workers), from /proc (Linux). */
export function workerPids(pid: number): number[] {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** Resident memory of a process in MB (VmRSS of /proc/<pid>/status); undefined once it is gone. */
export function rssMb(pid: number): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}
