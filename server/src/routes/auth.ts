// Login, logout and the current member (docs/api.md).
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { createSession, endSession, toCurrentMember, type MemberRow } from '../auth/members';
import { dummyHash, verifyPassword } from '../auth/password';
import { loginLimits, purgePastLimits, releaseAttempt, reserveAttempt, THROTTLE_WINDOW_MS } from '../auth/throttle';
import type { Db } from '../db/database';
import { ApiError, unauthorized } from '../errors';
import { ok } from '../http/envelope';
import { requireMember } from '../plugins/permissions';

const loginBody = {
  type: 'object',
  properties: {
    UserName: { type: 'string', minLength: 1, maxLength: 64 },
    Password: { type: 'string', minLength: 1, maxLength: 256 },
  },
  required: ['UserName', 'Password'],
  additionalProperties: false,
} as const;

const WRONG_LOGIN = '用户名或密码错误';
const THROTTLED = '登录失败次数过多，请15分钟后再试';
const DISABLED = '该账号已停用，请联系管理员';

async function checkPassword(database: Db, UserName: string, Password: string) {
  const member = await database.db.selectFrom('MEMBER').selectAll().where('USER_NAME', '=', UserName).executeTakeFirst();
  // Verify against a dummy hash for unknown names, so timing does not reveal which names exist.
  const valid = await verifyPassword(Password, member?.PASSWORD_HASH ?? (await dummyHash()));
  return { member, valid };
}

// The json-schema-to-ts type provider types `request.body` from the same schema Ajv validates.
/** GetCurrentMember's answers, by the member row they were made from. */
const currentMemberAnswers = new WeakMap<MemberRow, string>();

const authRoutes: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const tags = ['登录'];

  app.post('/Ajax/Login', { schema: { tags, summary: '登录', body: loginBody } }, async (request, reply) => {
    const { UserName, Password } = request.body;
    // One attempt is reserved on every limit before the password is checked (server/src/auth/
    // throttle.ts): however many requests arrive at once, no more passwords are checked than the
    // limits allow. A limit used up answers 429 even to the right password, and counts nothing.
    const held = await reserveAttempt(app.database, loginLimits(UserName, request.ip, app.config.loginIpv6Prefix));
    if (!held) throw new ApiError(429, THROTTLED);
    const { member, valid } = await checkPassword(app.database, UserName, Password).catch(async (err: unknown) => {
      // No answer about the password was given: the attempt is not a failure.
      await releaseAttempt(app.database, held).catch(() => {});
      throw err;
    });
    // A wrong password keeps its reservation: that is the failure counted.
    if (!member || !valid) throw unauthorized(WRONG_LOGIN);
    // The right password gives it back; failures of others stay counted until their window ends.
    await releaseAttempt(app.database, held);
    // Said only after the right password, so the state of an account is not shown to guessers.
    if (member.IS_DISABLED === 1) throw new ApiError(403, DISABLED);
    const token = await createSession(app.database, member.AU_CODE);
    reply.setSessionCookie(token);
    return ok(toCurrentMember(member), '登录成功');
  });

  // Login-limit rows whose window has passed are deleted as the server starts and every window
  // after, by the one process of a cluster that does the housekeeping (config.housekeeping): a row
  // lasts two windows at most. A failure is logged and the next run tries again.
  if (app.config.housekeeping) {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> | undefined;
    const purge = () => {
      running ??= purgePastLimits(app.database)
        .then(() => undefined)
        .catch((err: unknown) => app.log.warn({ err }, 'removal of past login-limit rows failed'))
        .finally(() => (running = undefined));
      return running;
    };
    app.addHook('onReady', async () => {
      await purge();
      timer = setInterval(purge, THROTTLE_WINDOW_MS);
      timer.unref();
    });
    // Before the database plugin's own onClose (hooks run in reverse order of registration).
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await running;
    });
  }

  app.post('/Ajax/Logout', { schema: { tags, summary: '退出登录' } }, async (request, reply) => {
    const token = request.sessionToken();
    if (token) await endSession(app.database, token);
    reply.clearSessionCookie();
    return ok(null, '已退出登录');
  });

  app.route({
    method: ['GET', 'POST'],
    url: '/Ajax/GetCurrentMember',
    schema: { tags, summary: '当前成员' },
    config: { queuesNoIndexing: true },
    handler: async (request, reply) => {
      // The answer's bytes once per member row (kept with the session while the database is unchanged).
      const member = await requireMember(request);
      let body = currentMemberAnswers.get(member);
      if (!body) {
        body = JSON.stringify(ok(toCurrentMember(member)));
        currentMemberAnswers.set(member, body);
      }
      return reply.type('application/json; charset=utf-8').send(body);
    },
  });
};

export default authRoutes;
