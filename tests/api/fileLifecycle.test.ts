// Stored files do not outlive their records and are not public (server/src/files/lifecycle.ts,
// plugins/storage.ts), on both drivers: a deleted record's files and the file an update stops
// pointing at are removed once the change commits, never while another record points at them; an
// upload no record points at is removed after a day; `/files/` answers members only; and the daily
// upload quota refuses past its limit, storing nothing.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedUpload } from '../../schemas/types';
import { posterKeyOf } from '../../server/src/media/poster';
import { LocalStorage } from '../../server/src/storage/local';
import { mp4Bytes, pngBytes } from '../helpers/bytes';
import { storageEnv, type LocalS3 } from '../helpers/s3rver';
import { startServer, type Client, type TestServer } from '../helpers/server';

const KB = 1024;
const MB = 1024 * KB;
const DAY = 24 * 3600 * 1000;
/** The SETTING row `npm run backup` writes while it runs (server/src/files/lifecycle.ts). */
const PAUSE_SETTING = 'file_removal_paused_until';
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(300, 7)]);

interface Uploaded {
  FileUrl: string;
  Title: string;
  key: string;
}

describe.each(['local', 's3'] as const)('stored files follow their records on the %s driver', (driver) => {
  let server: TestServer;
  let admin: Client;
  let s3: LocalS3 | undefined;
  let VdtCode: string;
  let tmp: string;

  const absolute = (url: string) => (url.startsWith('/') ? server.url + url : url);
  const exists = (key: string) => server.app.storage.exists(key);
  /** Reads a file as the admin app does: same-origin, with the session cookie (or without one). */
  const read = (url: string, cookie = admin.cookie, headers: Record<string, string> = {}) =>
    fetch(absolute(url), { headers: { ...headers, ...(cookie ? { cookie } : {}) } });

  async function upload(FileName: string, bytes: Buffer, Kind: string, ContentType: string, client = admin): Promise<Uploaded> {
    const signed = await client.call<SignedUpload>('/Ajax/SignUpload', { FileName, Size: bytes.length, Kind, ContentType });
    expect(signed.status, signed.body.msg).toBe(200);
    const put = await fetch(absolute(signed.body.data.Url), { method: 'PUT', headers: signed.body.data.Headers, body: new Uint8Array(bytes) });
    expect(put.status).toBe(200);
    const key = server.app.storage.keyOf(signed.body.data.FileUrl)!;
    expect(key).toBeDefined();
    return { FileUrl: signed.body.data.FileUrl, Title: signed.body.data.Title, key };
  }

  /** A video file with a poster beside it (made here: the test host may have no ffmpeg). */
  async function uploadVideoWithPoster(): Promise<Uploaded & { posterKey: string }> {
    const video = await upload('课程.mp4', mp4Bytes(4 * KB), 'video', 'video/mp4');
    const posterKey = posterKeyOf(video.key)!;
    const file = path.join(tmp, 'poster.jpg');
    await writeFile(file, JPEG);
    await server.app.storage.putFile(posterKey, file, 'image/jpeg');
    return { ...video, posterKey };
  }

  const addVideo = (VdUrl: string, extra: Record<string, unknown> = {}) =>
    admin.call<{ Id: number; VdUrl: string; VdEnclosure: string }>('/Ajax/AddVideo', { VdtCode, VdName: '生命周期', VdUrl, ...extra });
  const gcRow = (key: string) => server.app.database.db.selectFrom('FILE_GC').selectAll().where('KEY', '=', key).executeTakeFirst();

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'file-lifecycle-'));
    s3 = await storageEnv(driver);
    server = await startServer(s3.env);
    admin = await server.admin();
    VdtCode = (await admin.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName: '文件生命周期', VdtSort: 1 })).body.data.VdtCode;
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it('removes a deleted video’s file and its poster once the delete commits', async () => {
    const video = await uploadVideoWithPoster();
    const added = await addVideo(video.FileUrl);
    expect(added.status, added.body.msg).toBe(200);
    expect(await exists(video.key)).toBe(true);
    expect(await exists(video.posterKey)).toBe(true);

    const deleted = await admin.call('/Ajax/DelVideo', { Id: added.body.data.Id });
    expect(deleted.status).toBe(200);
    expect(await exists(video.key)).toBe(false);
    expect(await exists(video.posterKey)).toBe(false);
    expect((await read(video.FileUrl)).status).toBe(404);
    // Never again: a record may not point at it (its tombstone), even were the bytes back.
    expect(await gcRow(video.key)).toMatchObject({ STATE: 'removed' });
    const again = await addVideo(video.FileUrl);
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe('文件不存在，请重新上传');
  });

  it('removes the file an update stops pointing at: a replaced video, a handout taken off a list, a replaced image', async () => {
    const first = await uploadVideoWithPoster();
    const handoutA = await upload('讲义A.txt', Buffer.from('讲义 A'), 'handout', 'text/plain');
    const handoutB = await upload('讲义B.txt', Buffer.from('讲义 B'), 'handout', 'text/plain');
    const list = (...h: Uploaded[]) => JSON.stringify(h.map((f) => ({ name: f.Title, url: f.FileUrl })));
    const added = await addVideo(first.FileUrl, { VdEnclosure: list(handoutA, handoutB) });
    expect(added.status, added.body.msg).toBe(200);

    const second = await upload('新版.mp4', mp4Bytes(4 * KB), 'video', 'video/mp4');
    const replaced = await admin.call('/Ajax/UpdateVideo', { Id: added.body.data.Id, VdUrl: second.FileUrl, VdEnclosure: list(handoutB) });
    expect(replaced.status, replaced.body.msg).toBe(200);
    expect(await exists(first.key)).toBe(false);
    expect(await exists(first.posterKey)).toBe(false);
    expect(await exists(handoutA.key)).toBe(false);
    expect(await exists(second.key)).toBe(true);
    expect(await exists(handoutB.key)).toBe(true);

    // An unchanged save keeps everything.
    const same = await admin.call('/Ajax/UpdateVideo', { Id: added.body.data.Id, VdName: '改名', VdUrl: second.FileUrl, VdEnclosure: list(handoutB) });
    expect(same.status).toBe(200);
    expect(await exists(second.key)).toBe(true);
    expect(await exists(handoutB.key)).toBe(true);

    const icon = await upload('图标.png', pngBytes(2 * KB), 'image', 'image/png');
    const classify = await admin.call<{ Id: number }>('/Xcx1/CreateStandardClassifyInAdmin', { ScName: '带图分类', ScImg: icon.FileUrl });
    expect(classify.status, classify.body.msg).toBe(200);
    const newIcon = await upload('新图标.png', pngBytes(2 * KB), 'image', 'image/png');
    const changed = await admin.call('/Xcx1/UpdateStandardClassifyInAdmin', { Id: classify.body.data.Id, ScImg: newIcon.FileUrl });
    expect(changed.status, changed.body.msg).toBe(200);
    expect(await exists(icon.key)).toBe(false);
    expect(await exists(newIcon.key)).toBe(true);
    const cleared = await admin.call('/Xcx1/UpdateStandardClassifyInAdmin', { Id: classify.body.data.Id, ScImg: '' });
    expect(cleared.status).toBe(200);
    expect(await exists(newIcon.key)).toBe(false);
  });

  it('keeps a file two records point at until the last of them lets go of it', async () => {
    const handout = await upload('共用讲义.txt', Buffer.from('共用'), 'handout', 'text/plain');
    const video = await uploadVideoWithPoster();
    const list = JSON.stringify([{ name: handout.Title, url: handout.FileUrl }]);
    const one = await addVideo(video.FileUrl, { VdEnclosure: list });
    // The same handout copied into an article, and the same video in a second record.
    const classify = await admin.call<{ ScCode: string }>('/Xcx1/CreateStandardClassifyInAdmin', { ScName: '共用' });
    const article = await admin.call<{ Id: number }>('/Xcx1/AddStandardArticleInAdmin', { ScCode: classify.body.data.ScCode, SaName: '复制的讲义', SaPdfUrl: list });
    expect(article.status, article.body.msg).toBe(200);
    const two = await addVideo(video.FileUrl);
    expect(two.status).toBe(200);

    expect((await admin.call('/Ajax/DelVideo', { Id: one.body.data.Id })).status).toBe(200);
    expect(await exists(handout.key)).toBe(true);
    expect(await exists(video.key)).toBe(true);
    expect(await exists(video.posterKey)).toBe(true);
    expect((await read(handout.FileUrl)).status).toBe(200);

    expect((await admin.call('/Xcx1/DelStandardArticleInAdmin', { Id: article.body.data.Id })).status).toBe(200);
    expect(await exists(handout.key)).toBe(false);
    expect((await admin.call('/Ajax/DelVideo', { Id: two.body.data.Id })).status).toBe(200);
    expect(await exists(video.key)).toBe(false);
    expect(await exists(video.posterKey)).toBe(false);
  });

  it('never removes a file while a record is made to point at it (a delete racing a copy)', async () => {
    let copies = 0;
    for (let i = 0; i < 12; i++) {
      const handout = await upload(`竞争${i}.txt`, Buffer.from(`讲义 ${i}`), 'handout', 'text/plain');
      const VdEnclosure = JSON.stringify([{ name: handout.Title, url: handout.FileUrl }]);
      const external = 'https://media.example.com/race.mp4';
      const first = await addVideo(external, { VdEnclosure });
      expect(first.status).toBe(200);
      const [del, copy] = await Promise.all([admin.call('/Ajax/DelVideo', { Id: first.body.data.Id }), addVideo(external, { VdEnclosure })]);
      expect(del.status).toBe(200);
      if (copy.status === 200) {
        // The copy committed: the file stays, whichever came first.
        copies++;
        expect(await exists(handout.key)).toBe(true);
        await server.app.files.sweep();
        expect(await exists(handout.key)).toBe(true);
        expect((await admin.call('/Ajax/DelVideo', { Id: copy.body.data.Id })).status).toBe(200);
      } else {
        expect(copy.status).toBe(400);
        expect(copy.body.msg).toBe('文件不存在，请重新上传');
      }
      expect(await exists(handout.key)).toBe(false);
    }
    console.log(`[files] delete racing a copy: ${copies}/12 copies committed (file kept), ${12 - copies}/12 refused (file removed)`);
  });

  it('keeps a file that rich text or a declared link field still points at, and removes an upload no record points at after a day', async () => {
    const linked = await upload('正文图.png', pngBytes(2 * KB), 'image', 'image/png');
    const pasted = await upload('上传地址.txt', Buffer.from('贴在上传地址里'), 'handout', 'text/plain');
    const described = await upload('描述里.txt', Buffer.from('只写在描述里'), 'handout', 'text/plain');
    const classify = await admin.call<{ ScCode: string }>('/Xcx1/CreateStandardClassifyInAdmin', { ScName: '正文' });
    const article = await admin.call('/Xcx1/AddStandardArticleInAdmin', {
      ScCode: classify.body.data.ScCode,
      SaName: '正文里的图',
      SaAnswer: `<p>见图：<img src="${linked.FileUrl}" alt="图"></p>`,
      // 上传地址 is declared a link field (links: ['SaUploadUrl']); 描述 is plain text, not a link.
      SaUploadUrl: pasted.FileUrl,
      NiDescribe: described.FileUrl,
    });
    expect(article.status, article.body.msg).toBe(200);
    const orphan = await upload('没人用.png', pngBytes(2 * KB), 'image', 'image/png');
    const used = await upload('有人用.mp4', mp4Bytes(2 * KB), 'video', 'video/mp4');
    expect((await addVideo(used.FileUrl)).status).toBe(200);

    // Within the day, nothing goes: the form may still be open.
    await server.app.files.sweep({ now: new Date(Date.now() + DAY / 2) });
    expect(await exists(orphan.key)).toBe(true);

    const swept = await server.app.files.sweep({ now: new Date(Date.now() + DAY + 60_000) });
    expect(swept.removed).toContain(orphan.key);
    expect(swept.removed).toContain(described.key);
    expect(await exists(orphan.key)).toBe(false);
    expect(await exists(linked.key)).toBe(true);
    expect(await exists(pasted.key)).toBe(true);
    expect(await exists(used.key)).toBe(true);
    // A kept file is no longer a candidate: its records' changes will queue it again.
    expect(await gcRow(used.key)).toBeUndefined();
  });

  it('removes a file only a deleted video’s comments point at, once the video goes with its comments', async () => {
    const picture = await upload('评论图.png', pngBytes(2 * KB), 'image', 'image/png');
    const shared = await upload('两处用.png', pngBytes(2 * KB), 'image', 'image/png');
    const video = await upload('有评论.mp4', mp4Bytes(2 * KB), 'video', 'video/mp4');
    const added = await addVideo(video.FileUrl, { VdEnclosure: JSON.stringify([]) });
    expect(added.status, added.body.msg).toBe(200);
    const VdCode = (await admin.call<{ VdCode: string }>('/Ajax/GetSingleVideoInAdmin', { Id: added.body.data.Id })).body.data.VdCode;
    for (const file of [picture, shared]) {
      const comment = await admin.call('/Ajax/AddVideoMessage', { VdCode, VmDes: `<p>见图<img src="${file.FileUrl}" alt="图"></p>` });
      expect(comment.status, comment.body.msg).toBe(200);
    }
    const classify = await admin.call<{ ScCode: string }>('/Xcx1/CreateStandardClassifyInAdmin', { ScName: '也用这张图' });
    const article = await admin.call('/Xcx1/AddStandardArticleInAdmin', {
      ScCode: classify.body.data.ScCode,
      SaName: '同一张图',
      SaAnswer: `<p><img src="${shared.FileUrl}" alt="图"></p>`,
    });
    expect(article.status, article.body.msg).toBe(200);
    // A day later the sweeper finds both in use and stops watching them.
    await server.app.files.sweep({ now: new Date(Date.now() + DAY + 60_000) });
    expect(await gcRow(picture.key)).toBeUndefined();

    const deleted = await admin.call('/Ajax/DelVideo', { Id: added.body.data.Id });
    expect(deleted.status, deleted.body.msg).toBe(200);
    expect(await exists(picture.key)).toBe(false);
    expect((await read(picture.FileUrl)).status).toBe(404);
    expect(await exists(shared.key)).toBe(true);
  });

  it('retries a removal that failed after the commit, and pauses new decisions while a backup runs', async () => {
    const video = await upload('重试.mp4', mp4Bytes(2 * KB), 'video', 'video/mp4');
    const added = await addVideo(video.FileUrl);
    const storage = server.app.storage;
    const remove = storage.remove.bind(storage);
    storage.remove = () => Promise.reject(new Error('storage unreachable'));
    try {
      // The delete is committed and answered; the file waits for the sweeper.
      expect((await admin.call('/Ajax/DelVideo', { Id: added.body.data.Id })).status).toBe(200);
    } finally {
      storage.remove = remove;
    }
    expect(await exists(video.key)).toBe(true);
    expect(await gcRow(video.key)).toMatchObject({ STATE: 'removing', TRIES: 1 });
    // Decided already: a record may not point at it meanwhile.
    expect((await addVideo(video.FileUrl)).status).toBe(400);
    await server.app.files.sweep({ now: new Date(Date.now() + 5 * 60_000) });
    expect(await exists(video.key)).toBe(false);

    const db = server.app.database.db;
    await db.insertInto('SETTING').values({ NAME: PAUSE_SETTING, VALUE: new Date(Date.now() + 3600_000).toISOString() }).execute();
    try {
      const held = await upload('备份中.mp4', mp4Bytes(2 * KB), 'video', 'video/mp4');
      const during = await addVideo(held.FileUrl);
      expect((await admin.call('/Ajax/DelVideo', { Id: during.body.data.Id })).status).toBe(200);
      expect(await exists(held.key)).toBe(true);
      expect(await gcRow(held.key)).toMatchObject({ STATE: 'queued' });
      await db.deleteFrom('SETTING').where('NAME', '=', PAUSE_SETTING).execute();
      await server.app.files.sweep();
      expect(await exists(held.key)).toBe(false);
    } finally {
      await db.deleteFrom('SETTING').where('NAME', '=', PAUSE_SETTING).execute();
    }
  });

  it('adopts files stored before uploads were tracked, and removes the unreferenced ones a day later', async () => {
    const kept = await upload('旧的有用.mp4', mp4Bytes(2 * KB), 'video', 'video/mp4');
    const stale = await upload('旧的没用.mp4', mp4Bytes(2 * KB), 'video', 'video/mp4');
    expect((await addVideo(kept.FileUrl)).status).toBe(200);
    // As a database migrated from before: neither tracked, adoption not done yet.
    const db = server.app.database.db;
    await db.deleteFrom('FILE_GC').where('KEY', 'in', [kept.key, stale.key]).execute();
    await db.deleteFrom('SETTING').where('NAME', '=', 'file_gc_adopted').execute();
    expect(await server.app.files.adoptExistingFiles()).toBeGreaterThanOrEqual(2);
    await server.app.files.sweep({ now: new Date(Date.now() + DAY + 60_000) });
    expect(await exists(stale.key)).toBe(false);
    expect(await exists(kept.key)).toBe(true);
  });

  it('serves files to signed-in members only, privately, with Range requests', async () => {
    const bytes = mp4Bytes(1000);
    const video = await upload('私有.mp4', bytes, 'video', 'video/mp4');
    if (driver === 'local') expect(video.FileUrl).toBe(`/files/${video.key}`);

    const anonymous = await read(video.FileUrl, '');
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ code: 401, msg: '请先登录' });
    expect((await fetch(absolute(video.FileUrl), { method: 'HEAD' })).status).toBe(401);
    // A session that ended is no session.
    const gone = await server.admin();
    await gone.call('/Ajax/Logout', {});
    expect((await read(video.FileUrl, 'zhishi_sid=' + 'x'.repeat(43))).status).toBe(401);

    const full = await read(video.FileUrl);
    expect(full.status).toBe(200);
    expect(Buffer.from(await full.arrayBuffer()).equals(bytes)).toBe(true);
    const range = await read(video.FileUrl, admin.cookie, { Range: 'bytes=4-11' });
    expect(range.status).toBe(206);
    expect(Buffer.from(await range.arrayBuffer()).toString('latin1')).toBe('ftypisom');

    if (driver === 'local') {
      const cache = full.headers.get('cache-control') ?? '';
      expect(cache).toContain('private');
      expect(cache).not.toContain('public');
      expect(cache).not.toContain('immutable');
      expect(full.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    } else {
      // The bucket is private: the server sends members to a presigned GET, the same one within the hour.
      const redirect = await fetch(absolute(video.FileUrl), { headers: { cookie: admin.cookie }, redirect: 'manual' });
      expect(redirect.status).toBe(302);
      const location = new URL(redirect.headers.get('location')!);
      expect(location.searchParams.get('X-Amz-Signature')).toBeTruthy();
      expect(Number(location.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(7200);
      expect(redirect.headers.get('cache-control')).toMatch(/^private/);
      const again = await fetch(absolute(video.FileUrl), { headers: { cookie: admin.cookie }, redirect: 'manual' });
      expect(again.headers.get('location')).toBe(redirect.headers.get('location'));
    }
  });

  if (driver === 's3') {
    it('reads records saved with the public bucket URL as /files/ (S3_READ=private), and still tracks them', async () => {
      const video = await upload('旧地址.mp4', mp4Bytes(2 * KB), 'video', 'video/mp4');
      const publicUrl = `${s3!.env.S3_ENDPOINT}/${s3!.env.S3_BUCKET}/${video.key}`;
      expect(video.FileUrl).toBe(`/files/${video.key}`);
      const added = await addVideo(publicUrl);
      expect(added.status, added.body.msg).toBe(200);
      expect(added.body.data.VdUrl).toBe(video.FileUrl);
      const one = await admin.get<{ VdUrl: string }>('/Ajax/GetSingleVideoInAdmin', { Id: added.body.data.Id });
      expect(one.body.data.VdUrl).toBe(video.FileUrl);
      expect((await admin.call('/Ajax/DelVideo', { Id: added.body.data.Id })).status).toBe(200);
      expect(await exists(video.key)).toBe(false);
    });
  }
});

