// Decorates the app with `fullText` (server/src/fullText/indexer.ts): the indexer that reads the
// queued records' documents in a worker thread and writes their pages. One process of a cluster
// indexes (config.housekeeping); the others' writes queue their work in the database for it.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { FullTextIndexer } from '../fullText/indexer';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The call never queues full-text work (a read, a counter): the indexer is not woken after it. */
    queuesNoIndexing?: boolean;
  }
  interface FastifyInstance {
    /** Undefined on the processes that do not index. */
    fullText: FullTextIndexer | undefined;
  }
}

async function fullTextPlugin(app: FastifyInstance, { config }: { config: Config }) {
  const indexer = config.housekeeping ? new FullTextIndexer(app.database, app.storage, { log: app.log }) : undefined;
  app.decorate('fullText', indexer);
  if (!indexer) return;
  app.addHook('onReady', async () => indexer.start());
  // A write just committed may have queued work: looked at now rather than at the next poll.
  app.addHook('onResponse', function wakeIndexer(request, reply, done) {
    if (request.method === 'POST' && reply.statusCode === 200 && !request.routeOptions.config.queuesNoIndexing) indexer.wake();
    done();
  });
  // Before the database plugin's own onClose (hooks run in reverse order of registration).
  app.addHook('onClose', async () => indexer.stop());
}

export default fp(fullTextPlugin, { name: 'fullText', fastify: '5.x', dependencies: ['storage'] });
