// Opens the database once per app and closes it with the app.
import fp from 'fastify-plugin';
import { CounterBatch } from '../db/counterBatch';
import { openDatabase, type Db } from '../db/database';
import type { Config } from '../config';

declare module 'fastify' {
  interface FastifyInstance {
    database: Db;
    /** The play and like counters' writes, gathered into few transactions (db/counterBatch.ts). */
    counters: CounterBatch;
  }
}

/**
 * Counts arriving within this long of the last counters' write wait for the next one. Short
 * enough that a player's 64 connections keep 1,000 counts a second going (each waits at most this
 * long), long enough that they take the write lock some fifty times a second, not a thousand.
 */
const COUNTER_BATCH_MS = 20;

export default fp<{ config: Config }>(async (app, { config }) => {
  // Migrations are start-up work: a cluster's primary ran them before forking its workers.
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, poolSize: config.poolSize, migrate: config.startupWork });
  // Without the read cache every call reads the database (benchmarks compare both).
  if (!config.readCache) database.dataVersion = () => Promise.resolve(undefined);
  app.decorate('database', database);
  const counters = new CounterBatch(database, { intervalMs: COUNTER_BATCH_MS });
  app.decorate('counters', counters);
  app.addHook('onClose', async () => {
    await counters.close();
    await database.close();
  });
});
