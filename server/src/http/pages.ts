// The admin app's pages: every route of the app (a deep link, a reload, `/`) is index.html. For a
// visitor with a session it comes rendered, with the screen's first rows and its title in it: the
// app's own server render (dist/.ssr, written by `npm run build` from src/ssr/render.tsx) asks
// for its data through this server's own routes with the visitor's cookie (Fastify's inject), so
// every rule applies exactly as to the browser's calls. Without that build, or if the render fails,
// index.html goes out as it is and the browser renders the page itself. Without a session it goes
// out saying so (schemas/page.ts): the app shows the login page without asking for the session,
// a call the server would refuse (401) and the browser would report as a console error.
//
// The render runs in a worker thread (server/src/renderWorker.ts), never on the event loop, and is
// bounded, so that one member's page loads hold neither /health nor anyone else's page: a member
// has at most RENDER_PER_MEMBER renders at once in a process (their other page loads get
// index.html, which loads its data as usual), a render has RENDER_BUDGET_MS before index.html goes
// out instead, and an address longer than any of the app's own is not rendered.
//
// A rendered page is kept while the database is unchanged (its change clock, as the read cache's
// answers are), for the same cookie, address, host, business day and build: a reload or a return
// to a page sends it at once, and loads of one page at once share one render.
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FromRenderWorker, RenderedPage, RenderWorkerData, ToRenderWorker } from '../renderWorker';
import { startWorkerThread } from '../workerThread';
import type { MemberRow } from '../auth/members';
import { VersionedCache } from '../db/versionedCache';
import { TIME_ZONE_META, dayIn } from '../../../schemas/businessTime';
import { NO_SESSION, SESSION_META } from '../../../schemas/page';

/** The folder of the server's render inside the app's build; never served (app.ts: dotfiles). */
export const RENDER_DIR = '.ssr';

/** The longest address rendered: the app's own links are far shorter; a longer one is sent plain. */
export const MAX_RENDERED_URL = 2048;

/**
 * How long a render may go on after its page went out plain before the worker is stopped (and
 * started again by the next page): the render stops at its next step, so only one stuck in a
 * single pass gets here.
 */
const ABANDONED_RENDER_MS = 10_000;

/** Rendered pages kept per process: about 100 KB each. */
const KEPT_PAGES_BYTES = 32 * 1024 * 1024;

/** Thrown through the kept pages' load when a page was not rendered: nothing is kept for it. */
const NOT_RENDERED = Symbol('not rendered');

export interface PageOptions {
  /** Renders at once per member (config.renderPerMember); 0 renders no page. */
  perMember: number;
  /** Milliseconds before the plain app goes out instead (config.renderBudgetMs). */
  budgetMs: number;
  /** The business time zone (config.timeZone), told to the page by a meta element (src/i18n/dayjs.ts) and to the render. */
  timeZone: string;
}

/** index.html marks the shell it paints before any script; a rendered page replaces it. */
const SHELL = /<div id="root">[\s\S]*?<\/div><!--\/root-->/;

/** index.html's title (the app's name); a rendered page names its screen there. */
const TITLE = /<title>[^<]*<\/title>/;

/** What a page sent without a session says (src/ssr/pageState.ts reads it). */
const NO_SESSION_ELEMENT = `<meta name="${SESSION_META}" content="${NO_SESSION}">`;

export interface Pages {
  /** Sends the app's page for this request. */
  send: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
}

interface Job {
  request: FastifyRequest;
  settle: (page: RenderedPage | undefined) => void;
}

/** A render worker with the build it loaded and the renders it runs. */
interface Thread {
  worker: Worker;
  /** Whether the app's code loaded (false: that build is not rendered). */
  ready: Promise<boolean>;
  jobs: Map<number, Job>;
  /** False once the worker has exited: a render posted to it would never be answered. */
  alive: boolean;
}

