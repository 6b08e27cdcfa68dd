// Start-up variables (environment), read once and validated, so a typo fails at start, not at first use.
import path from 'node:path';
import { DEFAULT_TIME_ZONE, isTimeZone } from '../../schemas/businessTime';
import { DEFAULT_LIST_MAX_BYTES } from '../../schemas/lists';
import { usableCpus } from './cpus';

/** Rows of an Excel sheet (1,048,576) but its header row. */
export const EXCEL_MAX_DATA_ROWS = 1_048_575;

export interface S3Config {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Base URL that files are read from (a CDN or the bucket's public URL). */
  publicBaseUrl?: string;
  forcePathStyle: boolean;
  /**
   * S3_READ: how browsers read files. 'private' (default): the bucket stays private, records hold
   * `/files/<key>` and the server answers a signed-in member with a redirect to a short-lived
   * presigned GET. 'public': records hold `<public base URL>/<key>`, read straight from a public
   * bucket or CDN. loadConfig always sets it; left out (an S3Storage made directly), it is 'public'.
   */
  read?: 'private' | 'public';
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  storage: 'local' | 's3';
  s3?: S3Config;
  adminPassword?: string;
  /** Password of the demo staff member, set when the demo data creates it (DEMO_STAFF_PASSWORD); unset: a random one, printed once. */
  demoStaffPassword?: string;
  demoData: boolean;
  /** Folder of the built admin app served at `/`. */
  publicDir: string;
  /** Mark the session cookie Secure (set when served over https). */
  cookieSecure: boolean;
  /** What the log shows (LOG): errors, warnings too (the default), or a line per request too. */
  log: LogMode;
  /** The business time zone (TIME_ZONE): "today", day boundaries, every date and time shown. */
  timeZone: string;
  /** Part size in bytes of uploads in parts (UPLOAD_PART_SIZE). */
  uploadPartSize: number;
  /** Bytes a member may upload in 24 hours (UPLOAD_QUOTA_MB_PER_DAY, default 5120 MB); 0: no limit. */
  uploadQuotaBytesPerDay: number;
  /** Keep sessions and list answers between calls while the SQLite file is unchanged (READ_CACHE, on by default). */
  readCache: boolean;
  /** Connections each process keeps open to PostgreSQL (DATABASE_POOL_SIZE). */
  poolSize: number;
  /**
   * Which proxies' X-Forwarded-For to believe (TRUST_PROXY): false, a hop count, or addresses and
   * CIDR ranges. Behind a load balancer the socket's address is the balancer's, so without this
   * every client would share one address in the login throttle.
   */
  trustProxy: boolean | number | string;
  /**
   * Bits of an IPv6 address that make one client of the login limits (LOGIN_IPV6_PREFIX, 64, from
   * 32 to 128): a subscriber holds a whole /64 and sends from any address of it. IPv4 addresses
   * are each a client.
   */
  loginIpv6Prefix: number;
  /** Other origins allowed to send state-changing calls (ALLOWED_ORIGINS); the server's own always is. */
  allowedOrigins: string[];
  /** Host names the server answers (ALLOWED_HOSTS); empty: any. */
  allowedHosts: string[];
  /** Milliseconds a call's body may take to arrive (BODY_TIMEOUT in seconds, 30). */
  bodyTimeoutMs: number;
  /** Slowest average rate, bytes a second, at which an upload's body may arrive (UPLOAD_MIN_RATE, 32768). */
  uploadMinRate: number;
  /**
   * Pages the server renders at once for one member, in each process (RENDER_PER_MEMBER, 2); the
   * member's other page loads get the plain app, which asks for its data itself. 0: no page rendered.
   */
  renderPerMember: number;
  /** Milliseconds a page's render may take before the plain app goes out instead (RENDER_BUDGET_MS, 1000). */
  renderBudgetMs: number;
  /** Bytes of one list answer at most (LIST_MAX_BYTES, 4 MiB): rows past it are left to further calls. */
  listMaxBytes: number;
  /**
   * Rows of one export (导出) at most (EXPORT_MAX_ROWS): Excel's sheet holds 1,048,576 rows, the
   * header included. A lower value refuses larger exports sooner.
   */
  exportMaxRows: number;
  /**
   * Characters of rich text a member may have waiting or being sanitised in this process, each text
   * weighing 1,000 more (RICH_TEXT_QUEUE_PER_MEMBER, 1,000,000); past it 429.
   */
  richTextQueuePerMember: number;
  /** The same for the whole process (RICH_TEXT_QUEUE_TOTAL, 8,000,000); past it 503. */
  richTextQueueTotal: number;
  /** Server processes (WORKERS, one per core by default): 1 runs one process, more a cluster of workers (cluster.ts). */
  workers: number;
  /**
   * Whether this process does the start-up work that one process does for all: migrations, the
   * built-in administrator, demo data, expired sessions. Always true from loadConfig; cluster.ts
   * turns it off in workers, whose primary did it before forking them. Not an environment variable.
   */
  startupWork: boolean;
  /**
   * Whether this process removes stale uploads: partial local uploads and uploads in parts abandoned
   * for a day (at start), unreferenced files (at start and every 10 minutes); and login-limit rows
   * whose window has passed (at start and every 15 minutes, routes/auth.ts). Always true from
   * loadConfig; in a cluster one worker at a time does it (cluster.ts). Not an environment variable.
   */
  housekeeping: boolean;
}

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return !['0', 'false', 'no', 'off'].includes(value.toLowerCase());
}

