// The admin app's pages: index.html, rendered with the visitor's screen when they have a session.
//
// The render itself is the app's own code (src/ssr/render.tsx, built into dist/.ssr/render.mjs by
// `npm run build`); it asks for its data through this server's own routes with the visitor's
// cookie (Fastify's inject), so every permission rule applies exactly as to the browser's calls.
// Without a build of it, without a session, or if it fails, the page is index.html as it is:
// the browser then renders the app itself, as before.
import fs from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EARLY_CLICKS_SCRIPT } from '../../../src/ssr/earlyClicks';

/** What src/ssr/render.tsx exports (kept structural: the server does not compile the app). */
interface RenderedPage {
  html: string;
  renders: number;
  head: string;
  state: string;
}
interface HttpResponse {
  status: number;
  headers: Headers;
  body: string;
  json: unknown;
}
type HttpClient = (url: string, options?: { method?: string; body?: unknown }) => Promise<HttpResponse>;
interface Renderer {
  renderPage: (url: string, httpClient: HttpClient, cookies: string, screenWidth: number) => Promise<RenderedPage | undefined>;
}

/** index.html marks the app shell this way; a rendered page replaces it. */
const SHELL = /<!--app-shell-->[\s\S]*<!--\/app-shell-->/;
/**
 * index.html's preload links for the app's code (vite.config.ts). A rendered page goes without:
 * the browser loads the app after painting it (src/main.tsx), and meanwhile the page's own bytes
 * do not share the network with 1 MB of code.
 */
const APP_PRELOADS = /<!--app-preload-->[\s\S]*?<!--\/app-preload-->/;
/** Where the streamed page is cut: everything before it leaves before the render starts. */
const ROOT_START = '<div id="root">';

/** The folder of the server's render inside the app's build; never served (see app.ts). */
export const RENDER_DIR = '.ssr';

/** Screen widths the render assumes: a phone's (below MUI's `sm` breakpoint) or a laptop's. */
const PHONE_WIDTH = 412;
const DESKTOP_WIDTH = 1366;

/**
 * The server cannot see the screen: a phone is told by its client hint (Sec-CH-UA-Mobile, sent by
 * Chromium-based browsers) or its user agent. A wrong guess costs the browser a render of its own.
 */
function screenWidthOf(request: FastifyRequest): number {
  const phone = request.headers['sec-ch-ua-mobile'] === '?1' || /Mobi|Android|iPhone|iPod/i.test(request.headers['user-agent'] ?? '');
  return phone ? PHONE_WIDTH : DESKTOP_WIDTH;
}

export interface Pages {
  /** Sends the app's page for this request (a deep link or `/`). */
  send: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
}

export function appPages(app: FastifyInstance, publicDir: string, log: FastifyBaseLogger): Pages {
  const indexFile = path.join(publicDir, 'index.html');
  const renderFile = path.join(publicDir, RENDER_DIR, 'render.mjs');
  let renderer: Promise<Renderer | undefined> | undefined;

  // Loaded on the first page asked for with a session: a server that only answers the API never
  // loads the app's code (about 25 MB of memory once loaded). A missing build is looked for again
  // on the next page (the app may be built while the server runs); a build that fails to load is
  // logged once and pages are sent unrendered.
  const loadRenderer = (): Promise<Renderer | undefined> =>
    (renderer ??= fs.access(renderFile).then(
      () =>
        (import(pathToFileURL(renderFile).href) as Promise<Renderer>).catch((error: unknown) => {
          log.error({ err: error }, 'the server render of the app failed to load; pages are sent unrendered');
          return undefined;
        }),
      () => {
        renderer = undefined;
        return undefined;
      },
    ));

  /** The render, for a request with a session (else undefined: the page goes out as it is). */
  async function rendererFor(request: FastifyRequest): Promise<Renderer | undefined> {
    if (!request.headers.cookie || !(request.sessionToken() && (await request.currentMember()))) return undefined;
    return loadRenderer();
  }

  async function render(module: Renderer, request: FastifyRequest): Promise<RenderedPage | undefined> {
    const cookie = request.headers.cookie ?? '';
    const httpClient: HttpClient = async (url, options = {}) => {
      const response = await app.inject({
        method: (options.method ?? 'GET') as 'GET' | 'POST',
        url,
        headers: { cookie, 'content-type': 'application/json', accept: 'application/json' },
        payload: typeof options.body === 'string' ? options.body : undefined,
      });
      const headers = new Headers();
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
      }
      let json: unknown;
      try {
        json = response.body === '' ? undefined : JSON.parse(response.body);
      } catch {
        json = undefined;
      }
      return { status: response.statusCode, headers, body: response.body, json };
    };
    try {
      return await module.renderPage(request.url, httpClient, cookie, screenWidthOf(request));
    } catch (error) {
      log.error({ err: error, url: request.url }, 'server render failed; the page is sent unrendered');
      return undefined;
    }
  }

  return {
    async send(request, reply) {
      const module = await rendererFor(request);
      if (!module) return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
      const template = await fs.readFile(indexFile, 'utf8');
      const cut = template.indexOf(ROOT_START);
      if (cut < 0) return reply.type('text/html').header('cache-control', 'no-cache').send(template);
      // The page is streamed: its head (the app's scripts) leaves at once, so that the browser
      // downloads and compiles the code while the server renders; the rest follows the render.
      // Each part is flushed through the compressor as it is written (brotliOptions in app.ts).
      const body = new PassThrough();
      // The member's own data: never kept by a shared cache, and not for another cookie.
      reply.type('text/html; charset=utf-8').header('cache-control', 'private, no-store').header('vary', 'cookie').compress(body);
      body.write(template.slice(0, cut).replace(APP_PRELOADS, ''));
      const page = await render(module, request);
      const rest = template.slice(cut);
      // The visitor may have gone meanwhile (the stream is then closed).
      if (body.destroyed) return reply;
      if (!page) {
        body.end(rest);
        return reply;
      }
      log.debug({ url: request.url, renders: page.renders }, 'page rendered');
      // emotion's styles go before #root, outside what the browser takes over (src/ssr/render.tsx);
      // so does the script that holds the clicks made before the takeover (src/ssr/earlyClicks.ts).
      body.end(
        `<script>${EARLY_CLICKS_SCRIPT}</script>` +
          page.head +
          rest.replace(SHELL, () => page.html).replace('</body>', () => `${page.state}</body>`),
      );
      return reply;
    },
  };
}
