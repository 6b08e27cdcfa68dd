// The local storage driver over a real server: a bare Fastify app with only the storage plugin,
// a temporary DATA_DIR, driven with fetch like a browser. The plugin's routes answer errors with
// their own handler (the envelope of docs/api.md), so no app error handler is registered here.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../server/src/config';
import { ApiError } from '../server/src/errors';
import storagePlugin from '../server/src/plugins/storage';
import { LocalStorage } from '../server/src/storage/local';
import { prepareUpload, type UploadInput } from '../server/src/storage/policies';

const MB = 1024 * 1024;
const secret = randomBytes(32);
let app: FastifyInstance;
let base: string;
let dataDir: string;
let storage: LocalStorage;

/** A tiny file that passes the MP4 check: a box size, then `ftyp` at offset 4. */
function mp4Bytes(length = 64): Buffer {
  const head = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom')]);
  const body = Buffer.alloc(length - head.length);
  for (let i = 0; i < body.length; i++) body[i] = i % 251;
  return Buffer.concat([head, body]);
}

async function sign(input: UploadInput) {
  const prepared = prepareUpload(input);
  return { prepared, signed: await app.storage.signUpload(prepared) };
}

function put(url: string, data: Buffer | ReadableStream<Uint8Array>, headers: Record<string, string> = {}, signal?: AbortSignal) {
  const body = data instanceof ReadableStream ? data : new Uint8Array(data);
  // duplex is needed by Node's fetch for stream bodies; the DOM typings do not know it yet.
  return fetch(`${base}${url}`, { method: 'PUT', body, headers, signal, duplex: 'half' } as RequestInit);
}

async function tmpFiles(): Promise<string[]> {
  return readdir(storage.tmpDir).catch(() => []);
}

