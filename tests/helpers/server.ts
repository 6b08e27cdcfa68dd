// Starts a real server over HTTP for a test file: a fresh SQLite file in a temporary DATA_DIR, or,
// when TEST_DATABASE_URL points at a PostgreSQL cluster, a fresh database created for the file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApp } from '../../server/src/app';
import { loadConfig, type Config } from '../../server/src/config';

export const ADMIN_PASSWORD = 'admin-test-password';
/** The demo staff member's password for tests that log in as `staff` (DEMO_STAFF_PASSWORD). */
export const DEMO_STAFF_PASSWORD = 'staff-test-password';

export interface CallResult<T = unknown> {
  status: number;
  body: { code: number; msg: string; data: T; total?: number; errors?: { field: string; msg: string }[] };
  headers: Headers;
}

/** A browser-like client: keeps the session cookie between calls. */
export class Client {
  cookie = '';
  constructor(readonly baseUrl: string) {}

  async call<T = unknown>(pathName: string, body?: unknown, init: RequestInit = {}): Promise<CallResult<T>> {
    const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
    if (this.cookie) headers.cookie = this.cookie;
    if (body !== undefined && typeof body !== 'string') headers['content-type'] = 'application/json';
    const res = await fetch(this.baseUrl + pathName, {
      method: init.method ?? 'POST',
      ...init,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) {
      const pair = setCookie.split(';')[0]!;
      this.cookie = pair.endsWith('=') ? '' : pair;
    }
    const text = await res.text();
    let parsed: CallResult<T>['body'];
    try {
      parsed = JSON.parse(text) as CallResult<T>['body'];
    } catch {
      parsed = { code: -1, msg: text, data: undefined as T };
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  get<T = unknown>(pathName: string, query: Record<string, string | number> = {}) {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    return this.call<T>(qs ? `${pathName}?${qs}` : pathName, undefined, { method: 'GET' });
  }

  async login(UserName: string, Password: string) {
    const res = await this.call('/Ajax/Login', { UserName, Password });
    if (res.status !== 200) throw new Error(`login ${UserName} failed: ${res.status} ${res.body.msg}`);
    return res;
  }
}

export interface TestServer {
  url: string;
  config: Config;
  dialect: 'sqlite' | 'postgres';
  /** A new client logged in as the built-in administrator. */
  admin(): Promise<Client>;
  client(): Client;
  /** Creates a member with the given module permissions and returns a client logged in as them. */
  member(modules: Record<string, string>, extra?: Record<string, unknown>): Promise<Client & { auName: string }>;
  close(): Promise<void>;
  app: Awaited<ReturnType<typeof buildApp>>['app'];
  /** The demo staff member's password when the server made it up (DEMO_DATA without DEMO_STAFF_PASSWORD). */
  generatedDemoStaffPassword?: string | undefined;
}

export async function freshPostgres(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

let memberCount = 0;

/**
 * `host`: the address to listen on, 127.0.0.1 unless told (`::1` for clients on IPv6 loopback
 * addresses); `url` names it.
 */
export async function startServer(env: Record<string, string> = {}, { host = '127.0.0.1' }: { host?: string } = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-test-'));
  const pgUrl = process.env.TEST_DATABASE_URL;
  const database = pgUrl ? await freshPostgres(pgUrl) : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_PASSWORD,
    DEMO_DATA: '0',
    LOG: '0',
    PORT: '0',
    PUBLIC_DIR: path.join(dataDir, 'no-public'),
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  const { app, generatedDemoStaffPassword } = await buildApp(config);
  await app.listen({ port: 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  // One administrator's session makes the members (each login is a scrypt hash: a tenth of a second).
  let membersAdminClient: Promise<Client> | undefined;
  const membersAdmin = () => (membersAdminClient ??= server.admin());
  const server: TestServer = {
    url,
    config,
    app,
    generatedDemoStaffPassword,
    dialect: database ? 'postgres' : 'sqlite',
    client: () => new Client(url),
    async admin() {
      const c = new Client(url);
      await c.login('admin', ADMIN_PASSWORD);
      return c;
    },
    async member(modules, extra = {}) {
      const n = ++memberCount;
      const UserName = `m${n}_${randomBytes(3).toString('hex')}`;
      const AuName = `成员${n}`;
      const add = async () =>
        (await membersAdmin()).call('/Ajax/AddMember', {
          UserName,
          AuName,
          OrganizationName: '测试部',
          Password: 'password-123',
          IsAdmin: 0,
          Modules: modules,
          ...extra,
        });
      let res = await add();
      // The kept administrator's session ended (a test changed that password or ended its sessions).
      if (res.status === 401) {
        membersAdminClient = undefined;
        res = await add();
      }
      if (res.status !== 200) throw new Error(`AddMember failed: ${res.status} ${res.body.msg}`);
      const c = new Client(url) as Client & { auName: string };
      c.auName = AuName;
      await c.login(UserName, 'password-123');
      return c;
    },
    async close() {
      await app.close();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

export interface SharedDatabase {
  dialect: 'sqlite' | 'postgres';
  dataDir: string;
  /** Variables that point a server process at this database and DATA_DIR. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * One database and one DATA_DIR for several server processes: the SQLite file of a new DATA_DIR,
 * or a fresh PostgreSQL database when TEST_DATABASE_URL is set.
 */
export async function sharedDatabase(prefix: string): Promise<SharedDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const pgUrl = process.env.TEST_DATABASE_URL;
  const database = pgUrl ? await freshPostgres(pgUrl) : undefined;
  return {
    dialect: database ? 'postgres' : 'sqlite',
    dataDir,
    env: { DATA_DIR: dataDir, PUBLIC_DIR: path.join(dataDir, 'no-public'), ADMIN_PASSWORD, ...(database ? { DATABASE_URL: database.url } : {}) },
    async close() {
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Waits until `check` holds, polling every 200 ms; fails with `what` after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
