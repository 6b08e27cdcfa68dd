// Shared by npm run backup and npm run restore: the layout of a backup, checksums, and whether a
// process is using a DATA_DIR.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readlink } from 'node:fs/promises';
import path from 'node:path';

/** Name of the database file in DATA_DIR (server/src/db/database.ts). */
export const DB_FILE = 'zhishi.sqlite';
/** Folder of the local driver's files in DATA_DIR (server/src/storage/local.ts); `.tmp` is never kept. */
export const FILES_DIR = 'uploads';
export const TMP_DIR = '.tmp';
export const MANIFEST = 'manifest.json';

export interface ManifestFile {
  /** Path under the backup folder, with '/' separators. */
  path: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: 1;
  /** When the database snapshot was taken (ISO 8601). */
  createdAt: string;
  sourceDataDir: string;
  database?: ManifestFile & { integrity: string };
  files: ManifestFile[];
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every regular file under `dir`, as paths relative to it with '/' separators, skipping `skip` folders. */
export async function listFiles(dir: string, skip: ReadonlySet<string> = new Set()): Promise<string[]> {
  const out: string[] = [];
  async function walk(rel: string) {
    const entries = await readdir(path.join(dir, rel), { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    });
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!skip.has(child)) await walk(child);
      } else if (e.isFile()) out.push(child);
    }
  }
  await walk('');
  return out.sort();
}

export const bytesText = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${(n / 1024).toFixed(1)} KB`);

/**
 * The processes that have the DATA_DIR's database or files open (a running server keeps its
 * SQLite file open for its whole life, so an idle server is found too, and a server killed with
 * kill -9 leaves nothing stale behind, unlike a pid file). Linux: read /proc/<pid>/fd; elsewhere
 * ask lsof. Returns undefined when neither can tell: the caller must then refuse.
 * Only processes this user may inspect are seen (all of them as root): run it as the server's user.
 */
export async function processesUsing(dataDir: string): Promise<number[] | undefined> {
  const targets = [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`].map((f) => path.join(dataDir, f));
  const filesRoot = path.join(dataDir, FILES_DIR) + path.sep;
  const hit = (target: string) => targets.includes(target) || target.startsWith(filesRoot);
  const procs = await readdir('/proc').catch(() => undefined);
  if (procs) {
    const found = new Set<number>();
    for (const name of procs) {
      if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
      const fds = await readdir(`/proc/${name}/fd`).catch(() => [] as string[]);
      for (const fd of fds) {
        const target = await readlink(`/proc/${name}/fd/${fd}`).catch(() => '');
        if (hit(target)) found.add(Number(name));
      }
    }
    return [...found];
  }
  try {
    const out = execFileSync('lsof', ['-t', '--', ...targets], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return out.split(/\s+/).filter(Boolean).map(Number);
  } catch (err) {
    // lsof exits 1 when no process has the files open; missing lsof gives ENOENT.
    if ((err as { status?: number }).status === 1) return [];
    return undefined;
  }
}
