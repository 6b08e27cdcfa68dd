// GET /health, for load balancers: 200 while the process reaches its database, 503 when it cannot.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

describe('health check', () => {
  it('answers 200 without a session, naming the database and the storage driver', async () => {
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ code: 0, msg: '正常', data: { database: server.dialect, storage: 'local' } });
    expect((await fetch(`${server.url}/health`, { method: 'HEAD' })).status).toBe(200);
  });

  it('answers 503 once the database is unreachable', async () => {
    await server.app.database.db.destroy();
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ code: 503, msg: '数据库不可用' });
  });
});
