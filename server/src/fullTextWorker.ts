// The full-text worker (a worker thread started by server/src/fullText/indexer.ts): reads the text
// of one document or rich-text body per message, off the server's event loop. A PDF's pages are
// parsed here (pdf.js), never on the thread that answers calls. Compiled to
// server/dist/fullTextWorker.mjs (scripts/build-server.mjs); run from the sources through tsx.
import { parentPort } from 'node:worker_threads';
import { extractDocument, normalizeText, richTextToText } from './fullText/extract/index';

/** A document's bytes and name, or a rich-text body. */
export type FullTextInput = { kind: 'file'; bytes: Uint8Array; name: string } | { kind: 'html'; html: string };
export type FullTextJob = { id: number } & FullTextInput;

export type FullTextReply = { type: 'ready' } | { type: 'done'; id: number; pages: string[] } | { type: 'failed'; id: number; reason: string };

const port = parentPort;
if (!port) throw new Error('fullTextWorker.ts runs as a worker thread (server/src/fullText/indexer.ts starts it)');
port.postMessage({ type: 'ready' } satisfies FullTextReply);

port.on('message', (job: FullTextJob) => {
  void (async (): Promise<FullTextReply> => {
    try {
      if (job.kind === 'html') return { type: 'done', id: job.id, pages: [normalizeText(richTextToText(job.html))] };
      const result = await extractDocument({ bytes: job.bytes, name: job.name });
      return result.ok ? { type: 'done', id: job.id, pages: result.pages } : { type: 'failed', id: job.id, reason: result.reason };
    } catch (err) {
      // A file that breaks the reader is a broken file to the administrators.
      return { type: 'failed', id: job.id, reason: `文件无法读取：${err instanceof Error ? err.message.slice(0, 200) : String(err)}` };
    }
  })().then((reply) => port.postMessage(reply));
});
