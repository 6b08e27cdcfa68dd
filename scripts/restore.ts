// npm run restore -- <backup folder>: puts a backup of npm run backup back into DATA_DIR.
//
// Safety: it refuses while any process has the DATA_DIR's database or files open (a running
// server always has its SQLite file open; see processesUsing), and when that cannot be told it
// refuses unless --force says the server is stopped. The backup is checked first (every SHA-256,
// the database's integrity_check); nothing in DATA_DIR is deleted: the current database (with its
// -wal/-shm, which must never sit beside another database) and files move to
// DATA_DIR/pre-restore-<time>/ before the backup is copied in.
import { copyFile, cp, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { loadConfig } from '../server/src/config';
import { DB_FILE, FILES_DIR, MANIFEST, bytesText, processesUsing, sha256Of, type Manifest, type ManifestFile } from './backup/common';

class Refusal extends Error {}

async function verify(backup: string, manifest: Manifest): Promise<void> {
  const entries: ManifestFile[] = [...(manifest.database ? [manifest.database] : []), ...manifest.files];
  for (const entry of entries) {
    const file = path.join(backup, ...entry.path.split('/'));
    const info = await stat(file).catch(() => undefined);
    if (!info || info.size !== entry.bytes || (await sha256Of(file)) !== entry.sha256) {
      throw new Refusal(`备份已损坏：${entry.path} 缺失或与清单不符 (does not match the manifest)，未做任何改动`);
    }
  }
  if (manifest.database) {
    const db = new SQLite(path.join(backup, DB_FILE), { readonly: true, fileMustExist: true });
    try {
      const result = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
      if (result !== 'ok') throw new Refusal(`备份的数据库未通过完整性检查：${result}，未做任何改动`);
    } finally {
      db.close();
    }
  }
}

async function main() {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const backupArg = args.find((a) => !a.startsWith('--'));
  if (!backupArg) throw new Refusal('用法 (usage): npm run restore -- <备份目录> [--force]');
  const backup = path.resolve(backupArg);
  const config = loadConfig();
  const dataDir = config.dataDir;
  const manifest = JSON.parse(await readFile(path.join(backup, MANIFEST), 'utf8').catch(() => {
    throw new Refusal(`${backup} 不是 npm run backup 生成的备份（缺少 ${MANIFEST}）`);
  })) as Manifest;
  if (manifest.format !== 1) throw new Refusal(`不支持的备份格式：${String(manifest.format)}`);
  if (config.databaseUrl && manifest.database) {
    throw new Refusal('DATABASE_URL 已设置：服务器使用 PostgreSQL，本命令只恢复内置 SQLite。PostgreSQL 请用 pg_restore（见 docs/backup.md）。');
  }
  // On PostgreSQL a server holds no file of DATA_DIR open for good: only the operator can say it is stopped.
  if (config.databaseUrl && !force) {
    throw new Refusal('DATABASE_URL 已设置：无法确认服务器是否已停止。请先停止服务器，再加 --force 恢复文件。');
  }

  // Before touching anything: no server on this DATA_DIR.
  const users = await processesUsing(dataDir);
  if (users === undefined && !force) {
    throw new Refusal('无法确认是否有服务器正在使用该 DATA_DIR（无 /proc 且无 lsof）。请先停止服务器，再加 --force 重试。');
  }
  if (users && users.length > 0) {
    throw new Refusal(`服务器正在使用 ${dataDir}（进程 ${users.join(', ')}）：请先停止服务器再恢复 (stop the server first)。`);
  }
  await verify(backup, manifest);

  // Keep what is there now, moved aside as a whole.
  const now = new Date().toISOString().replace(/[-:]/g, '');
  const aside = path.join(dataDir, `pre-restore-${now}`);
  const current = [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`, FILES_DIR].filter((n) => existsSync(path.join(dataDir, n)));
  await mkdir(dataDir, { recursive: true });
  if (current.length > 0) {
    await mkdir(aside, { recursive: true });
    for (const name of current) await rename(path.join(dataDir, name), path.join(aside, name));
  }

  // Copied under temporary names, renamed into place last: a restore cut short leaves no half database.
  if (manifest.database) {
    const tmp = path.join(dataDir, `${DB_FILE}.restoring`);
    await copyFile(path.join(backup, DB_FILE), tmp);
    await rename(tmp, path.join(dataDir, DB_FILE));
  }
  const filesTmp = path.join(dataDir, `${FILES_DIR}.restoring`);
  await rm(filesTmp, { recursive: true, force: true });
  if (existsSync(path.join(backup, FILES_DIR))) await cp(path.join(backup, FILES_DIR), filesTmp, { recursive: true });
  else await mkdir(filesTmp);
  await rename(filesTmp, path.join(dataDir, FILES_DIR));

  const bytes = manifest.files.reduce((n, f) => n + f.bytes, 0);
  console.log(
    `恢复完成 (restore done): 备份时间 ${manifest.createdAt}，` +
      `${manifest.database ? `数据库 ${bytesText(manifest.database.bytes)}，` : ''}${manifest.files.length} 个文件 ${bytesText(bytes)} → ${dataDir}`,
  );
  if (current.length > 0) console.log(`原有数据已移至 (previous data moved to) ${aside}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Refusal ? err.message : `恢复失败 (restore failed): ${err instanceof Error ? err.message : String(err)}`);
  process.exit(err instanceof Refusal ? 2 : 1);
});
