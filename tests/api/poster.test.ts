// Video posters: the frame at 1 second, stored beside the video as `<name>.poster.jpg`, made by the
// server with ffmpeg after an upload completes (both drivers), so that a grid of video cards never
// downloads whole videos. Tests that need ffmpeg are skipped where it is missing (Debian: `ffmpeg`).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { storageEnv, type LocalS3 } from '../helpers/s3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posterUrlOf } from '../../schemas/poster';
import type { SignedUpload } from '../../schemas/types';
import { findFfmpeg, putDemoPoster } from '../../server/src/media/poster';
import { startServer, type Client, type TestServer } from '../helpers/server';


const DEMO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../server/demo');
const hasFfmpeg = findFfmpeg() !== undefined;
/** demo.mp4 is about 450 KB: three parts of this size. */
const PART = 200_000;

const isJpeg = (bytes: Buffer) => bytes.length > 100 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;

describe('posterUrlOf', () => {
  it('puts the poster beside the video, for URLs and storage keys', () => {
    expect(posterUrlOf('/files/video/2026/11/0b7c.mp4')).toBe('/files/video/2026/11/0b7c.poster.jpg');
    expect(posterUrlOf('https://cdn.example.com/video/a.MP4')).toBe('https://cdn.example.com/video/a.poster.jpg');
    expect(posterUrlOf('video/2026/11/x.mp4')).toBe('video/2026/11/x.poster.jpg');
    expect(posterUrlOf('https://b.example.com/v/a.mp4?X-Amz-Signature=1#t=3')).toBe('https://b.example.com/v/a.poster.jpg');
  });

  it('answers an empty string for anything that is not an MP4', () => {
    expect(posterUrlOf('')).toBe('');
    expect(posterUrlOf('/files/handout/a.pdf')).toBe('');
    expect(posterUrlOf('/files/video/a.mp4.exe')).toBe('');
    expect(posterUrlOf('/files/video/mp4')).toBe('');
  });
});

describe.each(['local', 's3'] as const)('posters on the %s driver', (driver) => {
  let server: TestServer;
  let admin: Client;
  let s3: LocalS3 | undefined;
  let demo: Buffer;
  const absolute = (url: string) => (url.startsWith('/') ? server.url + url : url);

  beforeAll(async () => {
    demo = await readFile(path.join(DEMO, 'demo.mp4'));
    s3 = await storageEnv(driver);
    const env = s3.env;
    server = await startServer({ ...env, UPLOAD_PART_SIZE: String(PART) });
    admin = await server.admin();
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  async function expectJpegAt(url: string) {
    // Files are for signed-in members: the browser sends the session cookie with the image request.
    const res = await fetch(absolute(url), { headers: { cookie: admin.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/jpeg/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(isJpeg(bytes)).toBe(true);
    return bytes;
  }

  it.skipIf(!hasFfmpeg)('makes the frame at 1 s of the demo MP4 uploaded in parts', async () => {
    const created = await admin.call<{ UploadId: string; Key: string; FileUrl: string; PartSize: number }>('/Ajax/CreateMultipartUpload', {
      FileName: 'demo.mp4',
      Size: demo.length,
      ContentType: 'video/mp4',
      Kind: 'video',
    });
    expect(created.status, created.body.msg).toBe(200);
    const up = created.body.data;
    expect(up.PartSize).toBe(PART);
    const Parts = [];
    for (let n = 1; (n - 1) * PART < demo.length; n++) {
      const signed = await admin.call<{ Url: string; Headers: Record<string, string> }>('/Ajax/SignUploadPart', {
        Key: up.Key,
        UploadId: up.UploadId,
        PartNumber: n,
      });
      const res = await fetch(absolute(signed.body.data.Url), {
        method: 'PUT',
        headers: signed.body.data.Headers,
        body: new Uint8Array(demo.subarray((n - 1) * PART, n * PART)),
      });
      expect(res.status).toBe(200);
      Parts.push({ PartNumber: n, ETag: res.headers.get('etag')! });
    }
    expect(Parts).toHaveLength(3);
    const started = Date.now();
    const done = await admin.call<{ FileUrl: string; PosterUrl?: string }>('/Ajax/CompleteMultipartUpload', {
      Key: up.Key,
      UploadId: up.UploadId,
      Parts,
    });
    expect(done.status, done.body.msg).toBe(200);
    // One frame, read by ranges: far below ffmpeg's 20 s limit.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(done.body.data.PosterUrl).toBe(posterUrlOf(done.body.data.FileUrl));
    await expectJpegAt(done.body.data.PosterUrl!);
  });

  if (driver === 'local') {
    it.skipIf(!hasFfmpeg)('makes a poster after a single-PUT upload too', async () => {
      const signed = await admin.call<SignedUpload>('/Ajax/SignUpload', { FileName: 'demo.mp4', Size: demo.length, Kind: 'video', ContentType: 'video/mp4' });
      const res = await fetch(server.url + signed.body.data.Url, {
        method: 'PUT',
        headers: signed.body.data.Headers,
        body: new Uint8Array(demo),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { FileUrl: string; PosterUrl?: string } };
      expect(body.data.PosterUrl).toBe(posterUrlOf(signed.body.data.FileUrl));
      await expectJpegAt(body.data.PosterUrl!);
    });
  }

  it('stores the committed poster of the demo video beside it, without ffmpeg', async () => {
    await server.app.storage.putFile('demo/demo.mp4', path.join(DEMO, 'demo.mp4'), 'video/mp4');
    const url = await putDemoPoster(server.app.storage);
    expect(url).toBe(posterUrlOf(server.app.storage.fileUrl('demo/demo.mp4')));
    const bytes = await expectJpegAt(url);
    expect(bytes.equals(await readFile(path.join(DEMO, 'demo-poster.jpg')))).toBe(true);
  });
});
