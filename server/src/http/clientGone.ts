// Work done for a client that nobody will read once the client has gone: its rich text waits in a
// queue (server/src/richText.ts), and a client that closes its connection first must not leave its
// texts to be sanitised, nor its write stored.
import type { FastifyReply } from 'fastify';

/** A signal aborted when the client closes its connection before its answer is sent. */
export function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const res = reply.raw;
  // The response's 'close' comes after the answer too (then writableFinished), or once the socket closes first.
  const onClose = () => {
    if (!res.writableFinished) controller.abort();
  };
  if (res.destroyed) onClose();
  else res.once('close', onClose);
  return controller.signal;
}
