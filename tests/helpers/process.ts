// The server as its own process (node --import tsx, so the child's pid is the server itself), for
// tests that kill it, restart it on the same DATA_DIR, or run a script beside it.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { ADMIN_PASSWORD, Client } from './server';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Everything the server wrote to stderr (a crash shows here). */
  stderr(): string;
  admin(): Promise<Client>;
  /** Resolves with the exit code or signal once the process is gone. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM (clean close) and wait. */
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export async function spawnServer(dataDir: string, env: Record<string, string> = {}, port?: number): Promise<ServerProcess> {
  const listenPort = port ?? (await freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      // Embedded SQLite and local files unless the test says otherwise.
      DATABASE_URL: '',
      STORAGE: 'local',
      DATA_DIR: dataDir,
      PORT: String(listenPort),
      ADMIN_PASSWORD,
      DEMO_DATA: '0',
      LOG: '0',
      PUBLIC_DIR: path.join(dataDir, 'no-public'),
      // One process: the pid is the server that tests kill and restart.
      WORKERS: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('http://')) resolve();
    });
    void exited.then(({ code, signal }) => reject(new Error(`server exited (${code ?? signal}) before listening: ${err}`)));
  });
  const url = `http://127.0.0.1:${listenPort}`;
  return {
    url,
    pid: child.pid!,
    child,
    stderr: () => err,
    exited,
    async admin() {
      const c = new Client(url);
      await c.login('admin', ADMIN_PASSWORD);
      return c;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Runs a script of scripts/ with tsx and returns its exit code and output. */
export async function runScript(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  return { code, stdout, stderr };
}