export function appPages(app: FastifyInstance, publicDir: string, limits: PageOptions): Pages {
  const manifestFile = path.join(publicDir, RENDER_DIR, '.vite', 'manifest.json');
  let loaded: { built: number; thread: Promise<Thread | undefined> } | undefined;
  let nextJob = 1;
  /** Renders running per member (AU_CODE), in this process. */
  const running = new Map<string, number>();

  // Answers a render's call through the server's own routes, as the visitor who asked for the page.
  async function answer(thread: Thread, message: Extract<FromRenderWorker, { type: 'call' }>): Promise<void> {
    const job = thread.jobs.get(message.id);
    if (!job) {
      thread.worker.postMessage({ type: 'refused', call: message.call } satisfies ToRenderWorker);
      return;
    }
    const { cookie, host } = job.request.headers;
    const response = await app.inject({
      method: message.method,
      url: message.url,
      // The page's own Host: it passed the ALLOWED_HOSTS check (security.ts), which would refuse
      // inject's default (localhost) and leave every page unrendered.
      headers: { cookie: cookie ?? '', ...(host ? { host } : {}), 'content-type': 'application/json', accept: 'application/json' },
      ...(message.body !== undefined ? { payload: message.body } : {}),
    });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    thread.worker.postMessage({ type: 'answer', call: message.call, status: response.statusCode, headers, body: response.body } satisfies ToRenderWorker);
  }

  function startThread(built: number, entry: string): Thread {
    const worker = startWorkerThread('renderWorker', { name: 'page-render', workerData: { entry, timeZone: limits.timeZone } satisfies RenderWorkerData });
    // A server that is otherwise done (closing) does not wait for it.
    worker.unref();
    let becameReady: (ready: boolean) => void = () => {};
    const thread: Thread = { worker, jobs: new Map(), alive: true, ready: new Promise((resolve) => (becameReady = resolve)) };
    let loadFailure: string | undefined;
    worker.on('message', (message: FromRenderWorker) => {
      switch (message.type) {
        case 'ready':
          becameReady(true);
          break;
        case 'load-failed':
          loadFailure = message.message;
          break;
        case 'call':
          answer(thread, message).catch((error: unknown) => {
            app.log.error({ err: error, url: message.url }, "a server render's call failed");
            thread.worker.postMessage({ type: 'refused', call: message.call } satisfies ToRenderWorker);
          });
          break;
        case 'done':
        case 'failed': {
          const job = thread.jobs.get(message.id);
          thread.jobs.delete(message.id);
          if (message.type === 'failed') app.log.error({ url: job?.request.url, error: message.message }, 'server render failed; the page is sent unrendered');
          job?.settle(message.type === 'done' ? message.page : undefined);
          break;
        }
      }
    });
    worker.on('error', (error) => {
      if (!loadFailure) app.log.error({ err: error }, 'the page-render worker failed; its pages are sent unrendered');
    });
    worker.on('exit', () => {
      thread.alive = false;
      if (loadFailure) app.log.error({ built, error: loadFailure }, 'the server render of the app failed to load; pages are sent unrendered');
      becameReady(false);
      for (const job of thread.jobs.values()) job.settle(undefined);
      thread.jobs.clear();
      // A worker that stopped after loading is started again by the next page; a build that does
      // not load is tried again only once rebuilt.
      if (!loadFailure) void forget(thread);
    });
    return thread;
  }

  async function forget(thread: Thread): Promise<void> {
    const current = loaded;
    if (current && (await current.thread) === thread) loaded = undefined;
  }

  // Started on the first page asked for, the login page too (a server that only answers the API
  // never loads the app's code): the code takes about a second to load, longer than a render's
  // budget, so a member's first page after a start would otherwise go out plain after waiting for
  // it. Started again after a new build: `npm run build` while the server runs writes a new entry,
  // named in the build's manifest. Without a build, pages go out unrendered.
  async function currentThread(): Promise<Thread | undefined> {
    const built = await fs.stat(manifestFile).then(
      (stat) => stat.mtimeMs,
      () => undefined,
    );
    if (built === undefined) return undefined;
    if (loaded?.built !== built) {
      const previous = loaded?.thread;
      const thread = fs
        .readFile(manifestFile, 'utf8')
        .then((text) => {
          const entry = Object.values(JSON.parse(text) as Record<string, { file: string; isEntry?: boolean }>).find((chunk) => chunk.isEntry);
          if (!entry) throw new Error(`no entry in ${manifestFile}`);
          return startThread(built, pathToFileURL(path.join(publicDir, RENDER_DIR, entry.file)).href);
        })
        .catch((error: unknown) => {
          app.log.error({ err: error }, 'the server render of the app failed to load; pages are sent unrendered');
          return undefined;
        });
      loaded = { built, thread };
      // The old build's renders go out plain.
      void previous?.then((old) => old?.worker.terminate());
    }
    return loaded.thread;
  }

  app.addHook('onClose', async () => {
    const thread = await loaded?.thread;
    loaded = undefined;
    await thread?.worker.terminate();
  });

  function release(member: string): void {
    const left = (running.get(member) ?? 1) - 1;
    if (left > 0) running.set(member, left);
    else running.delete(member);
  }

  /** `member`'s page rendered, or undefined (the plain app) when it may not be or the budget ran out. */
  async function render(request: FastifyRequest, member: MemberRow): Promise<RenderedPage | undefined> {
    if (request.url.length > MAX_RENDERED_URL || limits.perMember === 0) return undefined;
    const started = performance.now();
    const thread = await currentThread();
    if (!thread) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const outOfTime = new Promise<'out of time'>((resolve) => {
      timer = setTimeout(() => resolve('out of time'), limits.budgetMs - (performance.now() - started));
    });
    try {
      // The app's code loading (the first page after a start or a build) counts against the budget too.
      if ((await Promise.race([thread.ready, outOfTime])) !== true || !thread.alive) return undefined;
      const key = member.AU_CODE;
      if ((running.get(key) ?? 0) >= limits.perMember) {
        request.log.debug({ url: request.url }, "the member's renders are all running; the page is sent unrendered");
        return undefined;
      }
      running.set(key, (running.get(key) ?? 0) + 1);
      const id = nextJob++;
      // The member's place is held until the render has stopped, not merely until its page went out.
      const rendered = new Promise<RenderedPage | undefined>((settle) => thread.jobs.set(id, { request, settle })).finally(() => release(key));
      thread.worker.postMessage({ type: 'render', id, url: request.url, cookie: request.headers.cookie ?? '' } satisfies ToRenderWorker);
      const page = await Promise.race([rendered, outOfTime]);
      if (page !== 'out of time') return page;
      request.log.warn({ url: request.url, budgetMs: limits.budgetMs }, 'server render outlasted its budget; the page is sent unrendered');
      thread.worker.postMessage({ type: 'abort', id } satisfies ToRenderWorker);
      const stuck = setTimeout(() => {
        if (!thread.jobs.has(id)) return;
        app.log.error({ url: request.url }, 'an abandoned server render did not stop; its worker is stopped');
        void thread.worker.terminate();
      }, ABANDONED_RENDER_MS);
      void rendered.finally(() => clearTimeout(stuck));
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  const kept = new VersionedCache<RenderedPage>({
    maxEntries: 1000,
    maxBytes: KEPT_PAGES_BYTES,
    sizeOf: (page) => page.html.length + page.head.length + page.state.length,
  });

  /** The page kept for this request when still exact, else rendered (and kept); `kept` says which. */
  async function keptOrRendered(request: FastifyRequest, member: MemberRow, built: number): Promise<{ page: RenderedPage; kept: boolean } | undefined> {
    // Read before the render asks for anything, after the request arrived (VersionedCache).
    const version = await request.dataVersion();
    // Everything else a render depends on: the visitor (the cookies screens read, the session), the
    // address, the host its calls go to, "today" in the business zone, and the build.
    const key = [request.url, request.headers.host ?? '', request.headers.cookie ?? '', dayIn(limits.timeZone), built].join('\n');
    let rendered = false;
    try {
      const page = await kept.get(key, version, async () => {
        rendered = true;
        const page = await render(request, member);
        if (!page) throw NOT_RENDERED;
        return page;
      });
      return { page, kept: !rendered };
    } catch (error) {
      if (error === NOT_RENDERED) return undefined;
      throw error;
    }
  }

  // index.html with the business time zone in its head, read again after a new build.
  const zoneMeta = `<meta name="${TIME_ZONE_META}" content="${limits.timeZone}">`;
  let template: { built: number; html: string } | undefined;
  async function pageTemplate(): Promise<{ built: number; html: string }> {
    const file = path.join(publicDir, 'index.html');
    const built = (await fs.stat(file)).mtimeMs;
    if (template?.built !== built) template = { built, html: (await fs.readFile(file, 'utf8')).replace('</head>', () => `${zoneMeta}</head>`) };
    return template;
  }

  return {
    async send(request, reply) {
      const started = performance.now();
      const member = request.sessionToken() ? await request.currentMember() : null;
      const { built, html: template } = await pageTemplate();
      // The login page: the render's code loads meanwhile, for the member's pages after it.
      if (!member && limits.perMember > 0) void currentThread();
      const found = member ? await keptOrRendered(request, member, built) : undefined;
      if (!found) {
        // Both depend on the cookie. Without a session, never kept: a history navigation may show
        // a kept page without asking, and this one would hide a session since opened.
        const html = member ? template : template.replace('</head>', () => `${NO_SESSION_ELEMENT}</head>`);
        reply
          .type('text/html; charset=utf-8')
          .header('cache-control', member ? 'no-cache' : 'no-store')
          .header('vary', 'cookie, accept-encoding')
          .compress(html);
        return reply;
      }
      const { page } = found;
      app.log.debug({ url: request.url, renders: page.renders, kept: found.kept }, 'page rendered');
      const html = template
        .replace(TITLE, () => `<title>${page.title}</title>`)
        .replace('</head>', () => `${page.head}</head>`)
        .replace(SHELL, () => `<div id="root">${page.html}</div><!--/root-->`)
        .replace('</body>', () => `${page.state}</body>`);
      // The member's own data: never kept by a shared cache, nor sent for another cookie. Server-Timing
      // says whether the page was kept or rendered now, how long that took, and in how many passes
      // its render found its data (the browser's developer tools and npm run bench:ui show it).
      const timing = `render;desc="${found.kept ? 'kept' : 'rendered'}";dur=${(performance.now() - started).toFixed(1)}, render-passes;desc="${page.renders}"`;
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'private, no-store')
        .header('vary', 'cookie, accept-encoding')
        .header('server-timing', timing)
        .compress(html);
      return reply;
    },
  };
}
