// The s3 driver against a real S3 protocol server: s3rver on a temporary folder by default, or
// any S3-compatible service named by S3_TEST_ENDPOINT (MinIO…), with S3_TEST_BUCKET (existing),
// S3_TEST_ACCESS_KEY_ID, S3_TEST_SECRET_ACCESS_KEY, S3_TEST_REGION and S3_TEST_FORCE_PATH_STYLE.
//
// s3rver 3.7 does not verify SigV4 signatures (a zeroed X-Amz-Signature is accepted) nor POST
// policies, so the test that a body of the wrong size is refused only runs against a real service.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { mp4Bytes } from './helpers/bytes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config, S3Config } from '../server/src/config';
import { prepareUpload } from '../server/src/storage/policies';
import { createStorage } from '../server/src/storage/index';
import { S3Storage, publicBaseUrl } from '../server/src/storage/s3';

// s3rver ships no type declarations; only these two methods are used.
interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

const external = process.env.S3_TEST_ENDPOINT;
let server: S3rverInstance | undefined;
let dir: string;
let config: S3Config;
let storage: S3Storage;


/** Sends the bytes exactly as the admin app does from the SignUpload answer. */
function sendAsBrowser(signed: { Method: string; Url: string; Headers: Record<string, string>; Fields: Record<string, string> }, bytes: Buffer, type: string) {
  const file = new Blob([new Uint8Array(bytes)], { type });
  if (signed.Method === 'POST') {
    const form = new FormData();
    for (const [name, value] of Object.entries(signed.Fields)) form.append(name, value);
    form.append('file', file, 'upload');
    return fetch(signed.Url, { method: 'POST', body: form });
  }
  return fetch(signed.Url, { method: signed.Method, headers: signed.Headers, body: file });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'storage-s3-'));
  if (external) {
    config = {
      endpoint: external,
      region: process.env.S3_TEST_REGION || 'us-east-1',
      bucket: process.env.S3_TEST_BUCKET || 'test-bucket',
      accessKeyId: process.env.S3_TEST_ACCESS_KEY_ID,
      secretAccessKey: process.env.S3_TEST_SECRET_ACCESS_KEY,
      forcePathStyle: process.env.S3_TEST_FORCE_PATH_STYLE !== '0',
    };
  } else {
    const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
    server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: dir,
      configureBuckets: [{ name: 'test-bucket' }],
    });
    const { port } = await server.run();
    config = {
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      bucket: 'test-bucket',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    };
  }
  storage = new S3Storage(config);
});