/** Waits for a condition the server reaches asynchronously (clean-up after an aborted upload). */
async function eventually(check: () => Promise<boolean>, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

function refusal(input: UploadInput): ApiError {
  try {
    prepareUpload(input);
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error(`not refused: ${JSON.stringify(input)}`);
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'storage-local-'));
  const config = loadConfig({ DATA_DIR: dataDir, STORAGE: 'local', LOG: '0' });
  app = Fastify();
  // No session plugin here: every reader stands for a signed-in member. The session check itself
  // (401 without one) is tested over the whole app in tests/api/fileLifecycle.test.ts.
  await app.register(storagePlugin, { config, secret, canRead: async () => true });
  // A JSON route beside the plugin: the upload route's catch-all parser must not reach it.
  app.post('/echo', async (request) => ({ body: request.body }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}`;
  storage = app.storage as LocalStorage;
});

afterAll(async () => {
  await app?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('local storage: signed upload and file serving', () => {
  it('signs a same-origin PUT that carries the server-chosen content type', async () => {
    const { prepared, signed } = await sign({ FileName: 'lesson.mp4', Size: 64, ContentType: 'video/mp4', Kind: 'video' });
    expect(app.storage.name).toBe('local');
    expect(signed.Method).toBe('PUT');
    expect(signed.Headers).toEqual({ 'Content-Type': 'video/mp4' });
    expect(signed.Fields).toEqual({});
    const url = new URL(signed.Url, base);
    expect(url.pathname).toBe(`/upload/${prepared.key}`);
    expect(url.searchParams.get('size')).toBe('64');
    expect(url.searchParams.get('ct')).toBe('video/mp4');
    const exp = Number(url.searchParams.get('exp'));
    expect(exp * 1000 - Date.now()).toBeGreaterThan(59 * 60 * 1000);
    expect(exp * 1000 - Date.now()).toBeLessThanOrEqual(60 * 60 * 1000);
  });

  it('stores an MP4 sent with the signed URL and serves it back at FileUrl', async () => {
    const bytes = mp4Bytes(64);
    const { prepared, signed } = await sign({ FileName: 'lesson.mp4', Size: bytes.length, ContentType: 'video/mp4', Kind: 'video' });
    const res = await put(signed.Url, bytes, signed.Headers);
    expect(res.status).toBe(200);
    const fileUrl = app.storage.fileUrl(prepared.key);
    expect(await res.json()).toEqual({ code: 0, msg: '上传成功', data: { FileUrl: fileUrl } });
    expect(fileUrl).toBe(`/files/${prepared.key}`);
    expect(await app.storage.exists(prepared.key)).toBe(true);

    const got = await fetch(`${base}${fileUrl}`);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('video/mp4');
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(got.headers.get('accept-ranges')).toBe('bytes');
    // Members only: never kept by a shared cache, checked again on each use.
    expect(got.headers.get('cache-control')).toBe('private, no-cache');
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);

    const head = await fetch(`${base}${fileUrl}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
    expect(head.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await tmpFiles()).toEqual([]);
  });

  it('answers a Range request with 206 and exactly the bytes asked for', async () => {
    const bytes = mp4Bytes(1000);
    const { prepared, signed } = await sign({ FileName: 'seek.mp4', Size: bytes.length, Kind: 'video' });
    expect((await put(signed.Url, bytes, signed.Headers)).status).toBe(200);

    const res = await fetch(`${base}${app.storage.fileUrl(prepared.key)}`, { headers: { Range: 'bytes=4-11' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 4-11/${bytes.length}`);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.toString('latin1')).toBe('ftypisom');

    const tail = await fetch(`${base}${app.storage.fileUrl(prepared.key)}`, { headers: { Range: 'bytes=900-' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(900))).toBe(true);
    expect(tail.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
  });

  it('refuses a Content-Length above the signed size with 413 and stores nothing', async () => {
    const { prepared, signed } = await sign({ FileName: 'big.mp4', Size: 64, Kind: 'video' });
    const res = await put(signed.Url, mp4Bytes(200), signed.Headers);
    expect(res.status).toBe(413);
    const body = (await res.json()) as { code: number; msg: string };
    expect(body.code).toBe(413);
    expect(body.msg).toMatch(/超过/);
    expect(await app.storage.exists(prepared.key)).toBe(false);
    expect(await tmpFiles()).toEqual([]);
  });

  it('counts streamed bytes and refuses a body without Content-Length once it exceeds the signed size', async () => {
    const { prepared, signed } = await sign({ FileName: 'chunked.mp4', Size: 64, Kind: 'video' });
    const chunks = [mp4Bytes(48), Buffer.alloc(48, 7)];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const res = await put(signed.Url, stream, signed.Headers);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: number }).code).toBe(413);
    expect(await app.storage.exists(prepared.key)).toBe(false);
    expect(await tmpFiles()).toEqual([]);
  });

  it('refuses a body shorter than signed and stores nothing', async () => {
    const { prepared, signed } = await sign({ FileName: 'short.mp4', Size: 100, Kind: 'video' });
    const res = await put(signed.Url, mp4Bytes(60), signed.Headers);
    expect(res.status).toBe(400);
    expect(await app.storage.exists(prepared.key)).toBe(false);
    expect(await tmpFiles()).toEqual([]);
  });

  it('refuses an HTML page signed as a video, and an SVG signed as a PNG', async () => {
    const html = Buffer.from('<!doctype html><script>alert(document.cookie)</script>' + ' '.repeat(40));
    const video = await sign({ FileName: 'lesson.mp4', Size: html.length, ContentType: 'video/mp4', Kind: 'video' });
    const res = await put(video.signed.Url, html, video.signed.Headers);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 400, msg: expect.stringContaining('文件内容与类型不符') });
    expect(await app.storage.exists(video.prepared.key)).toBe(false);

    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>');
    const image = await sign({ FileName: 'logo.png', Size: svg.length, ContentType: 'image/png', Kind: 'image' });
    const res2 = await put(image.signed.Url, svg, image.signed.Headers);
    expect(res2.status).toBe(400);
    expect(await app.storage.exists(image.prepared.key)).toBe(false);
    expect(await tmpFiles()).toEqual([]);
  });

  it('accepts a text handout sent as text/plain without parsing the body, and refuses binary "text"', async () => {
    const text = Buffer.from('讲义内容\nline 2\n');
    const ok = await sign({ FileName: '讲义.txt', Size: text.length, ContentType: 'text/plain', Kind: 'handout' });
    expect(ok.signed.Headers['Content-Type']).toBe('text/plain');
    const res = await put(ok.signed.Url, text, ok.signed.Headers);
    expect(res.status).toBe(200);
    const got = await fetch(`${base}${app.storage.fileUrl(ok.prepared.key)}`);
    expect(Buffer.from(await got.arrayBuffer()).equals(text)).toBe(true);

    const binary = Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00]); // an .exe header
    const bad = await sign({ FileName: 'notes.txt', Size: binary.length, Kind: 'handout' });
    expect((await put(bad.signed.Url, binary, bad.signed.Headers)).status).toBe(400);
    expect(await app.storage.exists(bad.prepared.key)).toBe(false);
  });

  it('refuses a tampered signature, a changed size and an expired link with 403', async () => {
    const bytes = mp4Bytes(64);
    const { prepared, signed } = await sign({ FileName: 'a.mp4', Size: bytes.length, Kind: 'video' });
    const url = new URL(signed.Url, base);

    const tampered = new URL(url);
    const sig = tampered.searchParams.get('sig')!;
    tampered.searchParams.set('sig', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1));
    const r1 = await put(tampered.pathname + tampered.search, bytes, signed.Headers);
    expect(r1.status).toBe(403);
    expect(await r1.json()).toEqual({ code: 403, msg: '上传链接无效或已过期，请重新上传' });

    const resized = new URL(url);
    resized.searchParams.set('size', '999999');
    expect((await put(resized.pathname + resized.search, bytes, signed.Headers)).status).toBe(403);

    const otherKey = prepareUpload({ FileName: 'b.mp4', Size: bytes.length, Kind: 'video' }).key;
    expect((await put(`/upload/${otherKey}${url.search}`, bytes, signed.Headers)).status).toBe(403);

    // Same secret and folder, a link that expired ten seconds ago.
    const expired = await new LocalStorage(dataDir, secret, { ttlSeconds: -10 }).signUpload(prepared);
    const r2 = await put(expired.Url, bytes, expired.Headers);
    expect(r2.status).toBe(403);
    expect(await app.storage.exists(prepared.key)).toBe(false);
  });

  it('refuses to replay a used link over the stored file', async () => {
    const bytes = mp4Bytes(64);
    const { prepared, signed } = await sign({ FileName: 'once.mp4', Size: bytes.length, Kind: 'video' });
    expect((await put(signed.Url, bytes, signed.Headers)).status).toBe(200);
    const other = mp4Bytes(64).fill(9, 20);
    expect((await put(signed.Url, other, signed.Headers)).status).toBe(409);
    const got = await fetch(`${base}${app.storage.fileUrl(prepared.key)}`);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('deletes the temporary file when the client aborts mid-upload', async () => {
    const { prepared, signed } = await sign({ FileName: 'abort.mp4', Size: 10 * MB, Kind: 'video' });
    const controller = new AbortController();
    let sent = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        // One chunk, then stall as a slow client would.
        if (!sent) c.enqueue(mp4Bytes(64 * 1024));
        sent = true;
        return new Promise(() => undefined);
      },
    });
    const pending = put(signed.Url, stream, signed.Headers, controller.signal).catch((e: unknown) => e);
    expect(await eventually(async () => (await tmpFiles()).length === 1)).toBe(true);
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    expect(await eventually(async () => (await tmpFiles()).length === 0)).toBe(true);
    expect(await app.storage.exists(prepared.key)).toBe(false);
  });

  it('never serves partial uploads, dotfiles or directories', async () => {
    await mkdir(storage.tmpDir, { recursive: true });
    await writeFile(path.join(storage.tmpDir, 'x.part'), 'partial');
    const res = await fetch(`${base}/files/.tmp/x.part`);
    expect(res.status).not.toBe(200);
    expect(await res.text()).not.toContain('partial');
    expect((await fetch(`${base}/files/video/`)).status).not.toBe(200);
    expect((await fetch(`${base}/files/video/%2e%2e/%2e%2e/secret`)).status).not.toBe(200);
    await rm(path.join(storage.tmpDir, 'x.part'));
  });

  it('serves nobody in an app without sessions unless told who may read (fails closed)', async () => {
    const closed = Fastify();
    await closed.register(storagePlugin, { config: loadConfig({ DATA_DIR: dataDir, STORAGE: 'local', LOG: '0' }), secret });
    const bytes = mp4Bytes(64);
    const { prepared, signed } = await sign({ FileName: 'closed.mp4', Size: bytes.length, Kind: 'video' });
    expect((await put(signed.Url, bytes, signed.Headers)).status).toBe(200);
    const res = await closed.inject({ method: 'GET', url: app.storage.fileUrl(prepared.key) });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 401, msg: '请先登录' });
    await closed.close();
  });

  it('leaves JSON parsing of other routes untouched', async () => {
    const res = await fetch(`${base}/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ a: 1 }),
    });
    expect(await res.json()).toEqual({ body: { a: 1 } });
  });
});

