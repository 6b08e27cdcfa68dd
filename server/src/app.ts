// Builds the Fastify app: plugins first (errors, database, session, storage, API docs), then the
// routes of /Ajax, /Xcx1 and /Xcx3, then the built admin app at `/`. cluster.ts only listens.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from './config';
import { startupData, uploadSecret, type StartupResult } from './bootstrap';
import { badRequest, unauthorized } from './errors';
import { unstorableValue } from './http/unstorable';
import { appPages } from './http/pages';
import { loggerOptions, ShortRequestLog } from './log';
import databasePlugin from './plugins/database';
import errorsPlugin, { clientErrorHandler, frameworkErrors } from './plugins/errors';
import filesPlugin from './plugins/files';
import fullTextPlugin from './plugins/fullText';
import securityPlugin from './plugins/security';
import sessionPlugin from './plugins/session';
import storagePlugin from './plugins/storage';
import timeoutsPlugin from './plugins/timeouts';
import routes from './routes/index';
import { requestAjv } from './routes/requestSchemas';
import { richTextQueueLimits } from './richText';

/** Brotli quality of rendered pages: a few milliseconds for the largest page (11 took seconds). */
const PAGE_BROTLI_QUALITY = 4;

/** Paths owned by the server; everything else that is a GET is a route of the admin app. */
const SERVER_PREFIXES = ['/Ajax/', '/Xcx1/', '/Xcx3/', '/files/', '/upload/', '/upload-part/', '/docs'];

declare module 'fastify' {
  interface FastifyInstance {
    /** The configuration the app was built with (routes/multipart.ts reads `housekeeping`). */
    config: Config;
  }
}

/** The app, and the passwords made up at this start (when it created the administrator or the demo). */
export interface BuiltApp extends StartupResult {
  app: FastifyInstance;
}

/** Trusts the `hops` nearest proxies, as Fastify does for a numeric trustProxy. */
const trustHops = (hops: number) => (_address: string, index: number) => index < hops;

