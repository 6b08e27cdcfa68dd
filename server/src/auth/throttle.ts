// Throttling of failed logins, kept in the database so that every server process sees the same
// counts. Three counters, each with a 15-minute window that starts at its first counted attempt:
// - per account *and* client (the pair): 5. A guesser at one client meets this lock; wrong
//   passwords sent from elsewhere do not lock a member out of a client that has not failed.
// - per client, whatever the names: 20.
// - per account over all clients: 100, a ceiling on guessing spread over many clients. It is
//   reached only with failures from at least 20 clients (5 each), so one stranger, or a few,
//   cannot lock a member out, while no number of clients gets more than 100 guesses a window.
//
// A client is an IPv4 address, or an IPv6 network of LOGIN_IPV6_PREFIX bits (a /64 by default):
// one IPv6 subscriber holds a whole /64 (often more) and may send from any of its 2^64 addresses,
// so counted per address it would get 5 guesses per account from each, and could reach the
// account's ceiling, locking the member out everywhere, alone. An IPv4-mapped IPv6 address
// (`::ffff:a.b.c.d`, as a dual-stack socket or a proxy may write it) is its IPv4 address.
//
// A counter's row stays while its window lasts; rows whose window has passed count nothing (a new
// attempt restarts the window) and are deleted by purgePastLimits, which the one process of a
// cluster that does the housekeeping runs at start and every window (routes/auth.ts). Without it
// each new name would leave two rows and each new client one, for good.
//
// An attempt is reserved on all three counters atomically BEFORE its password is checked (one
// conditional upsert per counter that counts only while under the limit, in one transaction), so
// simultaneous requests, in one process or several, cannot have more passwords checked than the
// limits allow. A wrong password keeps its reservation (it is the failure); the right one gives
// it back, so successful logins never use up a limit.

// ipaddr.js parses and writes IPv6 addresses every way they may be written (zero compression,
// embedded IPv4, zones). It is the parser Fastify's own proxy-addr uses to read X-Forwarded-For, so
// it reads the addresses that Fastify gives us as `request.ip` the way Fastify did; Node has no
// parser that yields an address's bits (net.BlockList only tests membership).
import ipaddr from 'ipaddr.js';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database';
import type { Database } from '../db/tables';

export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
/** Failures per account from one client. */
export const MAX_FAILS_PER_PAIR = 5;
/** Failures per client, on any names. */
export const MAX_FAILS_PER_CLIENT = 20;
/** Failures per account from all clients together. */
export const MAX_FAILS_PER_ACCOUNT = 100;

/**
 * One account however the name is written: case, surrounding spaces and Unicode compatibility
 * forms (full-width letters) do not make a fresh counter.
 */
const accountName = (userName: string) => userName.normalize('NFKC').trim().toLowerCase();
export const accountKey = (userName: string) => `u:${accountName(userName)}`;
export const clientKey = (client: string) => `ip:${client}`;
/** The client comes last and holds no `@`: the key is unambiguous whatever the name holds. */
export const pairKey = (userName: string, client: string) => `ua:${accountName(userName)}@${client}`;

/**
 * The client a request's address belongs to, written one way: an IPv4 address as it is (an
 * IPv4-mapped IPv6 address as its IPv4 address), an IPv6 address as its network of `ipv6Prefix`
 * bits (`2001:db8:1:2::/64`). What does not parse as an address stays as it came (no address:
 * `unknown`), so it is still one client of its own.
 */
export function clientOf(ip: string | undefined, ipv6Prefix: number): string {
  if (!ip) return 'unknown';
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.parse(ip);
  } catch {
    return ip;
  }
  if (address.kind() === 'ipv4') return address.toString();
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  // The network's address: the first `ipv6Prefix` bits kept, the rest (and any zone) dropped.
  const bytes = v6.toByteArray().map((byte, i) => {
    const kept = Math.min(8, Math.max(0, ipv6Prefix - 8 * i));
    return byte & ((0xff00 >> kept) & 0xff);
  });
  return `${ipaddr.fromByteArray(bytes).toString()}/${ipv6Prefix}`;
}

export interface Limit {
  key: string;
  max: number;
}

/**
 * The counters of one login attempt from the address `ip` (`request.ip`), in the order they are
 * reserved (the same for every attempt). `ipv6Prefix`: config.loginIpv6Prefix.
 */
export function loginLimits(userName: string, ip: string | undefined, ipv6Prefix: number): Limit[] {
  const client = clientOf(ip, ipv6Prefix);
  return [
    { key: clientKey(client), max: MAX_FAILS_PER_CLIENT },
    { key: accountKey(userName), max: MAX_FAILS_PER_ACCOUNT },
    { key: pairKey(userName, client), max: MAX_FAILS_PER_PAIR },
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

/**
 * Deletes the counters whose window has passed, as reserveOne tells them (a window that started at
 * or before `now` minus the window). They count nothing any more: the next attempt would restart
 * the window at 1, as on a missing row. An attempt reserved meanwhile on such a row restarts its
 * window; the database orders the two (the row lock on PostgreSQL, where the delete checks the
 * window again on the row as updated and leaves it; the single writer on SQLite), and if the
 * delete goes first the upsert inserts a new row. Returns the number of rows deleted.
 */
export async function purgePastLimits({ db }: Db, now = Date.now()): Promise<number> {
  const result = await db.deleteFrom('LOGIN_THROTTLE').where('WINDOW_START', '<=', windowStart(now)).executeTakeFirst();
  return Number(result.numDeletedRows);
}