describe('local storage: files on disk', () => {
  it('copies a file in with putFile, and checks and removes it', async () => {
    const src = path.join(dataDir, 'source.mp4');
    await writeFile(src, mp4Bytes(128));
    const key = 'video/demo/sample.mp4';
    await app.storage.putFile(key, src, 'video/mp4');
    expect(existsSync(path.join(dataDir, 'uploads', 'video', 'demo', 'sample.mp4'))).toBe(true);
    expect(await app.storage.exists(key)).toBe(true);
    expect((await fetch(`${base}${app.storage.fileUrl(key)}`)).status).toBe(200);
    await app.storage.remove(key);
    expect(await app.storage.exists(key)).toBe(false);
    await app.storage.remove(key); // removing twice is harmless
    expect(await tmpFiles()).toEqual([]);
  });

  it('maps file URLs to keys and back, and refuses keys that leave the folder', async () => {
    const key = prepareUpload({ FileName: 'x.pdf', Size: 1, Kind: 'handout' }).key;
    expect(app.storage.keyOf(app.storage.fileUrl(key))).toBe(key);
    expect(app.storage.keyOf('/files/../config.ts')).toBeUndefined();
    expect(app.storage.keyOf('/files/.tmp/x.part')).toBeUndefined();
    expect(app.storage.keyOf('https://example.com/files/a.mp4')).toBeUndefined();
    expect(app.storage.keyOf('/upload/a.mp4')).toBeUndefined();
    await expect(app.storage.putFile('../escape.mp4', path.join(dataDir, 'source.mp4'), 'video/mp4')).rejects.toThrow();
    expect(await app.storage.exists('../../etc/passwd')).toBe(false);
  });
});

