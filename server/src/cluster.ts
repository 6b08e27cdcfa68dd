// How the server runs: one process (WORKERS=1), or a cluster of workers (Node's cluster module).
//
// The primary does the start-up work that must happen once (migrations, the built-in administrator
// and demo data, printing their generated passwords: bootstrap.ts) and then forks the workers. They
// build the app without redoing it and share the socket the primary listens on, which hands each new
// connection to the next worker. One worker at a time removes stale uploads and past login-limit
// rows (config.housekeeping).
// The primary replaces a worker that dies and logs it. SIGTERM or SIGINT to the primary (a terminal
// also sends it to the workers) makes every worker close its app: it stops accepting connections and
// finishes the requests and uploads in flight, for at most DRAIN_TIMEOUT_MS; then all exit.
import cluster, { type Worker } from 'node:cluster';
import type { FastifyInstance } from 'fastify';
import type { Readable } from 'node:stream';
import { generatedPasswordsBlock, runStartupWork, type StartupResult } from './bootstrap';
import type { Config } from './config';

/** Longest wait at a stop for the requests in flight (a large upload among them); then the process exits anyway. */
export const DRAIN_TIMEOUT_MS = 30_000;
/** The primary gives its workers a little more, then kills those left. */
const PRIMARY_GRACE_MS = DRAIN_TIMEOUT_MS + 5_000;
/** Set by the primary in the environment of the worker that removes stale uploads. */
const HOUSEKEEPING_ENV = 'ZHISHI_HOUSEKEEPING';
/** Response header naming the worker that answered: its number in the cluster, nothing about the host. */
export const WORKER_HEADER = 'x-worker';
/** A worker that dies sooner than this after its fork counts as failing: its replacement waits, longer each time. */
const QUICK_EXIT_MS = 10_000;
const MAX_RESTART_DELAY_MS = 30_000;

interface ListeningMessage {
  zhishi: 'listening';
  address: string;
}

const isListening = (message: unknown): message is ListeningMessage =>
  typeof message === 'object' && message !== null && (message as ListeningMessage).zhishi === 'listening';

/** The line tests and benchmarks read the address from: printed once, when the server answers. */
const addressLine = (address: string) => `知识学习后台: ${address}/  (API docs: /docs)`;

/** The address, and below it the passwords made up at this start: the last lines of a start. */
const printReady = (address: string, startup: StartupResult) => console.log(addressLine(address) + generatedPasswordsBlock(startup));

/** A worker's output longer than this without a line end is passed on as it is. */
const MAX_PARTIAL_LINE = 64 * 1024;

/**
 * Passes a worker's output on in whole lines. Workers that wrote to the terminal themselves would
 * splice their lines together when two write at once (a pipe keeps only short writes whole).
 */
export function relayWholeLines(from: Readable | null, to: NodeJS.WritableStream): void {
  if (!from) return;
  let partial = '';
  from.setEncoding('utf8');
  from.on('data', (chunk: string) => {
    const text = partial + chunk;
    const end = text.length > MAX_PARTIAL_LINE ? text.length : text.lastIndexOf('\n') + 1;
    partial = text.slice(end);
    if (end > 0) to.write(text.slice(0, end));
  });
  from.on('end', () => {
    if (partial) to.write(`${partial}\n`);
  });
}

/** One process: builds the app with its start-up work, prints the passwords it made up, listens. */
export async function runSingle(config: Config): Promise<void> {
  const { buildApp } = await import('./app');
  const built = await buildApp(config);
  stopOnSignal(built.app);
  // The address actually bound (PORT=0 picks a free port).
  const address = await built.app.listen({ port: config.port, host: config.host });
  printReady(address, built);
}

/** A worker of the cluster: the app without the start-up work, on the primary's socket. */
export async function runWorker(config: Config): Promise<void> {
  const id = cluster.worker!.id;
  // Loaded here, not at the top: the primary never builds an app and need not load its code.
  const { buildApp } = await import('./app');
  const { app } = await buildApp({ ...config, startupWork: false, housekeeping: process.env[HOUSEKEEPING_ENV] === '1' });
  // Before Fastify's own listener, so that every answer (errors and files included) carries it.
  app.server.prependListener('request', (_request, response) => response.setHeader(WORKER_HEADER, String(id)));
  stopOnSignal(app);
  const address = await app.listen({ port: config.port, host: config.host });
  process.send!({ zhishi: 'listening', address } satisfies ListeningMessage);
}

