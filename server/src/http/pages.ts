// The admin app's pages: every route of the app (a deep link, a reload, `/`) is index.html. For a
// visitor with a session it comes rendered, with the screen's first rows in it: the app's own
// server render (dist/.ssr, written by `npm run build` from src/ssr/render.tsx) asks
// for its data through this server's own routes with the visitor's cookie (Fastify's inject), so
// every rule applies exactly as to the browser's calls. Without a session, without that build, or
// if the render fails, index.html goes out as it is and the browser renders the page itself.
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** What the server render's entry exports (structural: the server does not compile the app). */
interface Renderer {
  renderPage: (url: string, httpClient: HttpClient, cookies: string) => Promise<{ html: string; head: string; state: string; renders: number } | undefined>;
}
type HttpClient = (url: string, options?: { method?: string; body?: unknown }) => Promise<{ status: number; headers: Headers; body: string; json: unknown }>;

/** The folder of the server's render inside the app's build; never served (app.ts: dotfiles). */
export const RENDER_DIR = '.ssr';

/** index.html marks the shell it paints before any script; a rendered page replaces it. */
const SHELL = /<div id="root">[\s\S]*?<\/div><!--\/root-->/;

export interface Pages {
  /** Sends the app's page for this request. */
  send: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
}

function parseJson(body: string): unknown {
  try {
    return body === '' ? undefined : JSON.parse(body);
  } catch {
    return undefined;
  }
}

export function appPages(app: FastifyInstance, publicDir: string): Pages {
  const manifestFile = path.join(publicDir, RENDER_DIR, '.vite', 'manifest.json');
  let loaded: { built: number; renderer: Promise<Renderer | undefined> } | undefined;

  // Loaded on the first page asked for with a session (a server that only answers the API never
  // loads the app's code), and again after a new build: `npm run build` while the server runs
  // writes a new entry, named in the build's manifest. Without a build, pages go out unrendered;
  // a build that fails to load is logged once.
  async function loadRenderer(): Promise<Renderer | undefined> {
    const built = await fs.stat(manifestFile).then(
      (stat) => stat.mtimeMs,
      () => undefined,
    );
    if (built === undefined) return undefined;
    if (loaded?.built !== built) {
      const renderer = fs
        .readFile(manifestFile, 'utf8')
        .then((text) => {
          const entry = Object.values(JSON.parse(text) as Record<string, { file: string; isEntry?: boolean }>).find((chunk) => chunk.isEntry);
          if (!entry) throw new Error(`no entry in ${manifestFile}`);
          return import(pathToFileURL(path.join(publicDir, RENDER_DIR, entry.file)).href) as Promise<Renderer>;
        })
        .catch((error: unknown) => {
          app.log.error({ err: error }, 'the server render of the app failed to load; pages are sent unrendered');
          return undefined;
        });
      loaded = { built, renderer };
    }
    return loaded.renderer;
  }

  async function render(request: FastifyRequest): Promise<Awaited<ReturnType<Renderer['renderPage']>>> {
    if (!request.sessionToken() || !(await request.currentMember())) return undefined;
    const module = await loadRenderer();
    if (!module) return undefined;
    const cookie = request.headers.cookie ?? '';
    const host = request.headers.host;
    const httpClient: HttpClient = async (url, options = {}) => {
      const response = await app.inject({
        method: options.method === 'POST' ? 'POST' : 'GET',
        url,
        // The page's own Host: it passed the ALLOWED_HOSTS check (security.ts), which would refuse
        // inject's default (localhost) and leave every page unrendered.
        headers: { cookie, ...(host ? { host } : {}), 'content-type': 'application/json', accept: 'application/json' },
        ...(typeof options.body === 'string' ? { payload: options.body } : {}),
      });
      const headers = new Headers();
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
      }
      return { status: response.statusCode, headers, body: response.body, json: parseJson(response.body) };
    };
    try {
      return await module.renderPage(request.url, httpClient, cookie);
    } catch (error) {
      app.log.error({ err: error, url: request.url }, 'server render failed; the page is sent unrendered');
      return undefined;
    }
  }

  return {
    async send(request, reply) {
      const page = await render(request);
      if (!page) return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').sendFile('index.html');
      const template = await fs.readFile(path.join(publicDir, 'index.html'), 'utf8');
      app.log.debug({ url: request.url, renders: page.renders }, 'page rendered');
      const html = template
        .replace('</head>', () => `${page.head}</head>`)
        .replace(SHELL, () => `<div id="root">${page.html}</div><!--/root-->`)
        .replace('</body>', () => `${page.state}</body>`);
      // The member's own data: never kept by a shared cache, nor sent for another cookie.
      reply.type('text/html; charset=utf-8').header('cache-control', 'private, no-store').header('vary', 'cookie, accept-encoding').compress(html);
      return reply;
    },
  };
}