afterAll(async () => {
  storage?.client.destroy();
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('s3 storage', () => {
  it('is chosen by STORAGE=s3', async () => {
    const driver = await createStorage({ storage: 's3', s3: config, dataDir: dir } as Config, Buffer.alloc(32));
    expect(driver.name).toBe('s3');
    expect(driver).toBeInstanceOf(S3Storage);
  });

  it('signs a PUT whose signature covers the exact size and the content type', async () => {
    const prepared = prepareUpload({ FileName: 'lesson.mp4', Size: 1234, ContentType: 'video/mp4', Kind: 'video' });
    const signed = await storage.signUpload(prepared);
    expect(signed.Method).toBe('PUT');
    expect(signed.Headers).toEqual({ 'Content-Type': 'video/mp4' });
    expect(signed.Fields).toEqual({});
    const url = new URL(signed.Url);
    expect(`${url.origin}${url.pathname}`).toBe(storage.fileUrl(prepared.key));
    expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('3600');
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual(
      expect.arrayContaining(['content-length', 'content-type', 'host']),
    );
    // No checksum of an empty body hoisted into the URL (it would make every real upload fail).
    expect([...url.searchParams.keys()].filter((k) => k.toLowerCase().includes('checksum'))).toEqual([]);
  });

  it('stores a file sent as a browser would, readable at fileUrl, and removes it', async () => {
    const bytes = mp4Bytes(2048);
    const prepared = prepareUpload({ FileName: 'lesson.mp4', Size: bytes.length, ContentType: 'video/mp4', Kind: 'video' });
    const res = await sendAsBrowser(await storage.signUpload(prepared), bytes, 'video/mp4');
    expect(res.ok).toBe(true);
    expect(await storage.exists(prepared.key)).toBe(true);

    const url = storage.fileUrl(prepared.key);
    expect(url).toBe(`${config.endpoint}/${config.bucket}/${prepared.key}`);
    expect(storage.keyOf(url)).toBe(prepared.key);
    if (!external) {
      // s3rver serves objects anonymously; a real bucket needs a public-read policy or a CDN.
      const got = await fetch(url);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe('video/mp4');
      expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    }

    await storage.remove(prepared.key);
    expect(await storage.exists(prepared.key)).toBe(false);
    if (!external) expect((await fetch(url)).status).toBe(404);
    await storage.remove(prepared.key); // removing twice is harmless
  });

  it.skipIf(!external)('has a body of another size refused by the S3 server, storing nothing', async () => {
    const prepared = prepareUpload({ FileName: 'lesson.mp4', Size: 1000, ContentType: 'video/mp4', Kind: 'video' });
    const signed = await storage.signUpload(prepared);
    const larger = await sendAsBrowser(signed, mp4Bytes(5000), 'video/mp4');
    expect(larger.status).toBe(403);
    const smaller = await sendAsBrowser(signed, mp4Bytes(10), 'video/mp4');
    expect(smaller.status).toBe(403);
    const otherType = await sendAsBrowser({ ...signed, Headers: { 'Content-Type': 'text/html' } }, mp4Bytes(1000), 'text/html');
    expect(otherType.status).toBe(403);
    expect(await storage.exists(prepared.key)).toBe(false);
  });

  it('streams a local file in with putFile', async () => {
    const src = path.join(dir, 'poster.png');
    const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(300 * 1024)]);
    await writeFile(src, bytes);
    const key = prepareUpload({ FileName: 'poster.png', Size: bytes.length, Kind: 'image' }).key;
    await storage.putFile(key, src, 'image/png');
    expect(await storage.exists(key)).toBe(true);
    if (!external) {
      const got = await fetch(storage.fileUrl(key));
      expect(got.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    }
    await storage.remove(key);
    expect(await storage.exists(key)).toBe(false);
  });

  it('refuses keys that are not ours', async () => {
    expect(storage.keyOf('https://evil.example.com/video/a.mp4')).toBeUndefined();
    expect(storage.keyOf(`${config.endpoint}/${config.bucket}/../x`)).toBeUndefined();
    expect(await storage.exists('../x')).toBe(false);
    await expect(storage.remove('../x')).rejects.toThrow();
  });
});

describe('s3 file URLs', () => {
  const key = 'video/2026/11/0b5c1f8e-5d7e-4c1a-9d3b-2f6a7e8c9d01.mp4';
  const base: S3Config = { region: 'cn-hangzhou', bucket: 'zhishi', forcePathStyle: false };

  it('uses S3_PUBLIC_BASE_URL when set (CDN or custom domain)', () => {
    const s = new S3Storage({ ...base, endpoint: 'https://s3.oss-cn-hangzhou.aliyuncs.com', publicBaseUrl: 'https://cdn.example.com/media/' });
    expect(s.fileUrl(key)).toBe(`https://cdn.example.com/media/${key}`);
    expect(s.keyOf(`https://cdn.example.com/media/${key}`)).toBe(key);
    expect(s.keyOf(`https://zhishi.s3.oss-cn-hangzhou.aliyuncs.com/${key}`)).toBeUndefined();
  });

  it('uses the endpoint: path style for MinIO, virtual-hosted for Aliyun OSS', () => {
    expect(publicBaseUrl({ ...base, endpoint: 'http://minio.local:9000', forcePathStyle: true })).toBe('http://minio.local:9000/zhishi');
    expect(publicBaseUrl({ ...base, endpoint: 'http://10.0.0.5:9000' })).toBe('http://10.0.0.5:9000/zhishi');
    expect(publicBaseUrl({ ...base, endpoint: 'https://s3.oss-cn-hangzhou.aliyuncs.com' })).toBe('https://zhishi.s3.oss-cn-hangzhou.aliyuncs.com');
  });

  it("falls back to AWS's virtual-hosted URL", () => {
    const s = new S3Storage({ ...base, region: 'eu-west-1' });
    expect(s.fileUrl(key)).toBe(`https://zhishi.s3.eu-west-1.amazonaws.com/${key}`);
    expect(s.keyOf(s.fileUrl(key))).toBe(key);
  });
});
