// Regressions of what the fuzzing (fuzz.test.ts) found: each input below once answered 500 or an
// answer outside the envelope. Now each is a 4xx envelope in Chinese and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedTables, snapshotTables } from '../helpers/fuzz';
import { startServer, type Client, type TestServer } from '../helpers/server';

let server: TestServer;
let admin: Client;
let vdtCode: string;
let videoId: number;

beforeAll(async () => {
  server = await startServer();
  admin = await server.admin();
  vdtCode = (await admin.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName: '类型', VdtSort: 1 })).body.data.VdtCode;
  videoId = (await admin.call<{ Id: number }>('/Ajax/AddVideo', { VdtCode: vdtCode, VdName: '视频', VdUrl: 'https://e.com/v.mp4' })).body.data.Id;
});
afterAll(() => server?.close());

/** Sends, expects a 400 envelope naming `field`, and the database unchanged. */
async function expectRefused(send: () => Promise<{ status: number; body: { code: number; msg: string; errors?: { field: string }[] } }>, field: string) {
  const before = await snapshotTables(server);
  const res = await send();
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.code).toBe(400);
  expect(res.body.msg).toMatch(/[\u4e00-\u9fff]/);
  expect(res.body.errors?.[0]?.field).toBe(field);
  expect(changedTables(before, await snapshotTables(server))).toEqual([]);
}

describe('NUL characters (PostgreSQL refuses them in text: once a 500 there)', () => {
  it('are refused in bodies, searches, filters, codes and nested fields', async () => {
    await expectRefused(() => admin.call('/Ajax/AddVideoType', { VdtName: 'a\u0000b', VdtSort: 1 }), 'VdtName');
    await expectRefused(() => admin.call('/Ajax/GetVideoListInAdmin', { VdName: '\u0000' }), 'VdName');
    await expectRefused(() => admin.get('/Ajax/GetVideoListInAdmin', { VdtCode: `${vdtCode}\u0000` }), 'VdtCode');
    await expectRefused(() => admin.call('/Xcx1/GetStandardArticleInfoInAdmin', { Code: 'a\u0000' }), 'Code');
    await expectRefused(() => admin.call('/Ajax/GetMemberListInAdmin', { AuName: '\u0000' }), 'AuName');
    await expectRefused(() => admin.call('/Ajax/UpdateVideo', { Id: videoId, VdName: '视频\u0000' }), 'VdName');
    await expectRefused(
      () => admin.call('/Ajax/CompleteMultipartUpload', { Key: 'k', UploadId: 'u', Parts: [{ PartNumber: 1, ETag: '\u0000' }] }),
      'Parts',
    );
  });

  it('are refused at login without counting a failure', async () => {
    await expectRefused(() => server.client().call('/Ajax/Login', { UserName: 'admin\u0000', Password: 'x' }), 'UserName');
  });

  it('still need a session first: an anonymous caller gets 401', async () => {
    const res = await server.client().call('/Ajax/AddVideoType', { VdtName: '\u0000' });
    expect(res.status).toBe(401);
  });
});

describe('bidirectional controls (U+202E turned 讲义exe.pdf into a disguised link to an .exe)', () => {
  const controls = ['\u202e', '\u202a', '\u202d', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];

  it.each(controls.map((c) => [`U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`, c]))(
    '%s is refused in names, file-list names, searches and upload titles',
    async (_name, c) => {
      const handouts = (name: string) => JSON.stringify([{ name, url: 'https://e.com/h.pdf' }]);
      await expectRefused(() => admin.call('/Ajax/AddVideoType', { VdtName: `类型${c}`, VdtSort: 1 }), 'VdtName');
      await expectRefused(() => admin.call('/Ajax/AddUseweb', { UwName: `网站${c}`, UwUrl: 'https://e.com' }), 'UwName');
      await expectRefused(() => admin.call('/Ajax/UpdateVideo', { Id: videoId, VdEnclosure: handouts(`课程讲义${c}fdp.exe`) }), 'VdEnclosure');
      await expectRefused(() => admin.call('/Ajax/GetVideoListInAdmin', { VdtCode: vdtCode, VdName: `视频${c}` }), 'VdName');
      await expectRefused(
        () => admin.call('/Ajax/SignUpload', { FileName: `讲义${c}fdp.exe`, Size: 10, ContentType: 'application/pdf', Kind: 'handout' }),
        'FileName',
      );
    },
  );

  it('are refused in article names and their file lists', async () => {
    const ScCode = (await admin.call<{ ScCode: string }>('/Xcx1/CreateStandardClassifyInAdmin', { ScName: '分类', type: 0, ScFatherCode: '0' })).body.data.ScCode;
    await expectRefused(() => admin.call('/Xcx1/AddStandardArticleInAdmin', { ScCode, SaName: '文章\u202eexe.pdf' }), 'SaName');
    const files = JSON.stringify([{ name: '附件\u202efdp.exe', url: 'https://e.com/a.pdf' }]);
    await expectRefused(() => admin.call('/Xcx1/AddStandardArticleInAdmin', { ScCode, SaName: '文章', SaPdfUrl: files }), 'SaPdfUrl');
  });
});

