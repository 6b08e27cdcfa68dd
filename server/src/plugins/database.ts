// Opens the database once per app and closes it with the app.
import fp from 'fastify-plugin';
import { openDatabase, type Db } from '../db/database';
import type { Config } from '../config';

declare module 'fastify' {
  interface FastifyInstance {
    database: Db;
  }
}

export default fp<{ config: Config }>(async (app, { config }) => {
  // Migrations are start-up work: a cluster's primary ran them before forking its workers.
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, poolSize: config.poolSize, migrate: config.startupWork });
  // Without the read cache every call reads the database (benchmarks compare both).
  if (!config.readCache) database.dataVersion = () => Promise.resolve(undefined);
  app.decorate('database', database);
  app.addHook('onClose', async () => database.close());
});
