// A member changes their own password (docs/api.md): any signed-in member, no module code needed.
// The current password is required and checked under the same limits as a login (auth/throttle.ts),
// so this call is no free oracle for guessing it. On success the password, the audit entry (the
// password only as "changed") and the member's sessions change in one transaction: every other
// session ends, and the current one is replaced by a new session (a new cookie), so a copy of the
// old cookie held by someone else ends too.
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { memberResource } from '../../../schemas/member';
import { ownPasswordBodySchema } from '../../../schemas/validation';
import { auditRecord } from '../audit/log';
import { createSession, endSessionsOf, toMemberRecord, type MemberRow } from '../auth/members';
import { hashPassword, verifyPassword } from '../auth/password';
import { loginLimits, releaseAttempt, reserveAttempt } from '../auth/throttle';
import { ApiError, badRequest, conflict, MSG_CONCURRENT_CHANGE } from '../errors';
import { ok } from '../http/envelope';
import { requireMember } from '../plugins/permissions';

// The new password under the rules of a member's password; the 修改密码 dialog checks the same body.
const body = ownPasswordBodySchema;

export const MSG_PASSWORD_CHANGED = '密码已修改';
export const MSG_WRONG_OLD_PASSWORD = '原密码不正确';
export const MSG_SAME_PASSWORD = '新密码不能与原密码相同';
export const MSG_PASSWORD_THROTTLED = '密码错误次数过多，请15分钟后再试';

const ownPasswordRoutes: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.post(
    '/Ajax/UpdateOwnPassword',
    { schema: { tags: ['登录'], summary: '修改本人密码', body } },
    async (request, reply) => {
      const member = await requireMember(request);
      const { OldPassword, NewPassword } = request.body;
      // Comparing the two inputs tells nothing about the stored password: no attempt is counted.
      if (NewPassword === OldPassword) throw badRequest(MSG_SAME_PASSWORD, [{ field: 'NewPassword', msg: MSG_SAME_PASSWORD }]);

      // The login's counters (account, client and the pair): a wrong current password here is a
      // failed login there, and either way no more passwords are checked than the limits allow.
      const held = await reserveAttempt(app.database, loginLimits(member.USER_NAME, request.ip, app.config.loginIpv6Prefix));
      if (!held) throw new ApiError(429, MSG_PASSWORD_THROTTLED);
      const { db } = app.database;
      let existing: MemberRow;
      let valid: boolean;
      try {
        // The row as stored now (not the session's copy), so the check and the update below agree.
        existing = await db.selectFrom('MEMBER').selectAll().where('AU_CODE', '=', member.AU_CODE).executeTakeFirstOrThrow();
        valid = await verifyPassword(OldPassword, existing.PASSWORD_HASH);
      } catch (err) {
        // No answer about the password was given: the attempt is not a failure.
        await releaseAttempt(app.database, held).catch(() => {});
        throw err;
      }
      // A wrong password keeps its reservation: that is the failure counted.
      if (!valid) throw badRequest(MSG_WRONG_OLD_PASSWORD, [{ field: 'OldPassword', msg: MSG_WRONG_OLD_PASSWORD }]);
      await releaseAttempt(app.database, held);

      const passwordHash = await hashPassword(NewPassword);
      const token = await db.transaction().execute(async (trx) => {
        const updated = await trx
          .updateTable('MEMBER')
          .set({ PASSWORD_HASH: passwordHash, UPDATE_TIME: new Date().toISOString() })
          .where('ID', '=', existing.ID)
          // Only over the password just checked: of two changes at once, the second is refused.
          .where('PASSWORD_HASH', '=', existing.PASSWORD_HASH)
          .where('IS_DISABLED', '=', 0)
          .returningAll()
          .executeTakeFirst();
        if (!updated) throw conflict(MSG_CONCURRENT_CHANGE);
        await auditRecord(trx, existing, memberResource, 'update', toMemberRecord(existing), toMemberRecord(updated), [
          { field: 'Password', redacted: true },
        ]);
        const inTransaction = { ...app.database, db: trx };
        await endSessionsOf(inTransaction, existing.AU_CODE);
        return createSession(inTransaction, existing.AU_CODE);
      });
      reply.setSessionCookie(token);
      return ok(null, MSG_PASSWORD_CHANGED);
    },
  );
};

export default ownPasswordRoutes;