describe.each(['local', 's3'] as const)('the daily upload quota on the %s driver', (driver) => {
  let server: TestServer;
  let s3: LocalS3 | undefined;

  beforeAll(async () => {
    s3 = await storageEnv(driver);
    server = await startServer({ ...s3.env, UPLOAD_QUOTA_MB_PER_DAY: '3' });
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  it('refuses SignUpload and CreateMultipartUpload past the limit, storing nothing', async () => {
    const staff = await server.member({ video: '1,2,3,4' });
    const db = server.app.database.db;
    const first = await staff.call<SignedUpload>('/Ajax/SignUpload', { FileName: 'a.mp4', Size: 2 * MB, Kind: 'video', ContentType: 'video/mp4' });
    expect(first.status, first.body.msg).toBe(200);

    const over = await staff.call('/Ajax/SignUpload', { FileName: 'b.mp4', Size: 1.5 * MB, Kind: 'video', ContentType: 'video/mp4' });
    expect(over.status).toBe(429);
    expect(over.body.msg).toMatch(/^今日上传已达上限/);
    expect(over.body.msg).toContain('3MB');
    const parts = await staff.call('/Ajax/CreateMultipartUpload', { FileName: 'c.mp4', Size: 1.5 * MB, Kind: 'video', ContentType: 'video/mp4' });
    expect(parts.status).toBe(429);
    expect(parts.body.msg).toMatch(/^今日上传已达上限/);

    // Only the first upload is recorded; nothing was started in storage.
    const logged = await db.selectFrom('UPLOAD_LOG').select('KEY').execute();
    expect(logged).toHaveLength(1);
    expect(await db.selectFrom('UPLOAD').selectAll().execute()).toEqual([]);
    expect((await db.selectFrom('FILE_GC').select('KEY').execute()).map((r) => r.KEY)).toEqual(logged.map((r) => r.KEY));
    if (server.app.storage instanceof LocalStorage) {
      const mp = server.app.storage.multipartDir;
      expect(existsSync(mp) ? await readdir(mp) : []).toEqual([]);
    }

    // A small file still fits (each upload counts at least 1 MB); another member has their own quota.
    expect((await staff.call('/Ajax/SignUpload', { FileName: 'n.txt', Size: 10, Kind: 'handout', ContentType: 'text/plain' })).status).toBe(200);
    expect((await staff.call('/Ajax/SignUpload', { FileName: 'm.txt', Size: 10, Kind: 'handout', ContentType: 'text/plain' })).status).toBe(429);
    const other = await server.member({ video: '1,2,3,4' });
    expect((await other.call('/Ajax/SignUpload', { FileName: 'd.mp4', Size: 2 * MB, Kind: 'video', ContentType: 'video/mp4' })).status).toBe(200);

    // A day later the quota is free again.
    await db.updateTable('UPLOAD_LOG').set({ CREATED_AT: new Date(Date.now() - DAY - 1000).toISOString() }).execute();
    expect((await staff.call('/Ajax/SignUpload', { FileName: 'e.mp4', Size: 2 * MB, Kind: 'video', ContentType: 'video/mp4' })).status).toBe(200);
  });
});