/** TRUST_PROXY: unset or 0/false: none; a number: that many hops; otherwise an address list for Fastify. */
function trustProxyFrom(value: string | undefined): Config['trustProxy'] {
  if (value === undefined || value === '' || ['0', 'false', 'no', 'off'].includes(value.toLowerCase())) return false;
  if (/^\d+$/.test(value)) return Number(value);
  // 'true' means the balancer in front: one hop. Fastify's own `true` would believe the leftmost
  // X-Forwarded-For entry, which any client can write.
  if (['true', 'yes', 'on'].includes(value.toLowerCase())) return 1;
  if (!/^[0-9A-Fa-f:.,/ a-z]+$/.test(value)) {
    throw new Error(`TRUST_PROXY must be a hop count or addresses/CIDR ranges separated by commas, got ${value}`);
  }
  return value;
}

/** S3_READ: private (default) or public. */
function s3ReadFrom(value: string | undefined): 'private' | 'public' {
  if (value === undefined || value === '') return 'private';
  if (value !== 'private' && value !== 'public') throw new Error(`S3_READ must be private or public, got ${value}`);
  return value;
}

/** Ten 500 MB videos a day, far beyond what staff upload; an account that reaches it is misused (docs/storage.md). */
export const DEFAULT_UPLOAD_QUOTA_MB = 5120;

const KiB = 1024;
const MiB = 1024 * KiB;

/** S3 refuses parts under 5 MiB (except the last); 10 MiB keeps a 500 MB video under 50 parts. */
export const DEFAULT_PART_SIZE = 10 * MiB;
/** Smallest size UPLOAD_PART_SIZE accepts: small parts are for tests (local driver, s3rver). */
const MIN_PART_SIZE = 64 * KiB;
const MAX_PART_SIZE = 512 * MiB;

/** UPLOAD_PART_SIZE in bytes (default 10 MiB); a wrong value fails at start, not at first upload. */
export function partSizeFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.UPLOAD_PART_SIZE;
  if (raw === undefined || raw === '') return DEFAULT_PART_SIZE;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < MIN_PART_SIZE || value > MAX_PART_SIZE) {
    throw new Error(`UPLOAD_PART_SIZE must be a byte count from ${MIN_PART_SIZE} to ${MAX_PART_SIZE}, got ${raw}`);
  }
  return value;
}

/** Parses ALLOWED_ORIGINS (comma-separated origins); a malformed entry fails at start. */
export function parseAllowedOrigins(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      let url: URL;
      try {
        url = new URL(entry);
      } catch {
        throw new Error(`ALLOWED_ORIGINS: "${entry}" is not an origin such as https://admin.example.com`);
      }
      if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== entry.replace(/\/$/, '')) {
        throw new Error(`ALLOWED_ORIGINS: "${entry}" is not an origin such as https://admin.example.com`);
      }
      return url.origin;
    });
}

