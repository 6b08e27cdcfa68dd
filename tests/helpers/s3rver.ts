// An S3-protocol server on loopback (s3rver) for the tests of the `s3` driver, and the server
// environment that points a test server at it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

export interface LocalS3 {
  /** Variables of the `s3` driver for startServer. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startS3rver(bucket = 'media'): Promise<LocalS3> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  // s3rver ships no type declarations; only run() and close() are used.
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
  const s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: bucket }] });
  const { port } = await s3.run();
  return {
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: '1',
    },
    async close() {
      await s3.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A test server on the driver under test: local disk, or the s3 driver over s3rver. */
export async function storageEnv(driver: 'local' | 's3'): Promise<LocalS3> {
  if (driver === 's3') return startS3rver();
  return { env: {}, close: async () => {} };
}
