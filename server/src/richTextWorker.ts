// The rich-text worker (a worker thread started by server/src/richText.ts): sanitises one HTML
// string per message, off the server's event loop. Compiled to server/dist/richTextWorker.mjs
// (scripts/build-server.mjs); run from the sources through tsx.
import { parentPort } from 'node:worker_threads';
import { loadSanitizer, sanitizeHere } from './richTextSanitizer';

export interface RichTextJob {
  id: number;
  html: string;
}

export type RichTextReply =
  | { type: 'ready' }
  | { type: 'done'; id: number; html: string }
  | { type: 'refused'; id: number; reason: 'depth' | 'nodes' }
  | { type: 'failed'; id: number; message: string };

const port = parentPort;
if (!port) throw new Error('richTextWorker.ts runs as a worker thread (server/src/richText.ts starts it)');

// jsdom is loaded before the first job, so that a job's time limit counts only its own work.
loadSanitizer();
port.postMessage({ type: 'ready' } satisfies RichTextReply);

port.on('message', ({ id, html }: RichTextJob) => {
  let reply: RichTextReply;
  try {
    const outcome = sanitizeHere(html);
    reply = 'html' in outcome ? { type: 'done', id, html: outcome.html } : { type: 'refused', id, reason: outcome.refused };
  } catch (err) {
    reply = { type: 'failed', id, message: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(reply);
});
