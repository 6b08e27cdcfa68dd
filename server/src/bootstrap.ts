// Start-up data: the secret that signs upload URLs, the built-in administrator, and on a new
// database the demo content. Safe when several processes start at once: inserts that lose a race
// change nothing, and only the process that created the administrator loads the demo.
import { randomBytes } from 'node:crypto';
import type { Config } from './config';
import type { Db } from './db/database';
import { newCode } from './auth/members';
import { hashPassword } from './auth/password';

export const ADMIN_USER = 'admin';

export async function uploadSecret({ db }: Db): Promise<Buffer> {
  await db
    .insertInto('SETTING')
    .values({ NAME: 'upload_secret', VALUE: randomBytes(32).toString('hex') })
    .onConflict((oc) => oc.column('NAME').doNothing())
    .execute();
  const row = await db.selectFrom('SETTING').select('VALUE').where('NAME', '=', 'upload_secret').executeTakeFirstOrThrow();
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
