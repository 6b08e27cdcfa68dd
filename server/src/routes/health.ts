// GET /health for load balancers and orchestrators: 200 when this process can reach its database,
// 503 otherwise (and, from Fastify, while the process is closing), so traffic moves elsewhere.
// Storage is not probed: a bucket request per check would cost money and say little about this
// process, and a local disk that fails shows in the uploads themselves.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

export default async function healthRoutes(app: FastifyInstance) {
  app.get('/health', { schema: { tags: ['运维'], summary: '健康检查' } }, async (request, reply) => {
    try {
      await sql`select 1`.execute(app.database.db);
    } catch (err) {
      request.log.error({ err }, 'health check: database unreachable');
      return reply.status(503).send({ code: 503, msg: '数据库不可用' });
    }
    return { code: 0, msg: '正常', data: { database: app.database.dialect, storage: app.storage.name } };
  });
}
