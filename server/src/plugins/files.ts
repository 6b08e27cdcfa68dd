// Decorates the app with `files` (server/src/files/lifecycle.ts): stored files follow their
// records, unreferenced uploads go after a day, and the daily upload quota. The sweeper starts
// when the server is ready and stops before the database closes.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { FileLifecycle } from '../files/lifecycle';

declare module 'fastify' {
  interface FastifyInstance {
    files: FileLifecycle;
  }
}

async function filesPlugin(app: FastifyInstance, { config }: { config: Config }) {
  const files = new FileLifecycle(app.database, app.storage, { quotaBytesPerDay: config.uploadQuotaBytesPerDay, log: app.log });
  app.decorate('files', files);
  // One process of a cluster sweeps (config.housekeeping); every process tracks writes and quotas.
  if (config.housekeeping) app.addHook('onReady', async () => files.start());
  // Before the database plugin's own onClose (hooks run in reverse order of registration).
  app.addHook('onClose', async () => files.stop());
}

export default fp(filesPlugin, { name: 'files', fastify: '5.x', dependencies: ['storage'] });