/** Closes the app on SIGTERM or SIGINT (requests in flight finish, at most DRAIN_TIMEOUT_MS), then exits. */
function stopOnSignal(app: FastifyInstance): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    // A second signal (the primary forwards what a terminal already sent the whole group) changes nothing.
    if (stopping) return;
    stopping = true;
    const timer = setTimeout(() => {
      console.error(`请求未能在 ${DRAIN_TIMEOUT_MS / 1000} 秒内完成，强制退出 (requests still open after ${DRAIN_TIMEOUT_MS / 1000} s; exiting) pid ${process.pid}`);
      process.exit(1);
    }, DRAIN_TIMEOUT_MS);
    app.close().then(
      () => {
        clearTimeout(timer);
        process.exit(0);
      },
      (err: unknown) => {
        console.error(`关闭失败 (close failed on ${signal})`, err);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

interface WorkerState {
  housekeeping: boolean;
  forkedAt: number;
  listening: boolean;
}

/** The primary: start-up work once, then `config.workers` workers, kept at that number until a stop. */
export async function runPrimary(config: Config): Promise<void> {
  const startup = await runStartupWork(config);
  // Workers write through the primary (relayWholeLines), never straight to the terminal.
  cluster.setupPrimary({ silent: true });

  const workers = new Map<Worker, WorkerState>();
  let announced = false;
  let stopping = false;
  let failedStart = false;
  /** Workers in a row that died soon after their fork (a database down, a broken deployment). */
  let quickExits = 0;

  const fork = (housekeeping: boolean) => {
    const worker = cluster.fork({ [HOUSEKEEPING_ENV]: housekeeping ? '1' : '0' });
    relayWholeLines(worker.process.stdout, process.stdout);
    relayWholeLines(worker.process.stderr, process.stderr);
    workers.set(worker, { housekeeping, forkedAt: Date.now(), listening: false });
  };

  const stop = () => {
    if (stopping) return;
    stopping = true;
    if (workers.size === 0) process.exit(failedStart ? 1 : 0);
    // Straight to each process: worker.kill() would first cut the IPC channel, and a worker that
    // loses it exits at once (Node's cluster), without finishing its requests.
    for (const worker of workers.keys()) worker.process.kill('SIGTERM');
    setTimeout(() => {
      console.error('工作进程未能按时退出，强制结束 (workers still running; killing them)');
      for (const worker of workers.keys()) worker.process.kill('SIGKILL');
      process.exit(1);
    }, PRIMARY_GRACE_MS).unref();
  };

  cluster.on('message', (worker, message: unknown) => {
    const state = workers.get(worker);
    if (!state || !isListening(message)) return;
    state.listening = true;
    console.log(`工作进程 ${worker.id} 已就绪 (worker ${worker.id} ready, pid ${worker.process.pid})`);
    if (!announced && !stopping && [...workers.values()].every((w) => w.listening)) {
      announced = true;
      printReady(message.address, startup);
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    const state = workers.get(worker);
    if (!state) return;
    workers.delete(worker);
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (stopping) {
      if (workers.size === 0) process.exit(failedStart ? 1 : 0);
      return;
    }
    if (!announced) {
      // The cluster never came up: stop as one process would, rather than fork again and again.
      console.error(`工作进程 ${worker.id} 启动失败 (${how})，服务器停止 (a worker failed to start; stopping)`);
      failedStart = true;
      stop();
      return;
    }
    quickExits = Date.now() - state.forkedAt < QUICK_EXIT_MS ? quickExits + 1 : 0;
    const delay = quickExits === 0 ? 0 : Math.min(MAX_RESTART_DELAY_MS, 1000 * 2 ** (quickExits - 1));
    console.error(
      `工作进程 ${worker.id} (pid ${worker.process.pid}) 意外退出 (${how})，${delay ? `${delay / 1000} 秒后` : ''}启动新的工作进程 (worker died; starting a replacement)`,
    );
    setTimeout(() => {
      if (!stopping) fork(state.housekeeping);
    }, delay);
  });

  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  // The first worker removes stale uploads; a replacement of it takes its place.
  for (let i = 0; i < config.workers; i++) fork(i === 0);
}
