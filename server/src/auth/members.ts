// Members and sessions in the database, so that a session survives a restart and is shared by
// every server process that uses the same database.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { ModuleKey } from '../../../schemas/descriptor';
import { MODULES } from '../../../schemas/index';
import type { CurrentMember } from '../../../schemas/types';
import type { Db } from '../db/database';
import type { MemberTable } from '../db/tables';
import type { Selectable } from 'kysely';

export type MemberRow = Selectable<MemberTable>;

/** A session lasts 7 days from login. */
export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;

export function parseModules(text: string): Partial<Record<ModuleKey, string>> {
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    const out: Partial<Record<ModuleKey, string>> = {};
    for (const m of MODULES) {
      const codes = (value as Record<string, unknown>)[m];
      if (typeof codes === 'string' && codes !== '') out[m] = codes;
    }
    return out;
  } catch {
    return {};
  }
}

/**
 * Per row read: a session's row is kept by the read cache while the database is unchanged, so its
 * modules are parsed once for all its calls instead of once per call. A changed member is a new row.
 */
const currentMembers = new WeakMap<MemberRow, CurrentMember>();

export function toCurrentMember(row: MemberRow): CurrentMember {
  let current = currentMembers.get(row);
  if (!current) {
    current = {
      AuCode: row.AU_CODE,
      AuName: row.AU_NAME,
      UserName: row.USER_NAME,
      IsAdmin: row.IS_ADMIN === 1 ? 1 : 0,
      OrganizationName: row.ORGANIZATION_NAME,
      Modules: parseModules(row.MODULES),
    };
    currentMembers.set(row, current);
  }
  return current;
}

/** The record shape of the member admin calls (never the password hash). */
export function toMemberRecord(row: MemberRow) {
  return {
    Id: row.ID,
    AuCode: row.AU_CODE,
    UserName: row.USER_NAME,
    AuName: row.AU_NAME,
    OrganizationName: row.ORGANIZATION_NAME,
    IsAdmin: row.IS_ADMIN === 1 ? 1 : 0,
    IsBuiltin: row.IS_BUILTIN === 1 ? 1 : 0,
    IsDisabled: row.IS_DISABLED === 1 ? 1 : 0,
    Modules: parseModules(row.MODULES),
  };
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createSession({ db }: Db, auCode: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  await db
    .insertInto('SESSION')
    .values({
      TOKEN_HASH: tokenHash(token),
      AU_CODE: auCode,
      CREATED_AT: new Date(now).toISOString(),
      EXPIRES_AT: new Date(now + SESSION_TTL_MS).toISOString(),
    })
    .execute();
  return token;
}

export interface SessionOf {
  member: MemberRow;
  /** When it expires, in ms since the epoch: compared on every call, so read once. */
  expiresAtMs: number;
}

/** The session's member and expiry, whether expired or not (callers compare; the row is cacheable). */
export async function sessionOf({ db }: Db, token: string): Promise<SessionOf | undefined> {
  const row = await db
    .selectFrom('SESSION')
    .innerJoin('MEMBER', 'MEMBER.AU_CODE', 'SESSION.AU_CODE')
    .selectAll('MEMBER')
    .select('SESSION.EXPIRES_AT as SESSION_EXPIRES_AT')
    .where('SESSION.TOKEN_HASH', '=', tokenHash(token))
    // Disabling deletes the sessions too; this also holds for a row disabled by hand in the database.
    .where('MEMBER.IS_DISABLED', '=', 0)
    .executeTakeFirst();
  if (!row) return undefined;
  const { SESSION_EXPIRES_AT, ...member } = row;
  return { member, expiresAtMs: Date.parse(SESSION_EXPIRES_AT) };
}

export async function memberOfSession(database: Db, token: string): Promise<MemberRow | undefined> {
  const session = await sessionOf(database, token);
  return session && isLive(session) ? session.member : undefined;
}

export const isLive = (session: SessionOf, now = Date.now()) => session.expiresAtMs > now;

export async function endSession({ db }: Db, token: string): Promise<void> {
  await db.deleteFrom('SESSION').where('TOKEN_HASH', '=', tokenHash(token)).execute();
}

/** Ends every session of a member (password change, deletion, loss of access). */
export async function endSessionsOf({ db }: Db, auCode: string): Promise<void> {
  await db.deleteFrom('SESSION').where('AU_CODE', '=', auCode).execute();
}

export async function purgeExpiredSessions({ db }: Db): Promise<void> {
  await db.deleteFrom('SESSION').where('EXPIRES_AT', '<=', new Date().toISOString()).execute();
}

export const newCode = () => randomUUID().replace(/-/g, '');
