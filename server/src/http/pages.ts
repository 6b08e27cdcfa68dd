// The admin app's pages: every route of the app (a deep link, a reload, `/`) is index.html, and
// the app in the browser shows the screen of the address (or its 404 page).
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface Pages {
  /** Sends the app's page for this request. */
  send: (request: FastifyRequest, reply: FastifyReply) => FastifyReply;
}

/**
 * index.html from the app's build, through @fastify/static (registered with that folder as its
 * root, precompressed copies preferred). Checked again on every load (`no-cache`), so a new build
 * shows at once; the hashed files it names are kept for a year (app.ts).
 */
export function appPages(): Pages {
  return {
    send: (_request, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').sendFile('index.html'),
  };
}
