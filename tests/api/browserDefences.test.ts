// Browser-side defences seen from HTTP (Hardening 4): the security headers and the
// Content-Security-Policy, the refusal of state-changing calls from another origin, and uploaded
// files that never render as a page of this origin.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedUpload } from '../../schemas/types';
import { loadConfig } from '../../server/src/config';
import { CROSS_ORIGIN_MESSAGE, cspDirectives } from '../../server/src/plugins/security';
import { mp4Bytes } from '../helpers/bytes';
import { startS3rver, type LocalS3 } from '../helpers/s3rver';
import { ADMIN_PASSWORD, Client, startServer, type TestServer } from '../helpers/server';

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await startServer({ ALLOWED_ORIGINS: 'https://admin.example.cn, http://localhost:5173' });
  admin = await server.admin();
});
afterAll(() => server?.close());

/** The policy as a map of directive to its sources. */
function parseCsp(header: string | null): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), values);
  }
  return out;
}

describe('security headers', () => {
  it.each(['/', '/Knowledge/VideoView', '/Ajax/GetCurrentMember', '/no-such-call'])('are on %s', async (pathName) => {
    const res = await fetch(server.url + pathName);
    const csp = parseCsp(res.headers.get('content-security-policy'));
    expect(csp.get('default-src')).toEqual(["'self'"]);
    // Scripts from this origin only: no inline script, no 'unsafe-inline'.
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('script-src-attr')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.get('media-src')).toEqual(["'self'", 'blob:']);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    // Plain http here: no HSTS (it is sent only with COOKIE_SECURE=1).
    expect(res.headers.get('strict-transport-security')).toBeNull();
    // No CORS: another origin can never read an answer.
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('send HSTS when the deployment is https (COOKIE_SECURE=1)', async () => {
    const https = await startServer({ COOKIE_SECURE: '1' });
    try {
      const res = await fetch(`${https.url}/Ajax/GetCurrentMember`);
      expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    } finally {
      await https.close();
    }
  });

  it('let the S3 endpoint and the public file URL into connect-src and media-src', () => {
    const config = loadConfig({
      STORAGE: 's3',
      S3_BUCKET: 'zhishi-media',
      S3_ENDPOINT: 'https://s3.oss-cn-hangzhou.aliyuncs.com',
      S3_REGION: 'cn-hangzhou',
      S3_PUBLIC_BASE_URL: 'https://media.example.com/videos',
    });
    const csp = cspDirectives(config);
    for (const directive of ['connect-src', 'media-src'] as const) {
      expect(csp[directive]).toContain('https://zhishi-media.s3.oss-cn-hangzhou.aliyuncs.com');
      expect(csp[directive]).toContain('https://media.example.com');
    }
    const aws = cspDirectives(loadConfig({ STORAGE: 's3', S3_BUCKET: 'b1', S3_REGION: 'ap-east-1' }));
    expect(aws['connect-src']).toContain('https://b1.s3.ap-east-1.amazonaws.com');
    const local = cspDirectives(loadConfig({}));
    expect(local['connect-src']).toEqual(["'self'"]);
  });

  describe('on a server over S3 (s3rver)', () => {
    let s3: LocalS3;
    let s3Server: TestServer;
    beforeAll(async () => {
      s3 = await startS3rver();
      s3Server = await startServer(s3.env);
    });
    afterAll(async () => {
      await s3Server?.close();
      await s3?.close();
    });

    it('allows the uploads and playback that SignUpload hands out', async () => {
      const c = await s3Server.admin();
      const signed = await c.call<SignedUpload>('/Ajax/SignUpload', { FileName: 'a.mp4', Size: 1000, Kind: 'video', ContentType: 'video/mp4' });
      expect(signed.status).toBe(200);
      const res = await fetch(`${s3Server.url}/`);
      const csp = parseCsp(res.headers.get('content-security-policy'));
      expect(csp.get('connect-src')).toContain(new URL(signed.body.data.Url).origin);
      // S3_READ=private (the default): the file URL is this origin's /files/…, which sends a member
      // on to a presigned GET on the bucket, where playback then reads.
      expect(signed.body.data.FileUrl).toMatch(/^\/files\//);
      expect(csp.get('media-src')).toContain("'self'");
      const redirect = await fetch(s3Server.url + signed.body.data.FileUrl, { headers: { cookie: c.cookie }, redirect: 'manual' });
      expect(redirect.status).toBe(302);
      expect(csp.get('media-src')).toContain(new URL(redirect.headers.get('location')!).origin);
    });
  });
});

describe('state-changing calls from another origin', () => {
  const login = (headers: Record<string, string>) =>
    server.client().call('/Ajax/Login', { UserName: 'admin', Password: ADMIN_PASSWORD }, { headers });

  it.each([
    ['another site', { origin: 'https://evil.example' }],
    ['another port of this host', { origin: 'http://127.0.0.1:1' }],
    ['a look-alike host', { origin: 'http://127.0.0.1.evil.example' }],
    ['an opaque origin', { origin: 'null' }],
    ['a non-web scheme', { origin: 'file://' }],
    ['a cross-site fetch without Origin', { 'sec-fetch-site': 'cross-site' }],
    ['a same-site (sibling subdomain) fetch without Origin', { 'sec-fetch-site': 'same-site' }],
  ])('refuses a login from %s with the 403 envelope and no cookie', async (_label, headers) => {
    const res = await login(headers);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 403, msg: CROSS_ORIGIN_MESSAGE });
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it.each([
    ['no Origin (curl, server to server)', {}],
    ['its own origin', { origin: 'SELF' }],
    ['an origin of ALLOWED_ORIGINS', { origin: 'https://admin.example.cn' }],
    ['the dev server of ALLOWED_ORIGINS', { origin: 'http://localhost:5173' }],
    ['a same-origin fetch', { 'sec-fetch-site': 'same-origin' }],
    ['a typed address (navigation)', { 'sec-fetch-site': 'none' }],
  ])('accepts a login with %s', async (_label, headers: Record<string, string>) => {
    const h = headers.origin === 'SELF' ? { origin: server.url } : headers;
    expect((await login(h)).status).toBe(200);
  });

  it('refuses a write with a valid session cookie from another origin, and changes nothing', async () => {
    const res = await admin.call('/Ajax/AddUseweb', { UwName: '跨站写入', UwUrl: 'https://evil.example/' }, { headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect(res.body.msg).toBe(CROSS_ORIGIN_MESSAGE);
    const del = await admin.call('/Ajax/Logout', undefined, { headers: { origin: 'https://evil.example' } });
    expect(del.status).toBe(403);
    const list = await admin.call<{ UwName: string }[]>('/Ajax/GetUsewebListInAdmin', { All: 1 });
    expect(list.status).toBe(200);
    expect(list.body.data.map((r) => r.UwName)).not.toContain('跨站写入');
  });

  it('refuses an upload PUT from another origin, and stores nothing', async () => {
    const bytes = mp4Bytes(2048);
    const signed = await admin.call<SignedUpload>('/Ajax/SignUpload', { FileName: 'x.mp4', Size: bytes.length, Kind: 'video', ContentType: 'video/mp4' });
    const put = await fetch(server.url + signed.body.data.Url, {
      method: 'PUT',
      headers: { ...signed.body.data.Headers, origin: 'https://evil.example' },
      body: new Blob([new Uint8Array(bytes)]),
    });
    expect(put.status).toBe(403);
    expect(await put.json()).toEqual({ code: 403, msg: CROSS_ORIGIN_MESSAGE });
    expect((await fetch(server.url + signed.body.data.FileUrl, { headers: { cookie: admin.cookie } })).status).toBe(404);
  });

  it('lets reads through from anywhere (they change nothing and their answers stay unreadable cross-origin)', async () => {
    const res = await admin.call('/Ajax/GetCurrentMember', undefined, { method: 'GET', headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('fails at start on a malformed ALLOWED_ORIGINS', () => {
    for (const bad of ['admin.example.cn', 'https://admin.example.cn/path', 'ftp://x.example', '*']) {
      expect(() => loadConfig({ ALLOWED_ORIGINS: bad }), bad).toThrow(/ALLOWED_ORIGINS/);
    }
    expect(loadConfig({ ALLOWED_ORIGINS: 'https://a.example, https://b.example:8443' }).allowedOrigins).toEqual([
      'https://a.example',
      'https://b.example:8443',
    ]);
  });
});

describe('uploaded files never render as a page', () => {
  const HTML = Buffer.from('<!doctype html><html><body><script>window.__xss=1</script></body></html>'.padEnd(4096, ' '));
  const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>'.padEnd(4096, ' '));

  it.each([
    ['HTML as a video', 'page.mp4', 'video', 'video/mp4', HTML],
    ['SVG as a video', 'image.mp4', 'video', 'video/mp4', SVG],
    ['SVG as a PNG image', 'logo.png', 'image', 'image/png', SVG],
    ['HTML as a PDF handout', 'notes.pdf', 'handout', 'application/pdf', HTML],
  ])('refuses %s on arrival by its first bytes, and stores nothing', async (_label, FileName, Kind, ContentType, bytes) => {
    const signed = await admin.call<SignedUpload>('/Ajax/SignUpload', { FileName, Size: bytes.length, Kind, ContentType });
    expect(signed.status).toBe(200);
    const put = await fetch(server.url + signed.body.data.Url, {
      method: 'PUT',
      headers: signed.body.data.Headers,
      body: new Blob([new Uint8Array(bytes)]),
    });
    expect(put.status).toBe(400);
    expect(((await put.json()) as { msg: string }).msg).toContain('文件内容与类型不符');
    expect((await fetch(server.url + signed.body.data.FileUrl, { headers: { cookie: admin.cookie } })).status).toBe(404);
  });

  it.each([
    ['video/2026/01/planted.mp4', HTML, /^video\/mp4/],
    ['image/2026/01/planted.png', SVG, /^image\/png/],
    ['handout/2026/01/planted.pdf', HTML, /^application\/pdf/],
    ['image/2026/01/planted.svg', SVG, /^image\/svg\+xml/],
    ['handout/2026/01/planted.html', HTML, /^text\/html/],
  ])('serves %s placed on disk anyway with its extension’s type, a sandbox and nosniff', async (key, bytes, type) => {
    const file = path.join(server.config.dataDir, 'uploads', ...key.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, bytes);
    // Files are for signed-in members (the browser sends the session cookie).
    const res = await fetch(`${server.url}/files/${key}`, { headers: { cookie: admin.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(type);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = parseCsp(res.headers.get('content-security-policy'));
    // A sandbox without allow-scripts: even an HTML or SVG file runs no script and is an opaque origin.
    expect(csp.get('sandbox')).toEqual([]);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });
});

describe('host names (ALLOWED_HOSTS, against DNS rebinding)', () => {
  let guarded: TestServer;
  beforeAll(async () => {
    guarded = await startServer({ ALLOWED_HOSTS: 'admin.example.cn, .intra.example, 127.0.0.1' });
  });
  afterAll(() => guarded?.close());

  const send = (host: string, url = '/Ajax/GetCurrentMember') => guarded.app.inject({ method: 'GET', url, headers: { host } });

  it('answers only the listed host names, with or without a port, and their subdomains for a leading dot', async () => {
    for (const host of ['admin.example.cn', 'ADMIN.example.cn:8080', 'a.intra.example', 'b.c.intra.example:443', '127.0.0.1:9999']) {
      expect((await send(host)).statusCode, host).toBe(401);
    }
    for (const host of ['evil.example', 'admin.example.cn.evil.example', 'intra.example.evil', 'xintra.example', '', 'admin.example.cn:80:80']) {
      const res = await send(host);
      expect(res.statusCode, host).toBe(400);
      expect(res.json()).toMatchObject({ code: 400, msg: '不允许的主机名' });
    }
    // The app's pages too, not only the API.
    expect((await send('evil.example', '/')).statusCode).toBe(400);
  });

  it('leaves /health to load balancers, which ask by address', async () => {
    expect((await send('10.0.0.5:8080', '/health')).statusCode).toBe(200);
  });

  it('answers any host when unset, and fails at start on a malformed list', async () => {
    expect((await server.app.inject({ method: 'GET', url: '/health', headers: { host: 'whatever.example' } })).statusCode).toBe(200);
    expect((await server.app.inject({ method: 'GET', url: '/Ajax/GetCurrentMember', headers: { host: 'whatever.example' } })).statusCode).toBe(401);
    for (const bad of ['https://admin.example.cn', 'admin.example.cn/x', '*', 'a b']) {
      expect(() => loadConfig({ ALLOWED_HOSTS: bad }), bad).toThrow(/ALLOWED_HOSTS/);
    }
  });
});
