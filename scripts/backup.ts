// npm run backup [-- <folder>]: a consistent copy of the embedded store, safe while the server
// runs: the SQLite database through SQLite's online backup API, then the uploaded files, into one
// timestamped folder (default ./backups, or BACKUP_DIR) with a manifest of sizes and SHA-256.
//
// A plain folder rather than an archive: Node has gzip but no tar, and a library for it is not
// worth it here; a folder can be checked, copied with rsync or cp -a, or archived with tar by the
// operator. It is written as <name>.partial and renamed at the end, so a backup that stopped
// half-way is never taken for a good one.
//
// Order matters: the database first, then the files. Stored files are never changed by the server
// (keys are never reused) and appear in place only whole (link/rename). The server removes a file
// once no record points at it (server/src/files/lifecycle.ts), so the backup pauses new removal
// decisions from before the snapshot until the files are copied (server/src/files/pause.ts): every
// file a record of the snapshot points at is then still there when the files are copied. A file
// removed meanwhile was decided on before the snapshot, so no record of it points there: skipped.
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { loadConfig, type Config } from '../server/src/config';
import { PAUSE_LEASE_MS, PAUSE_SETTING } from '../server/src/files/pause';
import { DB_FILE, FILES_DIR, MANIFEST, TMP_DIR, bytesText, listFiles, sha256Of, type Manifest, type ManifestFile } from './backup/common';

/** All pages in one step: one read transaction, so the copy is one point in time (WAL lets the server write on). */
const ALL_PAGES = 0x7fffffff;

function stamp(date: Date): string {
  // Milliseconds kept: two backups in one second get two folders.
  return date.toISOString().replace(/[-:]/g, '');
}

