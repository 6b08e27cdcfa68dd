// Deadlines for receiving a request's body, so that a client trickling a body byte by byte cannot
// hold a connection (and its memory) for ever. Node cuts slow headers itself (headersTimeout, 60 s);
// the body is ours to bound, per kind of request:
// - a call (JSON, at most 2 MiB): BODY_TIMEOUT seconds from the request's start, 30 by default. A
//   large rich text of 1 MiB takes 8 s at 1 Mbit/s; a form's body takes well under a second.
// - an upload (PUT /upload/…, /upload-part/…): a minimum average rate, UPLOAD_MIN_RATE bytes a
//   second (32 KiB/s, a quarter of a slow 1 Mbit/s office line), over the declared length, plus a
//   minute. A 10 MiB part has 6 minutes, a 200 MB handout close to two hours.
// When the deadline passes before the body is in, the client gets 408 in the envelope and the
// connection is closed.
import type { OutgoingHttpHeaders } from 'node:http';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { PART_PREFIX, UPLOAD_PREFIX } from '../storage/local';

export const BODY_TIMEOUT_MESSAGE = '请求超时：请求内容发送过慢，请检查网络后重试';
const UPLOAD_GRACE_MS = 60_000;

/** Milliseconds a request may take to deliver its body; undefined when it has none. */
export function bodyDeadlineMs(
  url: string,
  headers: { 'content-length'?: string; 'transfer-encoding'?: string },
  config: Pick<Config, 'bodyTimeoutMs' | 'uploadMinRate'>,
): number | undefined {
  const length = Number(headers['content-length'] ?? 0);
  const chunked = headers['transfer-encoding'] !== undefined;
  if (!chunked && !(length > 0)) return undefined;
  const upload = url.startsWith(UPLOAD_PREFIX) || url.startsWith(PART_PREFIX);
  if (!upload) return config.bodyTimeoutMs;
  // An upload without a length is refused by its route; give it the calls' deadline meanwhile.
  if (chunked || !Number.isFinite(length)) return config.bodyTimeoutMs;
  return UPLOAD_GRACE_MS + Math.ceil((length / config.uploadMinRate) * 1000);
}

export default fp<{ config: Config }>(async (app, { config }) => {
  app.addHook('onRequest', function bodyDeadline(request, reply, done) {
    const deadline = bodyDeadlineMs(request.url, request.headers, config);
    if (deadline === undefined) return done();
    const raw = request.raw;
    const timer = setTimeout(() => {
      if (raw.complete || reply.sent) return;
      request.log.warn({ url: request.url, deadline }, 'request body not received in time');
      // Documented way to answer outside Fastify's flow: the body parser still waits on the stream.
      reply.hijack();
      const body = JSON.stringify({ code: 408, msg: BODY_TIMEOUT_MESSAGE });
      // With the headers already given to the reply (the security headers).
      reply.raw.writeHead(408, { ...(reply.getHeaders() as OutgoingHttpHeaders), 'content-type': 'application/json; charset=utf-8', connection: 'close', 'content-length': Buffer.byteLength(body) });
      reply.raw.end(body, () => raw.socket?.destroy());
    }, deadline);
    timer.unref();
    const clear = () => clearTimeout(timer);
    raw.once('end', clear);
    raw.once('close', clear);
    reply.raw.once('finish', clear);
    done();
  });
});
