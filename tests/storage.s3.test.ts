// The s3 driver against real S3 protocol servers, each on a temporary folder on loopback:
// - s3rver (npm), which implements CreateMultipartUpload, UploadPart and CompleteMultipartUpload
//   but answers ListParts and AbortMultipartUpload with 405, verifies no SigV4 signature (a zeroed
//   X-Amz-Signature is accepted), compares no part ETag and accepts parts of any size;
// - OpenStack Swift's S3 API (Debian's python3-swift, tests/helpers/swiftS3.ts), which does all
//   of that as AWS S3 does; skipped when not installed, unless REQUIRE_S3_PEER=1;
// - any S3-compatible service named by S3_TEST_ENDPOINT (MinIO, AWS…), with S3_TEST_BUCKET
//   (existing), S3_TEST_ACCESS_KEY_ID, S3_TEST_SECRET_ACCESS_KEY, S3_TEST_REGION and
//   S3_TEST_FORCE_PATH_STYLE, when set.
// The tests that s3rver cannot run are skipped on it only.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { mp4Bytes } from './helpers/bytes';
import { startS3rver, type LocalS3 } from './helpers/s3rver';
import { skipSwiftS3, startSwiftS3 } from './helpers/swiftS3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config, S3Config } from '../server/src/config';
import { ApiError } from '../server/src/errors';
import { MIN_S3_PART_SIZE, RejectedUpload } from '../server/src/storage/multipart';
import { prepareUpload } from '../server/src/storage/policies';
import { createStorage } from '../server/src/storage/index';
import { S3Storage, publicBaseUrl } from '../server/src/storage/s3';

interface Peer {
  name: string;
  /** A reason to skip this peer, or false. */
  skip: string | false;
  start(): Promise<LocalS3>;
  /** ListParts and AbortMultipartUpload, part ETags compared and the 5 MiB minimum at completion. */
  multipart: boolean;
  /** SigV4 signatures verified, presigned URLs included (a body of another size is refused). */
  verifiesSignatures: boolean;
  /** Files are read anonymously at the public URL (a real bucket needs a public-read policy or a CDN). */
  publicRead: boolean;
}

const external = process.env.S3_TEST_ENDPOINT;
const peers: Peer[] = [
  { name: 's3rver', skip: false, start: () => startS3rver('test-bucket'), multipart: false, verifiesSignatures: false, publicRead: true },
  { name: 'Swift s3api', skip: skipSwiftS3(), start: () => startSwiftS3('test-bucket'), multipart: true, verifiesSignatures: true, publicRead: true },
];
if (external) {
  const env = {
    STORAGE: 's3',
    S3_ENDPOINT: external,
    S3_REGION: process.env.S3_TEST_REGION || 'us-east-1',
    S3_BUCKET: process.env.S3_TEST_BUCKET || 'test-bucket',
    S3_ACCESS_KEY_ID: process.env.S3_TEST_ACCESS_KEY_ID ?? '',
    S3_SECRET_ACCESS_KEY: process.env.S3_TEST_SECRET_ACCESS_KEY ?? '',
    S3_FORCE_PATH_STYLE: process.env.S3_TEST_FORCE_PATH_STYLE === '0' ? '0' : '1',
  };
  peers.push({ name: external, skip: false, start: async () => ({ env, close: async () => {} }), multipart: true, verifiesSignatures: true, publicRead: false });
}

/** The driver's configuration from the server variables a helper gives. */
const configOf = (env: Record<string, string>): S3Config => ({
  endpoint: env.S3_ENDPOINT,
  region: env.S3_REGION || 'us-east-1',
  bucket: env.S3_BUCKET!,
  accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
  secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
  publicBaseUrl: env.S3_PUBLIC_BASE_URL || undefined,
  forcePathStyle: env.S3_FORCE_PATH_STYLE === '1',
});

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

