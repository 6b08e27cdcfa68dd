// npm run backup while writes are going on, then npm run restore into a fresh DATA_DIR: every
// record acknowledged before the backup started is there, every file byte-identical, the restored
// database passes integrity_check with exact totals, and no restored record points at a missing
// file. Restore refuses while a server uses the DATA_DIR.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { SignedUpload } from '../../schemas/types';
import { mp4Bytes } from '../helpers/bytes';
import { checkSqliteFile } from '../helpers/integrity';
import { runScript, spawnServer, type ServerProcess } from '../helpers/process';
import type { Client } from '../helpers/server';

const KB = 1024;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-backup-'));
const sourceDir = path.join(root, 'source');
const restoredDir = path.join(root, 'restored');
const backupsDir = path.join(root, 'backups');
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

interface Stored {
  Id: number;
  VdName: string;
  FileUrl: string;
  bytes: Buffer;
}

/** Uploads a video file as the browser does and adds a video pointing at it. */
async function addVideoWithFile(server: ServerProcess, admin: Client, VdtCode: string, n: number): Promise<Stored | undefined> {
  const bytes = mp4Bytes(8 * KB + ((n * 7919) % (200 * KB)));
  const signed = await admin.call<SignedUpload>('/Ajax/SignUpload', { FileName: `v${n}.mp4`, Size: bytes.length, Kind: 'video', ContentType: 'video/mp4' });
  if (signed.status !== 200) return undefined;
  const put = await fetch(server.url + signed.body.data.Url, { method: 'PUT', headers: signed.body.data.Headers, body: new Uint8Array(bytes) });
  if (put.status !== 200) return undefined;
  const VdName = `备份-${n}`;
  const add = await admin.call<{ Id: number }>('/Ajax/AddVideo', { VdtCode, VdName, VdUrl: signed.body.data.FileUrl });
  if (add.status !== 200) return undefined;
  return { Id: add.body.data.Id, VdName, FileUrl: signed.body.data.FileUrl, bytes };
}

