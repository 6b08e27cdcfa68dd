// Start-up variables of API.md, read once and validated, so a typo fails at start and not at first use.
import path from 'node:path';
import { parseAllowedOrigins } from './plugins/security';
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
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  storage: 'local' | 's3';
  s3?: S3Config;
  adminPassword?: string;
  demoData: boolean;
  /** Folder of the built admin app served at `/`. */
  publicDir: string;
  /** Mark the session cookie Secure (set when served over https). */
  cookieSecure: boolean;
  /** Log requests (off in tests). */
  logger: boolean;
  /** Part size in bytes of uploads in parts (UPLOAD_PART_SIZE). */
  uploadPartSize: number;
  /** Other origins allowed to send state-changing calls (ALLOWED_ORIGINS); the server's own always is. */
  allowedOrigins: string[];
}

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return !['0', 'false', 'no', 'off'].includes(value.toLowerCase());
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
    demoData: flag(env.DEMO_DATA, true),
    publicDir: path.resolve(env.PUBLIC_DIR || './dist'),
    cookieSecure: flag(env.COOKIE_SECURE, false),
    logger: flag(env.LOG, true),
    uploadPartSize: partSizeFromEnv(env),
    allowedOrigins: parseAllowedOrigins(env.ALLOWED_ORIGINS),
  };
}