async function backupDatabase(source: string, target: string): Promise<Manifest['database']> {
  const db = new SQLite(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    await db.backup(target, { progress: () => ALL_PAGES });
  } finally {
    db.close();
  }
  const copy = new SQLite(target);
  let integrity: string;
  try {
    // One self-contained file: no -wal beside it.
    copy.pragma('journal_mode = DELETE');
    // The pause is this backup's, not the restored server's.
    copy.prepare('delete from "SETTING" where "NAME" = ?').run(PAUSE_SETTING);
    integrity = (copy.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
  } finally {
    copy.close();
  }
  if (integrity !== 'ok') throw new Error(`备份的数据库未通过完整性检查 (integrity_check): ${integrity}`);
  return { path: DB_FILE, bytes: (await stat(target)).size, sha256: await sha256Of(target), integrity };
}

async function main() {
  const config = loadConfig();
  const outRoot = path.resolve(process.argv[2] ?? process.env.BACKUP_DIR ?? 'backups');
  const withDatabase = !config.databaseUrl;
  const withFiles = config.storage === 'local';
  if (!withDatabase && !withFiles) {
    console.error('记录在 PostgreSQL、文件在 S3：本命令无可备份内容，请按 docs/backup.md 使用 pg_dump 与存储桶版本控制/复制。');
    process.exit(2);
  }
  const startedAt = new Date();
  const name = `zhishi-backup-${stamp(startedAt)}`;
  const partial = path.join(outRoot, `${name}.partial`);
  const final = path.join(outRoot, name);
  const dbFile = path.join(config.dataDir, DB_FILE);
  if (withDatabase && !existsSync(dbFile)) {
    console.error(`没有可备份的数据库：${dbFile} 不存在（DATA_DIR 是否正确？）`);
    process.exit(2);
  }
  await mkdir(partial, { recursive: true });
  try {
    await writeBackup(config, partial, startedAt, withDatabase, withFiles);
  } catch (err) {
    // Nothing half-written stays behind.
    await rm(partial, { recursive: true, force: true });
    throw err;
  }
  await rename(partial, final);
  report(JSON.parse(await readFile(path.join(final, MANIFEST), 'utf8')) as Manifest, startedAt, final);
}

/**
 * Pauses new removal decisions of the server (and of every server on this database) until `end()`:
 * a lease in the SETTING table, renewed every minute, so a backup that dies holds nothing for long.
 */
function pauseRemovals(dbFile: string): { end(): void } {
  const db = new SQLite(dbFile, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  const upsert = db.prepare('insert into "SETTING" ("NAME", "VALUE") values (?, ?) on conflict ("NAME") do update set "VALUE" = excluded."VALUE"');
  const renew = () => upsert.run(PAUSE_SETTING, new Date(Date.now() + PAUSE_LEASE_MS).toISOString());
  renew();
  const timer = setInterval(() => {
    try {
      renew();
    } catch (err) {
      console.error(`无法续期文件删除暂停 (pause renewal failed): ${err instanceof Error ? err.message : String(err)}`);
    }
  }, 60_000);
  timer.unref();
  return {
    end() {
      clearInterval(timer);
      try {
        db.prepare('delete from "SETTING" where "NAME" = ?').run(PAUSE_SETTING);
      } finally {
        db.close();
      }
    },
  };
}

async function writeBackup(config: Config, partial: string, startedAt: Date, withDatabase: boolean, withFiles: boolean): Promise<void> {
  // On PostgreSQL the records are dumped by the operator beforehand: see docs/backup.md.
  const pause = withDatabase && withFiles ? pauseRemovals(path.join(config.dataDir, DB_FILE)) : undefined;
  try {
    await writeSnapshot(config, partial, startedAt, withDatabase, withFiles);
  } finally {
    pause?.end();
  }
}

async function writeSnapshot(config: Config, partial: string, startedAt: Date, withDatabase: boolean, withFiles: boolean): Promise<void> {
  const manifest: Manifest = { format: 1, createdAt: startedAt.toISOString(), sourceDataDir: config.dataDir, files: [] };
  if (withDatabase) {
    manifest.database = await backupDatabase(path.join(config.dataDir, DB_FILE), path.join(partial, DB_FILE));
  } else {
    console.log('DATABASE_URL 已设置：记录在 PostgreSQL 中，请用 pg_dump 备份（见 docs/backup.md）；此处只备份文件。');
  }
  if (withFiles) {
    const src = path.join(config.dataDir, FILES_DIR);
    for (const rel of await listFiles(src, new Set([TMP_DIR]))) {
      const to = path.join(partial, FILES_DIR, ...rel.split('/'));
      await mkdir(path.dirname(to), { recursive: true });
      const copied = await copyFile(path.join(src, ...rel.split('/')), to).then(
        () => true,
        (err: NodeJS.ErrnoException) => {
          // Removed since it was listed: decided before the snapshot, so no record of it points there.
          if (err.code === 'ENOENT') return false;
          throw err;
        },
      );
      if (!copied) continue;
      const entry: ManifestFile = { path: `${FILES_DIR}/${rel}`, bytes: (await stat(to)).size, sha256: await sha256Of(to) };
      manifest.files.push(entry);
    }
  } else {
    console.log('STORAGE=s3：文件在存储桶中，请用存储桶版本控制或复制备份（见 docs/backup.md）；此处只备份数据库。');
  }
  await writeFile(path.join(partial, MANIFEST), JSON.stringify(manifest, null, 2));
}

function report(manifest: Manifest, startedAt: Date, final: string): void {
  const fileBytes = manifest.files.reduce((n, f) => n + f.bytes, 0);
  const seconds = ((Date.now() - startedAt.getTime()) / 1000).toFixed(1);
  console.log(
    `备份完成 (backup done) in ${seconds} s: ` +
      `${manifest.database ? `数据库 ${bytesText(manifest.database.bytes)} (integrity_check ok), ` : ''}` +
      `${manifest.files.length} 个文件 ${bytesText(fileBytes)}`,
  );
  // Last line: the folder, for scripts.
  console.log(final);
}

main().catch((err: unknown) => {
  console.error(`备份失败 (backup failed): ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