describe('prepareUpload', () => {
  it('generates <kind>/<yyyy>/<mm>/<uuid>.<ext> keys that never contain the file name', () => {
    const now = new Date(Date.UTC(2026, 10, 5));
    const p = prepareUpload({ FileName: '第1课 secret-name.MP4', Size: 10, ContentType: 'video/mp4', Kind: 'video' }, now);
    expect(p.key).toMatch(/^video\/2026\/11\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.mp4$/);
    expect(p.key).not.toContain('secret');
    expect(p.key).not.toContain('第1课');
    expect(p).toMatchObject({ kind: 'video', size: 10, contentType: 'video/mp4', title: '第1课 secret-name.MP4' });
    const again = prepareUpload({ FileName: '第1课 secret-name.MP4', Size: 10, Kind: 'video' }, now);
    expect(again.key).not.toBe(p.key);
    const traversal = prepareUpload({ FileName: '../../etc/passwd.pdf', Size: 10, Kind: 'handout' });
    expect(traversal.key).toMatch(/^handout\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.pdf$/);
  });

  it('chooses the content type from the extension, not from the request', () => {
    expect(prepareUpload({ FileName: 'a.pdf', Size: 1, ContentType: 'text/html', Kind: 'handout' }).contentType).toBe('application/pdf');
    expect(prepareUpload({ FileName: 'a.docx', Size: 1, ContentType: '', Kind: 'handout' }).contentType).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(prepareUpload({ FileName: 'a.jpeg', Size: 1, ContentType: 'image/jpeg', Kind: 'image' }).contentType).toBe('image/jpeg');
    expect(prepareUpload({ FileName: 'a.webp', Size: 1, Kind: 'image' }).contentType).toBe('image/webp');
  });

  it('cleans the title of directories and control characters', () => {
    expect(prepareUpload({ FileName: 'C:\\fakepath\\报告\u202Efdp.exe.pdf', Size: 1, Kind: 'handout' }).title).toBe('报告fdp.exe.pdf');
    expect(prepareUpload({ FileName: 'a/b/c\u0000\u0007.zip', Size: 1, Kind: 'handout' }).title).toBe('c.zip');
  });

  it('refuses SVG images, and files of another type renamed', () => {
    const svg = refusal({ FileName: 'logo.svg', Size: 100, ContentType: 'image/svg+xml', Kind: 'image' });
    expect(svg.status).toBe(400);
    expect(svg.message).toMatch(/PNG、JPEG或WebP/);
    expect(refusal({ FileName: 'logo.png', Size: 100, ContentType: 'image/svg+xml', Kind: 'image' }).status).toBe(400);
    expect(refusal({ FileName: 'page.mp4', Size: 100, ContentType: 'text/html', Kind: 'video' }).status).toBe(400);
    const mov = refusal({ FileName: 'clip.mov', Size: 100, ContentType: 'video/quicktime', Kind: 'video' });
    expect(mov.message).toBe('视频须为MP4格式（H.264视频、AAC音频）');
  });

  it('refuses videos of 500 MB or more, images over 10 MB, handouts over 200 MB', () => {
    const big = refusal({ FileName: 'a.mp4', Size: 600 * MB, ContentType: 'video/mp4', Kind: 'video' });
    expect(big.status).toBe(413);
    expect(big.message).toBe('视频须小于500MB');
    expect(refusal({ FileName: 'a.mp4', Size: 500 * MB, Kind: 'video' }).status).toBe(413);
    expect(prepareUpload({ FileName: 'a.mp4', Size: 500 * MB - 1, Kind: 'video' }).size).toBe(500 * MB - 1);
    expect(refusal({ FileName: 'a.png', Size: 10 * MB + 1, Kind: 'image' }).status).toBe(413);
    expect(prepareUpload({ FileName: 'a.png', Size: 10 * MB, Kind: 'image' }).size).toBe(10 * MB);
    expect(refusal({ FileName: 'a.zip', Size: 200 * MB + 1, Kind: 'handout' }).status).toBe(413);
  });

  it('refuses executables and unknown types as handouts', () => {
    const exe = refusal({ FileName: 'setup.exe', Size: 100, ContentType: 'application/x-msdownload', Kind: 'handout' });
    expect(exe.status).toBe(400);
    expect(exe.message).toMatch(/PDF/);
    expect(refusal({ FileName: 'page.html', Size: 100, Kind: 'handout' }).status).toBe(400);
    expect(refusal({ FileName: 'noextension', Size: 100, Kind: 'handout' }).status).toBe(400);
    expect(refusal({ FileName: '.pdf', Size: 100, Kind: 'handout' }).status).toBe(400);
  });

  it('refuses a bad kind, size or file name', () => {
    const kind = refusal({ FileName: 'a.mp4', Size: 1, Kind: 'audio' });
    expect(kind.status).toBe(400);
    expect(kind.message).toBe('上传类型无效');
    expect(refusal({ FileName: 'a.mp4', Size: 1, Kind: '__proto__' }).message).toBe('上传类型无效');
    expect(refusal({ FileName: 'a.mp4', Size: 1 }).message).toBe('上传类型无效');
    for (const Size of [0, -1, 1.5, '10', Number.NaN, undefined]) {
      expect(refusal({ FileName: 'a.mp4', Size, Kind: 'video' }).status).toBe(400);
    }
    expect(refusal({ FileName: '', Size: 1, Kind: 'video' }).status).toBe(400);
    expect(refusal({ FileName: `${'a'.repeat(252)}.mp4`, Size: 1, Kind: 'video' }).status).toBe(400);
    expect(prepareUpload({ FileName: `${'a'.repeat(251)}.mp4`, Size: 1, Kind: 'video' }).title).toHaveLength(255);
  });
});
