// The page-render worker (a worker thread started by server/src/http/pages.ts): loads the app's
// server render (dist/.ssr, named by workerData.entry) and renders pages in it, off the server's
// event loop. A render's passes take tens of milliseconds of one core each; on the event loop every
// other request, new connections and /health among them, waited behind them. The render's calls
// come back to the server as messages and are answered through its own routes there (pages.ts).
// Compiled to server/dist/renderWorker.mjs (scripts/build-server.mjs); run from the sources through tsx.
import { parentPort, workerData } from 'node:worker_threads';
import { sanitizeHere } from './richTextSanitizer';

/** A page as the server render gives it (src/ssr/render.tsx's RenderedPage). */
export interface RenderedPage {
  html: string;
  head: string;
  /** The browser tab's title, as HTML (its text escaped). */
  title: string;
  state: string;
  renders: number;
}

/** A call's answer as the render's HTTP client gives it (src/http/index.ts's HttpResponse). */
interface HttpResponse {
  status: number;
  headers: Headers;
  body: string;
  json: unknown;
}
type HttpClient = (url: string, options?: { method?: string; body?: unknown }) => Promise<HttpResponse>;

/** What the server render's entry exports (structural: the server does not compile the app). */
interface Renderer {
  setTimeZone: (zone: string) => void;
  setRichTextSanitizer: (sanitize: (html: string) => string) => void;
  renderPage: (url: string, httpClient: HttpClient, cookies: string, signal?: AbortSignal) => Promise<RenderedPage | undefined>;
}

export interface RenderWorkerData {
  /** File URL of the server render's entry. */
  entry: string;
  /** The business time zone (config.timeZone) every date of a page is shown in. */
  timeZone: string;
}

export type ToRenderWorker =
  | { type: 'render'; id: number; url: string; cookie: string }
  /** The page went out plain (past its budget): the render stops at its next step. */
  | { type: 'abort'; id: number }
  | { type: 'answer'; call: number; status: number; headers: Record<string, string>; body: string }
  /** The call was not made (its render is gone on the server's side). */
  | { type: 'refused'; call: number };

export type FromRenderWorker =
  | { type: 'ready' }
  | { type: 'load-failed'; message: string }
  | { type: 'call'; id: number; call: number; url: string; method: 'GET' | 'POST'; body?: string }
  | { type: 'done'; id: number; page?: RenderedPage }
  | { type: 'failed'; id: number; message: string };

const port = parentPort;
if (!port) throw new Error('renderWorker.ts runs as a worker thread (server/src/http/pages.ts starts it)');
const post = (message: FromRenderWorker) => port.postMessage(message);

function parseJson(body: string): unknown {
  try {
    return body === '' ? undefined : JSON.parse(body);
  } catch {
    return undefined;
  }
}

const renders = new Map<number, AbortController>();
const calls = new Map<number, { resolve: (response: HttpResponse) => void; reject: (error: Error) => void }>();
let nextCall = 1;

async function render(renderer: Renderer, id: number, url: string, cookie: string): Promise<void> {
  const controller = new AbortController();
  renders.set(id, controller);
  const httpClient: HttpClient = (callUrl, options = {}) => {
    if (controller.signal.aborted) return Promise.reject(new Error('the page went out without this render'));
    const call = nextCall++;
    return new Promise((resolve, reject) => {
      calls.set(call, { resolve, reject });
      const body = typeof options.body === 'string' ? { body: options.body } : {};
      post({ type: 'call', id, call, url: callUrl, method: options.method === 'POST' ? 'POST' : 'GET', ...body });
    });
  };
  try {
    const page = await renderer.renderPage(url, httpClient, cookie, controller.signal);
    post({ type: 'done', id, ...(page && !controller.signal.aborted ? { page } : {}) });
  } catch (error) {
    post({ type: 'failed', id, message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  } finally {
    renders.delete(id);
  }
}

// The app's code is loaded before the first page, so that a page's budget counts only its own render.
let renderer: Renderer;
try {
  const data = workerData as RenderWorkerData;
  renderer = (await import(data.entry)) as Renderer;
  renderer.setTimeZone(data.timeZone);
  // Rich text on a page (统一口径's answer, a video's comments) is sanitised here with the server's
  // own allow-list and DOMPurify, over jsdom: loaded on the first page that shows rich text (some
  // 50 MB, and a second or more the first time). Text it refuses (past its depth or node limits:
  // never stored through this server) renders empty, and the browser fills it in.
  renderer.setRichTextSanitizer((html) => {
    const outcome = sanitizeHere(html);
    return 'html' in outcome ? outcome.html : '';
  });
} catch (error) {
  post({ type: 'load-failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  throw error;
}

port.on('message', (message: ToRenderWorker) => {
  switch (message.type) {
    case 'render':
      void render(renderer, message.id, message.url, message.cookie);
      break;
    case 'abort':
      renders.get(message.id)?.abort();
      break;
    case 'answer': {
      const pending = calls.get(message.call);
      calls.delete(message.call);
      pending?.resolve({ status: message.status, headers: new Headers(message.headers), body: message.body, json: parseJson(message.body) });
      break;
    }
    case 'refused': {
      const pending = calls.get(message.call);
      calls.delete(message.call);
      pending?.reject(new Error('the server refused a call of a render it no longer waits for'));
      break;
    }
  }
});
post({ type: 'ready' });
