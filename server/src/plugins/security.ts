// Browser-side defences of the whole server: security headers through helmet (a
// Content-Security-Policy fitted to what the admin app loads, nosniff, no framing), and the refusal
// of state-changing requests sent from another origin.
//
// helmet itself rather than its Fastify plugin (@fastify/helmet 13): the plugin builds helmet's
// middleware again on every request (parsing the CSP directives each time), about 7 % of the
// server's time per list call under load. Built once, it sets exactly the same headers.
//
// Why the origin check plus the SameSite=Lax cookie is enough against cross-site request forgery:
// a Lax cookie is not sent with a cross-site POST (form or fetch), so such a call arrives without a
// session and gets 401. What Lax does not cover is covered here: a *same-site* but cross-origin page
// (a sibling subdomain) does get the cookie, and calls that need no session (login, logout, signed
// upload URLs) would still act. Browsers send `Origin` on every POST/PUT/DELETE (and `Sec-Fetch-Site`
// on all requests), so any of those from another origin is refused here. Requests with neither
// header (curl, server-to-server) are not from a browser, carry no ambient cookie, and stay allowed.
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet from 'helmet';
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { ApiError } from '../errors';
import { publicBaseUrl } from '../storage/s3Urls';

/** The headers a middleware sets on a response (a real one, never sent), as Fastify takes them. */
function headersSetBy(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const response = new ServerResponse(new IncomingMessage(new Socket()));
  let failure: unknown = new Error('helmet did not finish synchronously');
  middleware(response.req, response, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return Object.fromEntries(Object.entries(response.getHeaders()).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]));
}

export const CROSS_ORIGIN_MESSAGE = '不允许从其他来源发起此请求';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Origins (scheme://host[:port]) of the S3 service: where uploads are PUT and files are read. */
export function storageOrigins(config: Config): string[] {
  if (config.storage !== 's3' || !config.s3) return [];
  const s3 = config.s3;
  const origins = new Set<string>();
  // Presigned uploads go to the service itself (endpoint-derived URL); files are read from the
  // public base URL, which may be a CDN.
  origins.add(new URL(publicBaseUrl({ ...s3, publicBaseUrl: undefined })).origin);
  origins.add(new URL(publicBaseUrl(s3)).origin);
  if (!s3.endpoint) origins.add(`https://s3.${s3.region}.amazonaws.com`);
  return [...origins];
}

/** The Content-Security-Policy directives of the admin app (helmet's format). */
export function cspDirectives(config: Config): Record<string, string[]> {
  const storage = storageOrigins(config);
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    // Vite emits module scripts only: no inline script, no 'unsafe-eval'.
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    // MUI's emotion injects <style> elements at run time and React writes style attributes; a nonce
    // would need index.html rendered per request. Styles cannot run code, and stored rich text only
    // keeps colour and alignment declarations (schemas/richText.ts), so 'unsafe-inline' is for styles only.
    'style-src': ["'self'", "'unsafe-inline'"],
    // video.js ships its icon font as a data: URL.
    'font-src': ["'self'", 'data:'],
    // Rich text may show images from any http(s) site (the sanitiser's rule); posters made in the
    // browser are blob:/data: URLs.
    'img-src': ["'self'", 'data:', 'blob:', 'http:', 'https:'],
    // video.js plays the stored file (this origin or the bucket/CDN), or a blob: of a file being chosen.
    'media-src': ["'self'", 'blob:', ...storage],
    // Uppy PUTs files and parts straight to the bucket when STORAGE=s3.
    'connect-src': ["'self'", ...storage],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'frame-src': ["'none'"],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
  };
}

/** The name of a Host header without its port; undefined when it is not a host name at all. */
function hostName(header: string | undefined): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/.exec((header ?? '').toLowerCase());
  return match?.[1];
}

/** Whether a Host header names one of the allowed hosts (exactly, or under a leading-dot entry). */
export function isAllowedHost(header: string | undefined, allowed: readonly string[]): boolean {
  const name = hostName(header);
  if (!name) return false;
  return allowed.some((entry) => (entry.startsWith('.') ? name.endsWith(entry) : name === entry));
}

export const DISALLOWED_HOST_MESSAGE = '不允许的主机名';

/** Whether a request may change state: same origin as the Host it was sent to, or allowed. */
export function isSameOriginRequest(request: FastifyRequest, allowed: readonly string[]): boolean {
  const origin = request.headers.origin;
  if (origin !== undefined) {
    // "null" (sandboxed frames, file: pages, some redirects) is never an origin of ours.
    if (allowed.includes(origin)) return true;
    let host: string;
    try {
      const url = new URL(origin);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
      host = url.host;
    } catch {
      return false;
    }
    // The host (with port) must be the one the request was sent to. The scheme is not compared:
    // behind a TLS-terminating proxy the server sees http while the page is https.
    return host.toLowerCase() === (request.headers.host ?? '').toLowerCase();
  }
  // No Origin: a browser that still says where the request comes from.
  const site = request.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}

export default fp<{ config: Config }>(async (app, { config }) => {
  const securityHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(config) },
    // Only over https: a Strict-Transport-Security header on a plain-http deployment would be wrong.
    strictTransportSecurity: config.cookieSecure ? { maxAge: 15552000, includeSubDomains: false } : false,
    frameguard: { action: 'deny' },
    // Handouts open in a new window with noopener; same-origin isolation costs nothing here.
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    // Images of rich text come from other sites: do not require them to opt in (COEP stays off).
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'same-origin' },
  });
  // helmet's headers depend on the configuration alone: read once from a response helmet wrote
  // them on, then given to each reply with Fastify's own headers. Set on the raw response instead,
  // they made node merge every header of every answer one call at a time (its slow path: 12 % of
  // the cached list call's time, where the bare server's ceiling sends two headers).
  const headers = headersSetBy(securityHeaders);
  app.addHook('onRequest', function setSecurityHeaders(_request, reply, done) {
    reply.headers(headers);
    done();
  });

  // DNS rebinding: a hostile name resolved to this server makes its pages same-origin with the
  // attacker's. With ALLOWED_HOSTS set, only the listed names are answered. /health is left to load
  // balancers, which ask by address and learn nothing from it.
  const hosts = config.allowedHosts;
  if (hosts.length > 0) {
    app.addHook('onRequest', async function refuseOtherHost(request) {
      if (request.url === '/health' || isAllowedHost(request.headers.host, hosts)) return;
      request.log.warn({ host: request.headers.host }, 'request for a host not in ALLOWED_HOSTS refused');
      throw new ApiError(400, DISALLOWED_HOST_MESSAGE);
    });
  }

  const allowed = config.allowedOrigins;
  app.addHook('onRequest', function refuseCrossOrigin(request, reply, done) {
    if (SAFE_METHODS.has(request.method) || isSameOriginRequest(request, allowed)) return done();
    request.log.warn({ origin: request.headers.origin, site: request.headers['sec-fetch-site'] }, 'cross-origin write refused');
    done(new ApiError(403, CROSS_ORIGIN_MESSAGE));
  });
});
