// The name each upload was made with (docs/api.md, "Uploads"): recorded, cleaned, when the upload is
// signed or started; answered by GetFileNames for the URLs a screen shows; offered by downloads
// (Content-Disposition); and forgotten with the file.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseContentDisposition } from 'content-disposition';
import type { SignedUpload } from '../../schemas/types';
import { storageEnv, type LocalS3 } from '../helpers/s3rver';
import { startServer, type Client, type TestServer } from '../helpers/server';

const DAY = 24 * 3600 * 1000;
const PDF = fs.readFileSync(path.resolve(import.meta.dirname, '../../server/demo/handout.pdf'));

interface Named {
  Url: string;
  Name: string;
}

async function sign(client: Client, FileName: string, Size: number, Kind: string, ContentType = '') {
  return client.call<SignedUpload>('/Ajax/SignUpload', { FileName, Size, Kind, ContentType });
}

async function send(baseUrl: string, signed: SignedUpload, bytes: Buffer, cookie: string) {
  const url = signed.Url.startsWith('/') ? baseUrl + signed.Url : signed.Url;
  return fetch(url, {
    method: signed.Method,
    headers: { ...signed.Headers, ...(signed.Url.startsWith('/') ? { cookie } : {}) },
    body: new Blob([new Uint8Array(bytes)]),
  });
}

describe.each(['local', 's3'] as const)('original file names on the %s driver', (driver) => {
  let server: TestServer;
  let admin: Client;
  let s3: LocalS3 | undefined;
  const names = (Urls: unknown, client: Client = admin) => client.call<Named[]>('/Ajax/GetFileNames', { Urls });

  beforeAll(async () => {
    s3 = await storageEnv(driver);
    server = await startServer(s3.env);
    admin = await server.admin();
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  it('records the name an upload is signed with, cleaned, and answers it for the file’s URL only', async () => {
    // Directories (old browsers send "C:\\fakepath\\…") and control characters are dropped.
    const signed = await sign(admin, 'C:\\fakepath\\讲义\u0007一\t.pdf', PDF.length, 'handout');
    expect(signed.status).toBe(200);
    const { FileUrl, Title } = signed.body.data;
    expect(Title).toBe('讲义一.pdf');
    expect(FileUrl).not.toContain('讲义');
    const foreign = 'https://example.com/files/handout/a.pdf';
    const res = await names([FileUrl, '/files/demo/handout.pdf', foreign, FileUrl]);
    expect(res.status).toBe(200);
    // One entry per URL asked that has a recorded name (demo files and other sites have none).
    expect(res.body.data).toEqual([
      { Url: FileUrl, Name: '讲义一.pdf' },
      { Url: FileUrl, Name: '讲义一.pdf' },
    ]);
  });

  it('records the name of a video uploaded in parts when the upload starts', async () => {
    const created = await admin.call<{ FileUrl: string; Title: string }>('/Ajax/CreateMultipartUpload', {
      FileName: '真实上传测试视频.mp4',
      Size: 2048,
      ContentType: 'video/mp4',
      Kind: 'video',
    });
    expect(created.status).toBe(200);
    expect((await names([created.body.data.FileUrl])).body.data).toEqual([{ Url: created.body.data.FileUrl, Name: '真实上传测试视频.mp4' }]);
  });

  it('keeps the name limits: 1 to 255 characters, never only a directory, no text direction controls', async () => {
    expect((await sign(admin, `${'文'.repeat(252)}.pdf`, 10, 'handout')).status).toBe(400);
    expect((await sign(admin, `${'文'.repeat(251)}.pdf`, 10, 'handout')).status).toBe(200);
    expect((await sign(admin, '', 10, 'handout')).status).toBe(400);
    // Text direction controls would make "讲义\u202Efdp.exe" read as "讲义exe.pdf".
    expect((await sign(admin, '讲义\u202efdp.exe.pdf', 10, 'handout')).status).toBe(400);
    // Nothing left once the directories go.
    expect((await sign(admin, 'a/b/', 10, 'handout')).status).toBe(400);
  });

  it('asks for 1 to 100 URLs of at most 1000 characters, for signed-in members only', async () => {
    expect((await names([])).status).toBe(400);
    expect((await names(Array.from({ length: 101 }, (_, i) => `/files/handout/${i}.pdf`))).status).toBe(400);
    expect((await names([`/files/${'a'.repeat(1000)}`])).status).toBe(400);
    expect((await names(Array.from({ length: 100 }, (_, i) => `/files/handout/${i}.pdf`))).body.data).toEqual([]);
    expect((await names(['/files/a.pdf'], server.client())).status).toBe(401);
    // Any member may ask: a viewer sees the records (and their URLs) a name belongs to.
    const viewer = await server.member({ videoView: '2' });
    expect((await names(['/files/a.pdf'], viewer)).status).toBe(200);
  });

  it('offers the original name when the file is downloaded', async () => {
    const signed = await sign(admin, '讲义 (二).pdf', PDF.length, 'handout');
    expect((await send(server.url, signed.body.data, PDF, admin.cookie)).ok).toBe(true);
    const res = await fetch(server.url + `/files/${signed.body.data.FileUrl.split('/files/')[1]}`, {
      headers: { cookie: admin.cookie },
      redirect: 'manual',
    });
    // Opens in the browser (inline); saving it proposes the original name (RFC 6266 filename*).
    const expectName = (header: string | null) => {
      expect(header).toMatch(/filename\*=UTF-8''/);
      expect(parseContentDisposition(header!)).toEqual({ type: 'inline', parameters: { filename: '讲义 (二).pdf' } });
    };
    if (driver === 'local') {
      expect(res.status).toBe(200);
      expectName(res.headers.get('content-disposition'));
    } else {
      // The bucket answers with it: the presigned GET overrides its Content-Disposition.
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get('location')!);
      expectName(location.searchParams.get('response-content-disposition'));
      const read = await fetch(location);
      expect(read.status).toBe(200);
      expectName(read.headers.get('content-disposition'));
    }
  });

  it('forgets the name with the file: an upload no record points at after a day', async () => {
    const signed = await sign(admin, '无人引用.pdf', PDF.length, 'handout');
    expect((await send(server.url, signed.body.data, PDF, admin.cookie)).ok).toBe(true);
    const url = signed.body.data.FileUrl;
    expect((await names([url])).body.data).toHaveLength(1);
    const swept = await server.app.files.sweep({ now: new Date(Date.now() + DAY + 60_000) });
    expect(swept.removed.some((key) => url.endsWith(key))).toBe(true);
    expect((await names([url])).body.data).toEqual([]);
  });
});
