// The ceiling of the server's hot path (scripts/bench/ceiling.ts): a bare Fastify process that
// answers each given call with the bytes the project's server answered it, and does nothing else:
// no session, no checks, no database. Plain JavaScript, run by node itself as the compiled server is.
// Usage: node scripts/bench/bareFastify.mjs <answers.json>; prints its address once it listens.
import fs from 'node:fs';
import Fastify from 'fastify';

const answers = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const app = Fastify({ logger: false });
for (const { method, path, contentType, body } of answers) {
  const bytes = Buffer.from(body, 'base64');
  app.route({ method, url: path, handler: (_request, reply) => reply.type(contentType).send(bytes) });
}
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`bare: ${address}`);
