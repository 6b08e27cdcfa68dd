// The session cookie: an httpOnly, SameSite token whose hash is stored in the database.
// Guards (plugins/permissions.ts) read the member through `request.currentMember()`.
import fp from 'fastify-plugin';
import { parse, serialize } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isLive, sessionOf, SESSION_TTL_MS, type MemberRow, type SessionOf } from '../auth/members';
import { VersionedCache } from '../db/versionedCache';
import type { Config } from '../config';

export const SESSION_COOKIE = 'zhishi_sid';

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in member, loaded once per request; null when not logged in. */
    currentMember(): Promise<MemberRow | null>;
    /** The database's change clock, read once per request, before this request reads anything. */
    dataVersion(): Promise<string | undefined>;
    sessionToken(): string | undefined;
  }
  interface FastifyReply {
    setSessionCookie(token: string): void;
    clearSessionCookie(): void;
  }
}

const cache = new WeakMap<FastifyRequest, Promise<MemberRow | null>>();
const versions = new WeakMap<FastifyRequest, Promise<string | undefined>>();

/** Sessions looked up by recent calls; a logout, a member change or expiry is seen on the next call. */
const MAX_CACHED_SESSIONS = 10_000;

export default fp<{ config: Config }>(async (app, { config }) => {
  // `false` stands for "no such session", so that a bad cookie doesn't query on every call either.
  const sessions = new VersionedCache<SessionOf | false>({ maxEntries: MAX_CACHED_SESSIONS });

  app.decorateRequest('dataVersion', function dataVersion(this: FastifyRequest) {
    let pending = versions.get(this);
    if (!pending) {
      pending = app.database.dataVersion();
      versions.set(this, pending);
    }
    return pending;
  });
  const base = { httpOnly: true, sameSite: 'lax' as const, path: '/', secure: config.cookieSecure };

  app.decorateRequest('sessionToken', function sessionToken(this: FastifyRequest) {
    const header = this.headers.cookie;
    if (!header) return undefined;
    const token = parse(header)[SESSION_COOKIE];
    return token && /^[A-Za-z0-9_-]{20,100}$/.test(token) ? token : undefined;
  });

  app.decorateRequest('currentMember', function currentMember(this: FastifyRequest) {
    let pending = cache.get(this);
    if (!pending) {
      const token = this.sessionToken();
      pending = token
        ? this.dataVersion()
            .then((version) => sessions.get(token, version, async () => (await sessionOf(app.database, token)) ?? false))
            .then((session) => (session && isLive(session) ? session.member : null))
        : Promise.resolve(null);
      cache.set(this, pending);
    }
    return pending;
  });

  app.decorateReply('setSessionCookie', function (this: FastifyReply, token: string) {
    this.header('Set-Cookie', serialize(SESSION_COOKIE, token, { ...base, maxAge: SESSION_TTL_MS / 1000 }));
  });

  app.decorateReply('clearSessionCookie', function (this: FastifyReply) {
    this.header('Set-Cookie', serialize(SESSION_COOKIE, '', { ...base, maxAge: 0 }));
  });
});
