// Throttling of failed logins, per account and per client address, kept in the database so that
// every server process sees the same counts. A window starts at the first failure.
import { sql } from 'kysely';
import type { Db } from '../db/database';

export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILS_PER_ACCOUNT = 5;
export const MAX_FAILS_PER_ADDRESS = 20;

/**
 * One key per account however the name is written: case, surrounding spaces and Unicode
 * compatibility forms (full-width letters) do not make a fresh counter.
 */
export const accountKey = (userName: string) => `u:${userName.normalize('NFKC').trim().toLowerCase()}`;
export const addressKey = (ip: string) => `ip:${ip}`;

function windowStart(now: number): string {
  return new Date(now - THROTTLE_WINDOW_MS).toISOString();
}

/** Whether a key has used up its failures in the current window. */
export async function isThrottled({ db }: Db, key: string, max: number, now = Date.now()): Promise<boolean> {
  const row = await db
    .selectFrom('LOGIN_THROTTLE')
    .select(['FAILS', 'WINDOW_START'])
    .where('THROTTLE_KEY', '=', key)
    .executeTakeFirst();
  return !!row && row.WINDOW_START > windowStart(now) && row.FAILS >= max;
}

/** Counts one failure in one statement: a stale window restarts at 1. */
export async function recordFailure({ db }: Db, key: string, now = Date.now()): Promise<void> {
  const stamp = new Date(now).toISOString();
  const stale = windowStart(now);
  await db
    .insertInto('LOGIN_THROTTLE')
    .values({ THROTTLE_KEY: key, FAILS: 1, WINDOW_START: stamp })
    .onConflict((oc) =>
      oc.column('THROTTLE_KEY').doUpdateSet({
        FAILS: sql`case when ${sql.ref('LOGIN_THROTTLE.WINDOW_START')} <= ${stale} then 1 else ${sql.ref('LOGIN_THROTTLE.FAILS')} + 1 end`,
        WINDOW_START: sql`case when ${sql.ref('LOGIN_THROTTLE.WINDOW_START')} <= ${stale} then ${stamp} else ${sql.ref('LOGIN_THROTTLE.WINDOW_START')} end`,
      }),
    )
    .execute();
}

export async function clearFailures({ db }: Db, key: string): Promise<void> {
  await db.deleteFrom('LOGIN_THROTTLE').where('THROTTLE_KEY', '=', key).execute();
}
