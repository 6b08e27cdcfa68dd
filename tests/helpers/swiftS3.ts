// A second S3 protocol peer for the tests of the `s3` driver: OpenStack Swift's S3 API (the s3api
// middleware), from Debian's python3-swift, one node on loopback (tests/helpers/swift-s3.py).
// Where s3rver stops short, it implements ListParts and AbortMultipartUpload, verifies SigV4
// signatures (presigned URLs included, so a body of another Content-Length than signed is
// refused), compares part ETags at completion and refuses parts under 5 MiB.
//
// scripts/test.sh installs python3-swift when we are root (scripts/ensure-swift.sh). Without it
// the suites on this peer are skipped, unless REQUIRE_S3_PEER=1: then starting it fails the tests.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { LocalS3 } from './s3rver';

const LAUNCHER = path.join(import.meta.dirname, 'swift-s3.py');
/** Debian's interpreter: python3-swift installs into its dist-packages (a pyenv python3 lacks it). */
const PYTHON = process.env.SWIFT_PYTHON || '/usr/bin/python3';
const REQUIRED = process.env.REQUIRE_S3_PEER === '1';

let missing: string | undefined | null = null;

/** Why the Swift peer cannot run here, or undefined when it can (checked once, without starting it). */
export function swiftS3Missing(): string | undefined {
  if (missing === null) {
    const probe = spawnSync(PYTHON, ['-c', 'import importlib.util as u, sys; sys.exit(0 if u.find_spec("swift") and u.find_spec("eventlet") else 3)'], {
      stdio: 'ignore',
      timeout: 30000,
    });
    missing =
      probe.status === 0
        ? undefined
        : `OpenStack Swift not found for ${PYTHON}: install Debian's package python3-swift (apt-get install python3-swift) to run the S3 tests on Swift's S3 API`;
  }
  return missing;
}

/**
 * Whether the suites on the Swift peer are skipped: the peer is missing and REQUIRE_S3_PEER is not
 * set. With REQUIRE_S3_PEER=1 they run, and startSwiftS3 throws the reason.
 */
export function skipSwiftS3(): string | false {
  const reason = swiftS3Missing();
  if (!reason || REQUIRED) return false;
  console.warn(`S3 tests on Swift SKIPPED: ${reason} (REQUIRE_S3_PEER=1 makes this a failure).`);
  return reason;
}

interface Handshake {
  port: number;
  accessKeyId: string;
  secretAccessKey: string;
  account: string;
}

/**
 * Starts Swift with its S3 API on a free loopback port, over a temporary folder, with `bucket`
 * created world-readable: files are read anonymously through Swift's own API, named as the CDN
 * or custom domain would be (S3_PUBLIC_BASE_URL), as S3 itself serves no anonymous reads.
 */
export async function startSwiftS3(bucket = 'media'): Promise<LocalS3> {
  const reason = swiftS3Missing();
  if (reason) throw new Error(`${reason}${REQUIRED ? ' (REQUIRE_S3_PEER=1)' : ''}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'swift-s3-'));
  const child = spawn(PYTHON, [LAUNCHER, dir], {
    // stdin stays open: the peer ends when it closes, should this process die without close().
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, EVENTLET_NO_GREENDNS: 'yes', PYTHONDONTWRITEBYTECODE: '1' },
  });
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const cleanUp = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };

  let hello: Handshake;
  try {
    hello = await new Promise<Handshake>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error('Swift did not start within 120 s')), 120000);
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const line = out.split('\n')[0];
        if (out.includes('\n') && line) {
          clearTimeout(timer);
          try {
            resolve(JSON.parse(line) as Handshake);
          } catch {
            reject(new Error(`unexpected output from ${LAUNCHER}: ${line}`));
          }
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`Swift exited before it listened (${signal ?? `exit ${code}`})`));
      });
      child.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
    const endpoint = `http://127.0.0.1:${hello.port}`;
    const client = new S3Client({
      region: 'us-east-1',
      endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: hello.accessKeyId, secretAccessKey: hello.secretAccessKey },
    });
    try {
      // Swift maps the public-read ACL to a container read ACL (.r:*) for anonymous reads.
      await client.send(new CreateBucketCommand({ Bucket: bucket, ACL: 'public-read' }));
    } finally {
      client.destroy();
    }
  } catch (err) {
    await cleanUp();
    throw new Error(`${(err as Error).message}\n--- Swift's log:\n${log}`, { cause: err });
  }

  const endpoint = `http://127.0.0.1:${hello.port}`;
  return {
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: hello.accessKeyId,
      S3_SECRET_ACCESS_KEY: hello.secretAccessKey,
      S3_FORCE_PATH_STYLE: '1',
      S3_PUBLIC_BASE_URL: `${endpoint}/v1/${hello.account}/${bucket}`,
    },
    close: cleanUp,
  };
}
