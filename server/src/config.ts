// Start-up variables (environment), read once and validated, so a typo fails at start, not at first use.
import path from 'node:path';
import { usableCpus } from './cpus';
import { parseAllowedHosts, parseAllowedOrigins } from './plugins/security';
import { DEFAULT_RICH_TEXT_QUEUE_PER_MEMBER, DEFAULT_RICH_TEXT_QUEUE_TOTAL } from './richText';
import { partSizeFromEnv } from './storage/multipart';

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
  /** Log requests (off in tests). */
  logger: boolean;
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
  /** Other origins allowed to send state-changing calls (ALLOWED_ORIGINS); the server's own always is. */
  allowedOrigins: string[];
  /** Host names the server answers (ALLOWED_HOSTS); empty: any. */
  allowedHosts: string[];
  /** Milliseconds a call's body may take to arrive (BODY_TIMEOUT in seconds, 30). */
  bodyTimeoutMs: number;
  /** Slowest average rate, bytes a second, at which an upload's body may arrive (UPLOAD_MIN_RATE, 32768). */
  uploadMinRate: number;
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
   * for a day (at start), unreferenced files (at start and every 10 minutes). Always true from
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

/** UPLOAD_QUOTA_MB_PER_DAY in bytes: whole megabytes (MiB), 0 for no limit. */
function quotaFrom(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_UPLOAD_QUOTA_MB * 1024 * 1024;
  const mb = Number(value);
  if (!Number.isSafeInteger(mb) || mb < 0 || mb > 1024 * 1024) {
    throw new Error(`UPLOAD_QUOTA_MB_PER_DAY must be a whole number of megabytes (0 for no limit), got ${value}`);
  }
  return mb * 1024 * 1024;
}

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
    logger: flag(env.LOG, true),
    uploadPartSize: partSizeFromEnv(env),
    uploadQuotaBytesPerDay: quotaFrom(env.UPLOAD_QUOTA_MB_PER_DAY),
    readCache: flag(env.READ_CACHE, true),
    poolSize,
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    allowedOrigins: parseAllowedOrigins(env.ALLOWED_ORIGINS),
    allowedHosts: parseAllowedHosts(env.ALLOWED_HOSTS),
    bodyTimeoutMs: wholeNumber('BODY_TIMEOUT', env.BODY_TIMEOUT, 30, 1, 3600) * 1000,
    uploadMinRate: wholeNumber('UPLOAD_MIN_RATE', env.UPLOAD_MIN_RATE, 32 * 1024, 1, 1024 * 1024 * 1024),
    richTextQueuePerMember,
    richTextQueueTotal,
    // Node runs JavaScript on one core per process: one process per core the system lets us use
    // (a container's CPU quota included).
    workers: wholeNumber('WORKERS', env.WORKERS, usableCpus(), 1, MAX_WORKERS),
    startupWork: true,
    housekeeping: true,
  };
}