describe('over-long addresses', () => {
  it('are refused with 414 in the envelope, so that no answer echoes them into a header a client cannot read', async () => {
    // 13 KB: under Node's own limit on the request head (16 KiB, 431), over the server's (12 KiB).
    const query = `a=${'%7b%22a%22%3a'.repeat(1000)}`;
    for (const path of ['/docs/static/index.html', '/Ajax/GetVideoListInAdmin', '/files/video/x.mp4', '/']) {
      const res = await admin.call(`${path}?${query}`, undefined, { method: 'GET' });
      expect(res.status, path).toBe(414);
      expect(res.body).toEqual({ code: 414, msg: '请求地址过长' });
    }
    // A long search (1,000 Chinese characters, 9 KB encoded) still passes.
    const search = encodeURIComponent('造'.repeat(1000));
    expect((await admin.call(`/Ajax/GetVideoListInAdmin?VdtCode=${vdtCode}&VdName=${search}`, undefined, { method: 'GET' })).status).not.toBe(414);
  });
});

describe('ids beyond 32 bits and infinite numbers (PostgreSQL integer overflow: once a 500 there)', () => {
  it.each([2 ** 31, 1e10, 1e308])('Id %d is refused on reads, writes and the sort order', async (Id) => {
    await expectRefused(() => admin.call('/Ajax/GetSingleVideoInAdmin', { Id }), 'Id');
    await expectRefused(() => admin.get('/Ajax/GetSingleVideoInAdmin', { Id: String(Id) }), 'Id');
    await expectRefused(() => admin.call('/Ajax/DelVideo', { Id }), 'Id');
    await expectRefused(() => admin.call('/Ajax/UpdateVideoNumAdd', { Id }), 'Id');
    await expectRefused(() => admin.call('/Ajax/UpdateUseweb', { Id, UwName: '网站' }), 'Id');
    await expectRefused(() => admin.call('/Ajax/UpdateUsewebSort', { modelList: [{ Id, UwSort: 1 }] }), 'modelList');
    await expectRefused(() => admin.call('/Ajax/UpdateUsewebSort', { modelList: JSON.stringify([{ Id, UwSort: 1 }]) }), 'modelList');
  });

  // Ajv coerces the text "Infinity" (or "1e400") into a number and then skips `maximum`.
  it.each(['Infinity', '-Infinity', '1e400'])('the text %s is refused as a number, in bodies and query strings', async (text) => {
    const json = { headers: { 'content-type': 'application/json' } };
    await expectRefused(() => admin.call('/Ajax/GetSingleVideoInAdmin', `{"Id":"${text}"}`, json), 'Id');
    await expectRefused(() => admin.get('/Ajax/GetSingleVideoInAdmin', { Id: text }), 'Id');
    await expectRefused(() => admin.call('/Ajax/DelMember', `{"Id":"${text}"}`, json), 'Id');
    await expectRefused(() => admin.get('/Xcx1/GetStandardArticleListInAdmin', { type: text }), 'type');
    await expectRefused(
      () => admin.call('/Ajax/AddVideo', { VdtCode: vdtCode, VdName: '视频', VdUrl: 'https://e.com/v.mp4', VdSort: text }),
      'VdSort',
    );
  });

  it('the largest 32-bit id is still a plain 404', async () => {
    const res = await admin.call('/Ajax/GetSingleVideoInAdmin', { Id: 2 ** 31 - 1 });
    expect(res.status).toBe(404);
  });
});

describe('refusals made before a route runs (once Fastify English JSON outside the envelope)', () => {
  it('headers or URL over 16 KiB: 431 in the envelope', async () => {
    const res = await admin.get('/Ajax/GetVideoListInAdmin', { VdName: 'x'.repeat(30000) });
    expect(res.status).toBe(431);
    expect(res.body).toEqual({ code: 431, msg: '请求头或地址过长' });
  });

  it.each(['/files/%E0%A4%A', '/upload/%E0%A4%A'])('an undecodable URL %s: 400 in the envelope, the URL not echoed', async (path) => {
    const res = await admin.call(path, undefined, { method: path.startsWith('/files') ? 'GET' : 'PUT' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 400, msg: '请求格式不正确' });
  });

  it('an over-long path parameter: 414 in the envelope', async () => {
    const res = await admin.call(`/upload-part/${'x'.repeat(3000)}/1`, undefined, { method: 'PUT' });
    expect(res.status).toBe(414);
    expect(res.body).toEqual({ code: 414, msg: '请求地址过长' });
  });
});