describe('backup while writing, restore into a fresh DATA_DIR (SQLite + local files)', () => {
  it('restores every record acknowledged before the backup and every file, byte for byte', { timeout: 300_000 }, async () => {
    const source = await spawnServer(sourceDir);
    servers.push(source);
    const admin = await source.admin();
    const VdtCode = (await admin.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName: '备份测试', VdtSort: 1 })).body.data.VdtCode;
    const before: Stored[] = [];
    for (let n = 0; n < 30; n++) {
      const stored = await addVideoWithFile(source, admin, VdtCode, n);
      expect(stored).toBeDefined();
      before.push(stored!);
    }
    const comments: number[] = [];
    for (const v of before.slice(0, 10)) {
      const res = await admin.call<{ Id: number }>('/Ajax/AddVideoMessage', { VdCode: (await admin.get<{ VdCode: string }>('/Ajax/GetSingleVideoInAdmin', { Id: v.Id })).body.data.VdCode, VmDes: '<p>备份前的评论</p>' });
      comments.push(res.body.data.Id);
    }

    // Writers keep going for the whole backup: files, videos, likes, and deletions of videos added
    // meanwhile, whose files the server removes right after each delete commits. A video in the
    // snapshot deleted before its file was copied would dangle, were removals not paused.
    let writing = true;
    let during = 0;
    let deleted = 0;
    const scratch: number[] = [];
    const writers = Promise.all(
      [0, 1, 2].map(async (w) => {
        for (let n = 1000 * (w + 1); writing; n++) {
          if (n % 3 === 0) {
            const added = await addVideoWithFile(source, admin, VdtCode, n);
            if (added) {
              during++;
              scratch.push(added.Id);
            }
          } else if (n % 3 === 1 && scratch.length > 6) {
            if ((await admin.call('/Ajax/DelVideo', { Id: scratch.shift()! })).status === 200) {
              during++;
              deleted++;
            }
          } else if ((await admin.call('/Ajax/UpdateVideoFabulousAdd', { Id: before[n % before.length]!.Id })).status === 200) during++;
        }
      }),
    );
    const started = Date.now();
    const backup = await runScript('scripts/backup.ts', [], { DATA_DIR: sourceDir, BACKUP_DIR: backupsDir, DATABASE_URL: '', STORAGE: 'local' });
    const backupSeconds = (Date.now() - started) / 1000;
    const duringBackup = during;
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    const backupPath = backup.stdout.trim().split('\n').pop()!;
    expect(fs.existsSync(path.join(backupPath, 'manifest.json'))).toBe(true);

    // Restore refuses while the server runs on the DATA_DIR, and changes nothing.
    const refused = await runScript('scripts/restore.ts', [backupPath], { DATA_DIR: sourceDir, DATABASE_URL: '' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('服务器正在使用');
    expect(refused.stderr).toContain(String(source.pid));
    writing = false;
    await writers;

    const restore = await runScript('scripts/restore.ts', [backupPath], { DATA_DIR: restoredDir, DATABASE_URL: '' });
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    const check = await checkSqliteFile(path.join(restoredDir, 'zhishi.sqlite'));
    expect(check.integrity).toBe('ok');
    expect(check.mismatches).toEqual([]);

    const restored = await spawnServer(restoredDir);
    servers.push(restored);
    const readBack = await restored.admin();
    for (const v of before) {
      const res = await readBack.get<{ VdName: string; VdUrl: string }>('/Ajax/GetSingleVideoInAdmin', { Id: v.Id });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ VdName: v.VdName, VdUrl: v.FileUrl });
      const file = await fetch(restored.url + v.FileUrl, { headers: { cookie: readBack.cookie } });
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).equals(v.bytes)).toBe(true);
    }
    const list = await readBack.get<{ Id: number }[]>('/Ajax/GetVideoMessageListInAdmin', { All: 1 });
    expect(list.body.data.map((c) => c.Id)).toEqual(expect.arrayContaining(comments));

    // Records written during the backup that made it in point at files that made it in too.
    const db = new SQLite(path.join(restoredDir, 'zhishi.sqlite'), { readonly: true });
    const urls = (db.prepare('select VD_URL from VIDEO').all() as { VD_URL: string }[]).map((r) => r.VD_URL);
    db.close();
    const dangling = urls.filter((u) => !fs.existsSync(path.join(restoredDir, 'uploads', ...u.replace(/^\/files\//, '').split('/'))));
    expect(dangling).toEqual([]);
    expect(deleted).toBeGreaterThan(0);
    // The source server removed the deleted videos' files, and no backup pause is left behind.
    const sourceDb = new SQLite(path.join(sourceDir, 'zhishi.sqlite'), { readonly: true });
    expect(sourceDb.prepare(`select count(*) as n from "SETTING" where "NAME" = 'file_removal_paused_until'`).get()).toEqual({ n: 0 });
    expect((sourceDb.prepare(`select count(*) as n from "FILE_GC" where "STATE" = 'removed'`).get() as { n: number }).n).toBeGreaterThan(0);
    sourceDb.close();
    // A damaged backup is refused before anything in the DATA_DIR changes.
    const victim = path.join(backupPath, new URL(before[0]!.FileUrl, 'http://x').pathname.replace(/^\/files\//, 'uploads/'));
    fs.appendFileSync(victim, 'x');
    const damagedDir = path.join(root, 'damaged');
    const damaged = await runScript('scripts/restore.ts', [backupPath], { DATA_DIR: damagedDir, DATABASE_URL: '' });
    expect(damaged.code).toBe(2);
    expect(damaged.stderr).toContain('备份已损坏');
    expect(fs.existsSync(damagedDir)).toBe(false);

    const manifest = JSON.parse(fs.readFileSync(path.join(backupPath, 'manifest.json'), 'utf8')) as { files: { bytes: number }[] };
    console.log(
      `[faults] backup/restore: backup taken in ${backupSeconds.toFixed(1)} s while ${duringBackup} writes were acknowledged; ` +
        `${manifest.files.length} files (${(manifest.files.reduce((n, f) => n + f.bytes, 0) / 1024 / 1024).toFixed(1)} MB), ${deleted} videos deleted and their files removed meanwhile; restored: ${before.length}/${before.length} ` +
        `records acknowledged before the backup, ${before.length}/${before.length} files byte-identical, ${urls.length} videos in all, 0 dangling; ` +
        `integrity_check ok, ROW_COUNT = count(*); restore refused while the server ran and from a damaged backup`,
    );
  });
});
