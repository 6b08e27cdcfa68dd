// Throttling of failed logins, kept in the database so that every server process sees the same
// counts. Three counters, each with a 15-minute window that starts at its first counted attempt:
// - per account *and* client address (the pair): 5. A guesser at one address meets this lock; wrong
//   passwords sent from elsewhere do not lock a member out of an address that has not failed.
// - per client address, whatever the names: 20.
// - per account over all addresses: 100, a ceiling on guessing spread over many addresses. It is
//   reached only with failures from at least 20 addresses (5 each), so one stranger, or a few,
//   cannot lock a member out, while no number of addresses gets more than 100 guesses a window.
//
// An attempt is reserved on all three counters atomically BEFORE its password is checked (one
// conditional upsert per counter that counts only while under the limit, in one transaction), so
// simultaneous requests, in one process or several, cannot have more passwords checked than the
// limits allow. A wrong password keeps its reservation (it is the failure); the right one gives
// it back, so successful logins never use up a limit.
import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database';
import type { Database } from '../db/tables';

export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
/** Failures per account from one client address. */
export const MAX_FAILS_PER_PAIR = 5;
/** Failures per client address, on any names. */
export const MAX_FAILS_PER_ADDRESS = 20;
/** Failures per account from all addresses together. */
export const MAX_FAILS_PER_ACCOUNT = 100;

/**
 * One account however the name is written: case, surrounding spaces and Unicode compatibility
 * forms (full-width letters) do not make a fresh counter.
 */
const accountName = (userName: string) => userName.normalize('NFKC').trim().toLowerCase();
export const accountKey = (userName: string) => `u:${accountName(userName)}`;
export const addressKey = (ip: string) => `ip:${ip}`;
/** The address comes last and holds no `@`: the key is unambiguous whatever the name holds. */
export const pairKey = (userName: string, ip: string) => `ua:${accountName(userName)}@${ip}`;

export interface Limit {
  key: string;
  max: number;
}

/** The counters of one login attempt, in the order they are reserved (the same for every attempt). */
export function loginLimits(userName: string, ip: string): Limit[] {
  return [
    { key: addressKey(ip), max: MAX_FAILS_PER_ADDRESS },
    { key: accountKey(userName), max: MAX_FAILS_PER_ACCOUNT },
    { key: pairKey(userName, ip), max: MAX_FAILS_PER_PAIR },
  ];
}

/** One attempt counted on one counter, in the window that started at `windowStart`. */
export interface Reservation {
  key: string;
  windowStart: string;
}

function windowStart(now: number): string {
  return new Date(now - THROTTLE_WINDOW_MS).toISOString();
}

class LimitReached extends Error {}

/**
 * Counts one attempt on one counter in one statement, only while it is under `max` (a stale window
 * restarts at 1); undefined, with nothing counted, when the limit is reached. Concurrent upserts
 * of a key are serialised by the database (the row lock on PostgreSQL, the write lock on SQLite),
 * and the condition is read from the row as locked.
 */
async function reserveOne(trx: Transaction<Database>, key: string, max: number, now: number): Promise<Reservation | undefined> {
  const stamp = new Date(now).toISOString();
  const stale = windowStart(now);
  const row = await trx
    .insertInto('LOGIN_THROTTLE')
    .values({ THROTTLE_KEY: key, FAILS: 1, WINDOW_START: stamp })
    .onConflict((oc) =>
      oc
        .column('THROTTLE_KEY')
        .doUpdateSet({
          FAILS: sql`case when ${sql.ref('LOGIN_THROTTLE.WINDOW_START')} <= ${stale} then 1 else ${sql.ref('LOGIN_THROTTLE.FAILS')} + 1 end`,
          WINDOW_START: sql`case when ${sql.ref('LOGIN_THROTTLE.WINDOW_START')} <= ${stale} then ${stamp} else ${sql.ref('LOGIN_THROTTLE.WINDOW_START')} end`,
        })
        .where((eb) => eb.or([eb('LOGIN_THROTTLE.WINDOW_START', '<=', stale), eb('LOGIN_THROTTLE.FAILS', '<', max)])),
    )
    .returning('WINDOW_START')
    .executeTakeFirst();
  return row && { key, windowStart: row.WINDOW_START };
}

/**
 * Reserves one attempt on every limit, all or none, before the password is checked. Undefined
 * when any limit is used up: then nothing is counted and no password may be checked. Every caller
 * reserves the same kinds of counter in the same order, so transactions on PostgreSQL wait for
 * each other's rows in one order and cannot deadlock.
 */
export async function reserveAttempt({ db }: Db, limits: Limit[], now = Date.now()): Promise<Reservation[] | undefined> {
  try {
    return await db.transaction().execute(async (trx) => {
      const held: Reservation[] = [];
      for (const { key, max } of limits) {
        const reservation = await reserveOne(trx, key, max, now);
        if (!reservation) throw new LimitReached();
        held.push(reservation);
      }
      return held;
    });
  } catch (err) {
    if (err instanceof LimitReached) return undefined;
    throw err;
  }
}

/**
 * Gives reservations back (the password was right, or was never checked): each counter goes down
 * by one if its window is still the one reserved in; a counter back at 0 is deleted. Failures of
 * others stay counted.
 */
export async function releaseAttempt({ db }: Db, held: Reservation[]): Promise<void> {
  for (const { key, windowStart: start } of held) {
    const row = await db
      .updateTable('LOGIN_THROTTLE')
      .set({ FAILS: sql`${sql.ref('FAILS')} - 1` })
      .where('THROTTLE_KEY', '=', key)
      .where('WINDOW_START', '=', start)
      .where('FAILS', '>', 0)
      .returning('FAILS')
      .executeTakeFirst();
    if (row?.FAILS === 0) {
      // Only if still 0: an attempt reserved in between keeps the row and its window.
      await db.deleteFrom('LOGIN_THROTTLE').where('THROTTLE_KEY', '=', key).where('FAILS', '=', 0).execute();
    }
  }
}
