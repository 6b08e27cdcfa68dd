// Start-up data: the secret that signs upload URLs, the built-in administrator, and on a new
// database the demo content. Safe when several processes start at once: inserts that lose a race
// change nothing, and only the process that created the administrator loads the demo. A cluster
// (cluster.ts) does it once, in its primary, before the workers start (runStartupWork).
import { randomBytes } from 'node:crypto';
import type { Config } from './config';
import { openDatabase, type Db } from './db/database';
import { newCode, purgeExpiredSessions } from './auth/members';
import { hashPassword } from './auth/password';
import { loadDemoData } from './demoData';
import { createStorage } from './storage/index';
import type { StorageDriver } from './storage/types';

export const ADMIN_USER = 'admin';

export async function uploadSecret({ db }: Db): Promise<Buffer> {
  const read = () => db.selectFrom('SETTING').select('VALUE').where('NAME', '=', 'upload_secret').executeTakeFirst();
  // Read first: every process after the first (each worker of a cluster) only reads it.
  let row = await read();
  if (!row) {
    await db
      .insertInto('SETTING')
      .values({ NAME: 'upload_secret', VALUE: randomBytes(32).toString('hex') })
      .onConflict((oc) => oc.column('NAME').doNothing())
      .execute();
    row = await read();
  }
  if (!row) throw new Error('upload_secret missing right after it was written');
  return Buffer.from(row.VALUE, 'hex');
}

/** Creates `admin` when missing. Returns the generated password when one was made up, and whether the database was new. */
export async function ensureAdmin(database: Db, config: Config): Promise<{ created: boolean; generatedPassword?: string }> {
  const { db } = database;
  const existing = await db.selectFrom('MEMBER').select('ID').where('USER_NAME', '=', ADMIN_USER).executeTakeFirst();
  if (existing) return { created: false };
  const generatedPassword = config.adminPassword ? undefined : randomBytes(9).toString('base64url');
  const inserted = await db
    .insertInto('MEMBER')
    .values({
      AU_CODE: newCode(),
      USER_NAME: ADMIN_USER,
      AU_NAME: '管理员',
      ORGANIZATION_NAME: '',
      IS_ADMIN: 1,
      IS_BUILTIN: 1,
      MODULES: '{}',
      PASSWORD_HASH: await hashPassword(config.adminPassword ?? generatedPassword!),
      UPDATE_TIME: new Date().toISOString(),
    })
    .onConflict((oc) => oc.column('USER_NAME').doNothing())
    .returning('ID')
    .executeTakeFirst();
  const created = inserted !== undefined;
  return created ? { created, generatedPassword } : { created: false };
}

/** Passwords made up at this start: the only time they are known, printed once (generatedPasswordsBlock). */
export interface StartupResult {
  /** Set when the built-in administrator was just created with a generated password. */
  generatedAdminPassword?: string | undefined;
  /** Set when the demo staff member was just created with a generated password. */
  generatedDemoStaffPassword?: string | undefined;
}

/**
 * The built-in administrator, expired sessions removed, and on a new database the demo content
 * (DEMO_DATA). `storage` is asked for only when the demo is loaded.
 */
export async function startupData(database: Db, storage: () => Promise<StorageDriver>, config: Config): Promise<StartupResult> {
  const { created, generatedPassword } = await ensureAdmin(database, config);
  await purgeExpiredSessions(database);
  const demo = created && config.demoData ? await loadDemoData(database, await storage(), { staffPassword: config.demoStaffPassword, timeZone: config.timeZone }) : undefined;
  return { generatedAdminPassword: generatedPassword, generatedDemoStaffPassword: demo?.generatedStaffPassword };
}

/**
 * The start-up work of a cluster's primary, before it forks the workers: opening the database
 * migrates it; then the upload secret and startupData. The database is closed again: the primary
 * serves nothing.
 */
export async function runStartupWork(config: Config): Promise<StartupResult> {
  // Two connections are plenty for this sequential work (PostgreSQL).
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, poolSize: Math.min(config.poolSize, 2) });
  try {
    const secret = await uploadSecret(database);
    return await startupData(database, () => createStorage(config, secret), config);
  } finally {
    await database.close();
  }
}

/**
 * The passwords made up at this start, shown once, as one block printed with the address (so that
 * it sits at the end of the start-up lines); empty when none was made up.
 */
export function generatedPasswordsBlock({ generatedAdminPassword, generatedDemoStaffPassword }: StartupResult): string {
  const lines: string[] = [];
  if (generatedAdminPassword) lines.push(`  内置管理员已创建 (built-in administrator created)  用户名 ${ADMIN_USER}  密码 ${generatedAdminPassword}`);
  // The demo's staff member (DEMO_DATA), unless DEMO_STAFF_PASSWORD set its password.
  if (generatedDemoStaffPassword) lines.push(`  演示员工已创建 (demo staff member created)          用户名 staff  密码 ${generatedDemoStaffPassword}`);
  if (lines.length === 0) return '';
  return ['', '', '  ── 只显示这一次的密码，登录后请修改 (passwords shown only now; change them after logging in) ──', ...lines, ''].join('\n');
}