/** PUTs one part to its signed URL as Uppy does (the Blob of the part, the signed headers). */
const putPart = (signed: { Url: string; Headers: Record<string, string> }, bytes: Buffer) =>
  fetch(signed.Url, { method: 'PUT', headers: signed.Headers, body: new Blob([new Uint8Array(bytes)]) });

/** The status of an ApiError the promise rejects with (other errors fail the test). */
async function apiStatus(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ApiError) return err.status;
    throw err;
  }
  throw new Error('expected an ApiError, got success');
}

const PART = MIN_S3_PART_SIZE;

describe.each(peers)('s3 storage on $name', (peer) => {
  let s3: LocalS3 | undefined;
  let dir: string;
  let config: S3Config;
  let storage: S3Storage;

  /** The bucket's public URL of a key (S3_PUBLIC_BASE_URL, or the path-style bucket URL). */
  const publicUrl = (key: string) => `${publicBaseUrl(config)}/${key}`;

  /** A stored file: read anonymously where the peer serves files so, else by a presigned GET. */
  const read = async (key: string) => {
    const res = await fetch(peer.publicRead ? publicUrl(key) : await storage.mediaSource(key));
    return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
  };

  /** The stored file reads back as `bytes`, typed as a video; then it is removed and gone. */
  async function expectStoredThenRemove(key: string, bytes: Buffer) {
    const got = await read(key);
    expect(got.status).toBe(200);
    expect(got.type).toBe('video/mp4');
    expect(got.bytes.equals(bytes)).toBe(true);
    await storage.remove(key);
    expect(await storage.exists(key)).toBe(false);
  }

  /** Signs and sends parts of `bytes` cut at `partSize`; returns them as completion lists them. */
  async function sendParts(key: string, uploadId: string, bytes: Buffer, partSize: number, numbers: number[]) {
    const parts = [];
    for (const n of numbers) {
      const body = bytes.subarray((n - 1) * partSize, n * partSize);
      const res = await putPart(await storage.signPart({ key, uploadId, partNumber: n, size: body.length }), body);
      expect(res.status, await res.clone().text()).toBe(200);
      const etag = res.headers.get('etag');
      expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
      parts.push({ PartNumber: n, ETag: etag!, Size: body.length });
    }
    return parts;
  }

  beforeAll(async () => {
    if (peer.skip) return;
    dir = await mkdtemp(path.join(os.tmpdir(), 'storage-s3-'));
    s3 = await peer.start();
    config = configOf(s3.env);
    storage = new S3Storage(config);
  });

  afterAll(async () => {
    storage?.client.destroy();
    await s3?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  describe.skipIf(peer.skip)('single PUT', () => {
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
      expect(`${url.origin}${url.pathname}`).toBe(`${config.endpoint}/${config.bucket}/${prepared.key}`);
      expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
      expect(url.searchParams.get('X-Amz-Expires')).toBe('3600');
      expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual(
        expect.arrayContaining(['content-length', 'content-type', 'host']),
      );
      // No checksum of an empty body hoisted into the URL (it would make every real upload fail).
      expect([...url.searchParams.keys()].filter((k) => k.toLowerCase().includes('checksum'))).toEqual([]);
    });

    it('stores a file sent as a browser would, reads it back and removes it', async () => {
      const bytes = mp4Bytes(2048);
      const prepared = prepareUpload({ FileName: 'lesson.mp4', Size: bytes.length, ContentType: 'video/mp4', Kind: 'video' });
      const res = await sendAsBrowser(await storage.signUpload(prepared), bytes, 'video/mp4');
      expect(res.status, await res.clone().text()).toBe(200);
      expect(await storage.exists(prepared.key)).toBe(true);
      expect(await storage.sizeOf(prepared.key)).toBe(bytes.length);

      expect(storage.keyOf(storage.fileUrl(prepared.key))).toBe(prepared.key);
      await expectStoredThenRemove(prepared.key, bytes);
      expect(await storage.sizeOf(prepared.key)).toBeUndefined();
      if (peer.publicRead) expect((await fetch(publicUrl(prepared.key))).status).toBe(404);
      await storage.remove(prepared.key); // removing twice is harmless
    });

    it.skipIf(!peer.verifiesSignatures)('has a body of another size or type refused by the S3 server, storing nothing', async () => {
      const prepared = prepareUpload({ FileName: 'lesson.mp4', Size: 1000, ContentType: 'video/mp4', Kind: 'video' });
      const signed = await storage.signUpload(prepared);
      const larger = await sendAsBrowser(signed, mp4Bytes(5000), 'video/mp4');
      expect(larger.status).toBe(403);
      const smaller = await sendAsBrowser(signed, mp4Bytes(10), 'video/mp4');
      expect(smaller.status).toBe(403);
      const otherType = await sendAsBrowser({ ...signed, Headers: { 'Content-Type': 'text/html' } }, mp4Bytes(1000), 'text/html');
      expect(otherType.status).toBe(403);
      const forged = new URL(signed.Url);
      forged.searchParams.set('X-Amz-Signature', '0'.repeat(64));
      expect((await sendAsBrowser({ ...signed, Url: forged.href }, mp4Bytes(1000), 'video/mp4')).status).toBe(403);
      expect(await storage.exists(prepared.key)).toBe(false);
      // The URL as signed still works: only the tampering was refused.
      expect((await sendAsBrowser(signed, mp4Bytes(1000), 'video/mp4')).status).toBe(200);
      expect(await storage.sizeOf(prepared.key)).toBe(1000);
      await storage.remove(prepared.key);
    });

    it.skipIf(!peer.verifiesSignatures)('fails loudly on wrong credentials instead of finding no file', async () => {
      const wrong = new S3Storage({ ...config, secretAccessKey: 'not-the-secret' });
      try {
        const err = await wrong.sizeOf('video/2026/01/0b5c1f8e-5d7e-4c1a-9d3b-2f6a7e8c9d01.mp4').then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).toMatchObject({ $metadata: { httpStatusCode: 403 } });
      } finally {
        wrong.client.destroy();
      }
    });

    it('streams a local file in with putFile', async () => {
      const src = path.join(dir, 'poster.png');
      const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(300 * 1024)]);
      await writeFile(src, bytes);
      const key = prepareUpload({ FileName: 'poster.png', Size: bytes.length, Kind: 'image' }).key;
      await storage.putFile(key, src, 'image/png');
      expect(await storage.exists(key)).toBe(true);
      const got = await read(key);
      expect(got.type).toBe('image/png');
      expect(got.bytes.equals(bytes)).toBe(true);
      await storage.remove(key);
      expect(await storage.exists(key)).toBe(false);
    });

    it('serves byte ranges at the presigned media URL (ffmpeg reads posters so)', async () => {
      const bytes = mp4Bytes(4096);
      const prepared = prepareUpload({ FileName: 'clip.mp4', Size: bytes.length, ContentType: 'video/mp4', Kind: 'video' });
      expect((await sendAsBrowser(await storage.signUpload(prepared), bytes, 'video/mp4')).status).toBe(200);
      const url = await storage.mediaSource(prepared.key);
      const ranged = await fetch(url, { headers: { Range: 'bytes=100-199' } });
      expect(ranged.status).toBe(206);
      expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);
      if (peer.verifiesSignatures) {
        const forged = new URL(url);
        forged.searchParams.set('X-Amz-Signature', '0'.repeat(64));
        expect((await fetch(forged)).status).toBe(403);
      }
      await storage.remove(prepared.key);
    });

    it('refuses keys that are not ours', async () => {
      expect(storage.keyOf('https://evil.example.com/video/a.mp4')).toBeUndefined();
      expect(storage.keyOf(publicUrl('../x'))).toBeUndefined();
      expect(await storage.exists('../x')).toBe(false);
      await expect(storage.remove('../x')).rejects.toThrow();
    });
  });

  describe.skipIf(peer.skip)('multipart', () => {
    it('joins presigned parts sent as the browser does, listing them, and checks the joined file', async () => {
      const bytes = mp4Bytes(2 * PART + 1000);
      const prepared = prepareUpload({ FileName: 'long.mp4', Size: bytes.length, ContentType: 'video/mp4', Kind: 'video' });
      const uploadId = await storage.createMultipartUpload(prepared);
      const ref = { key: prepared.key, uploadId };

      const signed = await storage.signPart({ ...ref, partNumber: 2, size: PART });
      const url = new URL(signed.Url);
      expect(url.searchParams.get('partNumber')).toBe('2');
      expect(url.searchParams.get('uploadId')).toBe(uploadId);
      expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toContain('content-length');
      expect(signed.Headers).toEqual({});

      const first = await sendParts(prepared.key, uploadId, bytes, PART, [1, 2]);
      if (peer.multipart) {
        // After a page reload the uploader learns what the bucket already holds.
        expect(await storage.listParts(ref)).toEqual(first);
      }
      const rest = await sendParts(prepared.key, uploadId, bytes, PART, [3]);
      const parts = [...first, ...rest].map(({ PartNumber, ETag }) => ({ PartNumber, ETag }));
      await storage.completeMultipartUpload({ ...ref, parts, size: bytes.length });

      expect(await storage.sizeOf(prepared.key)).toBe(bytes.length);
      await expectStoredThenRemove(prepared.key, bytes);
    });

    it('refuses a joined file of another size than declared, keeping nothing', async () => {
      const bytes = mp4Bytes(PART + 1000);
      const prepared = prepareUpload({ FileName: 'short.mp4', Size: bytes.length + 1, ContentType: 'video/mp4', Kind: 'video' });
      const uploadId = await storage.createMultipartUpload(prepared);
      const parts = await sendParts(prepared.key, uploadId, bytes, PART, [1, 2]);
      const done = storage.completeMultipartUpload({ key: prepared.key, uploadId, parts, size: bytes.length + 1 });
      await expect(done).rejects.toBeInstanceOf(RejectedUpload);
      await expect(done).rejects.toThrow('文件大小与声明不符');
      expect(await storage.exists(prepared.key)).toBe(false);
    });

    it('refuses an HTML page joined as an .mp4, keeping nothing', async () => {
      const html = Buffer.from('<!doctype html><script>alert(document.cookie)</script>'.padEnd(PART + 10, ' '));
      const prepared = prepareUpload({ FileName: 'page.mp4', Size: html.length, ContentType: 'video/mp4', Kind: 'video' });
      const uploadId = await storage.createMultipartUpload(prepared);
      const parts = await sendParts(prepared.key, uploadId, html, PART, [1, 2]);
      const done = storage.completeMultipartUpload({ key: prepared.key, uploadId, parts, size: html.length });
      await expect(done).rejects.toThrow('文件内容与类型不符');
      expect(await storage.exists(prepared.key)).toBe(false);
    });

    it.skipIf(!peer.verifiesSignatures)('has a part of another size than signed refused by the S3 server', async () => {
      const prepared = prepareUpload({ FileName: 'parts.mp4', Size: 2 * PART, ContentType: 'video/mp4', Kind: 'video' });
      const uploadId = await storage.createMultipartUpload(prepared);
      const ref = { key: prepared.key, uploadId };
      const signed = await storage.signPart({ ...ref, partNumber: 1, size: PART });
      expect((await putPart(signed, mp4Bytes(PART + 1))).status).toBe(403);
      expect((await putPart(signed, mp4Bytes(1000))).status).toBe(403);
      const forged = new URL(signed.Url);
      forged.searchParams.set('partNumber', '2');
      expect((await putPart({ ...signed, Url: forged.href }, mp4Bytes(PART))).status).toBe(403);
      expect(await storage.listParts(ref)).toEqual([]);
      await storage.abortMultipartUpload(ref);
    });

    it.skipIf(!peer.multipart)('aborts: no part is left, a part URL signed before cannot revive it, and aborting again is harmless', async () => {
      const bytes = mp4Bytes(3 * 1000);
      const prepared = prepareUpload({ FileName: 'abort.mp4', Size: bytes.length, ContentType: 'video/mp4', Kind: 'video' });
      const uploadId = await storage.createMultipartUpload(prepared);
      const ref = { key: prepared.key, uploadId };
      await sendParts(prepared.key, uploadId, bytes, 1000, [1, 2]);
      const late = await storage.signPart({ ...ref, partNumber: 3, size: 1000 });
      await storage.abortMultipartUpload(ref);
      expect(await apiStatus(storage.listParts(ref))).toBe(404);
      expect((await putPart(late, bytes.subarray(2000))).status).toBe(404);
      expect(await apiStatus(storage.completeMultipartUpload({ ...ref, parts: [{ PartNumber: 1, ETag: '"x"' }], size: bytes.length }))).toBe(404);
      await storage.abortMultipartUpload(ref);
      expect(await storage.exists(prepared.key)).toBe(false);
    });

    it.skipIf(!peer.multipart)('treats an abort after completion as done, leaving the file', async () => {
      const bytes = mp4Bytes(1000);
      const prepared = prepareUpload({ FileName: 'late-abort.mp4', Size: bytes.length, ContentType: 'video/mp4', Kind: 'video' });
      const uploadId = await storage.createMultipartUpload(prepared);
      const ref = { key: prepared.key, uploadId };
      const parts = await sendParts(prepared.key, uploadId, bytes, 1000, [1]);
      await storage.completeMultipartUpload({ ...ref, parts, size: bytes.length });
      // As after a completion whose answer was lost: the stale-upload sweep or the user aborts.
      await storage.abortMultipartUpload(ref);
      expect(await storage.sizeOf(prepared.key)).toBe(bytes.length);
      await storage.remove(prepared.key);
    });

    it.skipIf(!peer.multipart)('keeps the upload resumable when an ETag does not match (400)', async () => {
      const bytes = mp4Bytes(PART + 100);
      const prepared = prepareUpload({ FileName: 'etag.mp4', Size: bytes.length, ContentType: 'video/mp4', Kind: 'video' });
      const uploadId = await storage.createMultipartUpload(prepared);
      const ref = { key: prepared.key, uploadId };
      const parts = (await sendParts(prepared.key, uploadId, bytes, PART, [1, 2])).map(({ PartNumber, ETag }) => ({ PartNumber, ETag }));
      const wrong = storage.completeMultipartUpload({ ...ref, parts: [parts[0]!, { PartNumber: 2, ETag: '"00000000000000000000000000000000"' }], size: bytes.length });
      await expect(wrong).rejects.toThrow('有分片未上传或校验值不符');
      expect(await apiStatus(wrong)).toBe(400);
      expect(await storage.exists(prepared.key)).toBe(false);
      expect((await storage.listParts(ref)).map((p) => p.PartNumber)).toEqual([1, 2]);
      await storage.completeMultipartUpload({ ...ref, parts, size: bytes.length });
      expect(await storage.sizeOf(prepared.key)).toBe(bytes.length);
      await storage.remove(prepared.key);
    });

    it.skipIf(!peer.multipart)('refuses parts under 5 MiB but the last, with a message the uploader can act on', async () => {
      const small = 64 * 1024;
      const bytes = mp4Bytes(2 * small);
      const prepared = prepareUpload({ FileName: 'small-parts.mp4', Size: bytes.length, ContentType: 'video/mp4', Kind: 'video' });
      const uploadId = await storage.createMultipartUpload(prepared);
      const ref = { key: prepared.key, uploadId };
      const parts = (await sendParts(prepared.key, uploadId, bytes, small, [1, 2])).map(({ PartNumber, ETag }) => ({ PartNumber, ETag }));
      const done = storage.completeMultipartUpload({ ...ref, parts, size: bytes.length });
      await expect(done).rejects.toThrow('每个分片至少5MB');
      expect(await apiStatus(done)).toBe(400);
      expect(await storage.exists(prepared.key)).toBe(false);
      await storage.abortMultipartUpload(ref);
    });
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