/**
 * Parses ALLOWED_HOSTS: comma-separated host names (a port is not part of an entry: any port of a
 * listed name is its), a leading dot for every subdomain of a name (".intra.example"), addresses as
 * they appear in a Host header. A malformed entry fails at start.
 */
export function parseAllowedHosts(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)
    .map((entry) => {
      if (!/^\.?(?:[a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/.test(entry)) {
        throw new Error(`ALLOWED_HOSTS: "${entry}" is not a host name such as admin.example.com or .example.com`);
      }
      return entry;
    });
}

/**
 * Rich text a member may have waiting or being sanitised (RICH_TEXT_QUEUE_PER_MEMBER): about ten
 * of the longest texts (three articles of three long fields), or a thousand short comments: more
 * than a person saves at once. At 2-3 s for the densest text, its own last text waits some 25 s.
 */
export const DEFAULT_RICH_TEXT_QUEUE_PER_MEMBER = 1_000_000;
/**
 * Rich text the process holds waiting or being sanitised (RICH_TEXT_QUEUE_TOTAL): eight members at
 * their share, some 40 MB with their requests.
 */
export const DEFAULT_RICH_TEXT_QUEUE_TOTAL = 8_000_000;

/** TIME_ZONE: an IANA zone the runtime knows (Asia/Shanghai by default); a wrong name fails at start. */
function timeZoneFrom(value: string | undefined): string {
  const zone = value?.trim() || DEFAULT_TIME_ZONE;
  if (!isTimeZone(zone)) throw new Error(`TIME_ZONE must be a time zone such as ${DEFAULT_TIME_ZONE}, got ${value}`);
  return zone;
}

/** LOG: `errors` (0), `warnings` (the default) or `requests` (1): each adds to the one before. */
export type LogMode = 'errors' | 'warnings' | 'requests';

/** LOG: 1 (or requests) adds a line per request; 0 (or errors) leaves errors only; unset: warnings and errors. */
function logModeFrom(value: string | undefined): LogMode {
  const word = value?.trim().toLowerCase() ?? '';
  if (word === '' || word === 'warnings') return 'warnings';
  if (['1', 'true', 'yes', 'on', 'requests'].includes(word)) return 'requests';
  if (['0', 'false', 'no', 'off', 'errors'].includes(word)) return 'errors';
  throw new Error(`LOG must be 1 (a line per request too), 0 (errors only) or empty (warnings and errors), got ${value}`);
}

/** UPLOAD_QUOTA_MB_PER_DAY in bytes: whole megabytes (MiB), 0 for no limit. */
function quotaFrom(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_UPLOAD_QUOTA_MB * 1024 * 1024;
  const mb = Number(value);
  if (!Number.isSafeInteger(mb) || mb < 0 || mb > 1024 * 1024) {
    throw new Error(`UPLOAD_QUOTA_MB_PER_DAY must be a whole number of megabytes (0 for no limit), got ${value}`);
  }
  return mb * 1024 * 1024;
}

/** Two renders at once: a member's second tab renders while the first still does; more is one person's load on every core. */
export const DEFAULT_RENDER_PER_MEMBER = 2;
/** Past a second the browser renders the page itself about as soon (0.9–1.4 s on an office PC, src/ssr/render.tsx). */
export const DEFAULT_RENDER_BUDGET_MS = 1000;

/** More workers than this is a typo, not a machine: each one is a full server process. */
export const MAX_WORKERS = 256;

/** A whole number from min to max, or the fallback when unset. */
function wholeNumber(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be a whole number from ${min} to ${max}, got ${value}`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const storage = (env.STORAGE ?? 'local') as Config['storage'];
  if (storage !== 'local' && storage !== 's3') throw new Error(`STORAGE must be local or s3, got ${env.STORAGE}`);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must start with postgres:// (unset it to use the embedded SQLite)');
  }
  const poolSize = Number(env.DATABASE_POOL_SIZE || 10);
  if (!Number.isInteger(poolSize) || poolSize < 1 || poolSize > 1000) {
    throw new Error(`DATABASE_POOL_SIZE must be a whole number from 1 to 1000, got ${env.DATABASE_POOL_SIZE}`);
  }
  const richTextQueueTotal = wholeNumber('RICH_TEXT_QUEUE_TOTAL', env.RICH_TEXT_QUEUE_TOTAL, DEFAULT_RICH_TEXT_QUEUE_TOTAL, 1, 1_000_000_000);
  const richTextQueuePerMember = wholeNumber(
    'RICH_TEXT_QUEUE_PER_MEMBER',
    env.RICH_TEXT_QUEUE_PER_MEMBER,
    Math.min(DEFAULT_RICH_TEXT_QUEUE_PER_MEMBER, richTextQueueTotal),
    1,
    richTextQueueTotal,
  );
  let s3: S3Config | undefined;
  if (storage === 's3') {
    if (!env.S3_BUCKET) throw new Error('STORAGE=s3 needs S3_BUCKET');
    s3 = {
      endpoint: env.S3_ENDPOINT || undefined,
      region: env.S3_REGION || 'us-east-1',
      bucket: env.S3_BUCKET,
      accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
      publicBaseUrl: env.S3_PUBLIC_BASE_URL || undefined,
      forcePathStyle: flag(env.S3_FORCE_PATH_STYLE, false),
      read: s3ReadFrom(env.S3_READ),
    };
  }
  return {
    port,
    host: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    storage,
    s3,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    demoStaffPassword: env.DEMO_STAFF_PASSWORD || undefined,
    demoData: flag(env.DEMO_DATA, true),
    publicDir: path.resolve(env.PUBLIC_DIR || './dist'),
    cookieSecure: flag(env.COOKIE_SECURE, false),
    log: logModeFrom(env.LOG),
    timeZone: timeZoneFrom(env.TIME_ZONE),
    uploadPartSize: partSizeFromEnv(env),
    uploadQuotaBytesPerDay: quotaFrom(env.UPLOAD_QUOTA_MB_PER_DAY),
    readCache: flag(env.READ_CACHE, true),
    poolSize,
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    loginIpv6Prefix: wholeNumber('LOGIN_IPV6_PREFIX', env.LOGIN_IPV6_PREFIX, 64, 32, 128),
    allowedOrigins: parseAllowedOrigins(env.ALLOWED_ORIGINS),
    allowedHosts: parseAllowedHosts(env.ALLOWED_HOSTS),
    bodyTimeoutMs: wholeNumber('BODY_TIMEOUT', env.BODY_TIMEOUT, 30, 1, 3600) * 1000,
    uploadMinRate: wholeNumber('UPLOAD_MIN_RATE', env.UPLOAD_MIN_RATE, 32 * 1024, 1, 1024 * 1024 * 1024),
    renderPerMember: wholeNumber('RENDER_PER_MEMBER', env.RENDER_PER_MEMBER, DEFAULT_RENDER_PER_MEMBER, 0, 100),
    renderBudgetMs: wholeNumber('RENDER_BUDGET_MS', env.RENDER_BUDGET_MS, DEFAULT_RENDER_BUDGET_MS, 1, 60_000),
    listMaxBytes: wholeNumber('LIST_MAX_BYTES', env.LIST_MAX_BYTES, DEFAULT_LIST_MAX_BYTES, 16 * 1024, 1024 * 1024 * 1024),
    exportMaxRows: wholeNumber('EXPORT_MAX_ROWS', env.EXPORT_MAX_ROWS, EXCEL_MAX_DATA_ROWS, 1, EXCEL_MAX_DATA_ROWS),
    richTextQueuePerMember,
    richTextQueueTotal,
    // Node runs JavaScript on one core per process: one process per core the system lets us use
    // (a container's CPU quota included).
    workers: wholeNumber('WORKERS', env.WORKERS, usableCpus(), 1, MAX_WORKERS),
    startupWork: true,
    housekeeping: true,
  };
}