export async function buildApp(config: Config): Promise<BuiltApp> {
  // The rich-text queue is the process's (one app per process; a test's last app sets them).
  richTextQueueLimits.perMember = config.richTextQueuePerMember;
  richTextQueueLimits.total = config.richTextQueueTotal;
  const app = Fastify({
    // Short readable lines (log.ts): warnings and errors always, one per request with LOG=1.
    logger: loggerOptions(config.log, config.timeZone),
    logController: new ShortRequestLog(),
    // Fastify gives a plugin 10 s to start. Loading the AWS SDK for STORAGE=s3, or migrating a
    // database, can take longer on a slow host; a slow start is better than a refusal to start.
    pluginTimeout: 120_000,
    // Rich text of 200,000 characters in UTF-8 stays well under 2 MiB.
    bodyLimit: 2 * 1024 * 1024,
    // Behind a load balancer: the client's address (login throttle) comes from X-Forwarded-For.
    // A hop count as the function Fastify makes of it (its types accept no number).
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // Refusals made before a route runs get the envelope too (plugins/errors.ts).
    frameworkErrors,
    clientErrorHandler,
    // Every error at once; fields not in a request schema (server-owned ones among them) are
    // dropped, never stored; the schemas' own keywords. The add/edit dialog checks with the same
    // options (schemas/validation.ts REQUEST_AJV_OPTIONS).
    ajv: requestAjv,
  });

  app.decorate('config', config);
  await app.register(errorsPlugin);
  // Headers (CSP, nosniff, no framing) and the cross-origin write check come before every route.
  await app.register(securityPlugin, { config });
  // Bodies that trickle in are cut (plugins/timeouts.ts).
  await app.register(timeoutsPlugin, { config });
  await app.register(databasePlugin, { config });
  await app.register(sessionPlugin, { config });
  const secret = await uploadSecret(app.database);
  await app.register(storagePlugin, { config, secret });
  // Stored files follow their records; unreferenced uploads go after a day; the upload quota.
  await app.register(filesPlugin, { config });
  // Documents are read into the full-text index in the background (fullText/indexer.ts).
  await app.register(fullTextPlugin, { config });

  await app.register(swagger, {
    openapi: {
      info: {
        title: '知识学习后台 API',
        version: '1.0.0',
        description:
          'The calls of the admin app, described in the repository\'s docs/api.md. Every answer is `{ code, msg, data, total? }`; failures carry `errors: [{ field, msg }]`. Log in with /Ajax/Login; the session is an httpOnly cookie.',
      },
    },
  });
  // The docs page gets Swagger UI's own policy (its inline bootstrap scripts by hash, computed by
  // the plugin), with inline styles allowed (its renderer sets them) and no framing, as the app.
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    transformStaticCSP: (header) =>
      header
        .replace(/style-src [^;]*/, "style-src 'self' 'unsafe-inline'")
        .replace(/frame-ancestors [^;]*/, "frame-ancestors 'none'")
        .replace(/\s*upgrade-insecure-requests;?/, ''),
  });

  // Log-in comes before body validation: an anonymous caller gets 401, never a schema error.
  const PUBLIC_CALLS = new Set(['/Ajax/Login', '/Ajax/Logout']);
  app.addHook('preValidation', function requireSession(request, reply, done) {
    const query = request.url.indexOf('?');
    const path = query < 0 ? request.url : request.url.slice(0, query);
    if (!/^\/(Ajax|Xcx1|Xcx3)\//.test(path) || PUBLIC_CALLS.has(path)) return done();
    request.currentMember().then((member) => done(member ? undefined : unauthorized()), done);
  });
  // After validation, which may have coerced "Infinity" into a number (http/unstorable.ts).
  app.addHook('preHandler', function refuseUnstorable(request, reply, done) {
    const bad = /^\/(Ajax|Xcx1|Xcx3)\//.test(request.url) ? (unstorableValue(request.body) ?? unstorableValue(request.query)) : undefined;
    done(bad ? badRequest(`${bad.field}：${bad.msg}`, [bad]) : undefined);
  });

  await app.register(routes);

  // Done once for all processes: skipped in a cluster's workers, whose primary did it (cluster.ts).
  const generated = config.startupWork ? await startupData(app.database, async () => app.storage, config) : {};

  const indexHtml = path.join(config.publicDir, 'index.html');
  // Pages rendered by the server are compressed as they are sent (reply.compress, pages only: the
  // built files have their compressed copies, the API's answers are small). Brotli at quality 4:
  // the library applies that default only when registered globally, and its own 11 takes seconds
  // on a large page in the thread pool that password hashing shares.
  await app.register(fastifyCompress, {
    global: false,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: PAGE_BROTLI_QUALITY } },
  });
  const pages = appPages(app, config.publicDir, { perMember: config.renderPerMember, budgetMs: config.renderBudgetMs, timeZone: config.timeZone });
  if (fs.existsSync(indexHtml)) {
    // wildcard: files are looked up per request, so a rebuilt app's new asset names are served
    // without a restart; a missing file falls through to the not-found handler below.
    await app.register(fastifyStatic, {
      root: config.publicDir,
      wildcard: true,
      index: false,
      // The build writes .br and .gz copies (the `precompress` plugin of vite.config.ts): sent as they are.
      preCompressed: true,
      // dist/.ssr (the server's render of the app) is for the server only.
      dotfiles: 'ignore',
      cacheControl: false,
      setHeaders(res, file) {
        res.setHeader('vary', 'accept-encoding');
        // Vite names every file under assets/ by its content hash: it never changes, keep it a year.
        // Anything else (index.html) is checked again on each load, so a new build shows at once.
        const hashed = file.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    // `/` is the folder itself, which the static handler refuses (403) with index: false.
    app.get('/', (request, reply) => pages.send(request, reply));
  }
  app.setNotFoundHandler((request, reply) => {
    const isServerPath = SERVER_PREFIXES.some((p) => request.url.startsWith(p));
    if (request.method !== 'GET' || isServerPath) {
      return reply.status(404).send({ code: 404, msg: '请求的接口不存在' });
    }
    // The admin app's own routes (deep links) all load index.html.
    if (fs.existsSync(indexHtml)) return pages.send(request, reply);
    return reply
      .type('text/html; charset=utf-8')
      .send('<!doctype html><meta charset="utf-8"><title>知识学习后台</title><p>管理界面尚未构建：请运行 <code>npm run build</code>。接口文档见 <a href="/docs">/docs</a>。</p>');
  });

  return { app, ...generated };
}
