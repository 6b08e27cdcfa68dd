// Member administration (docs/api.md): administrators only. Passwords are hashed and never
// returned; a password change, disabling (停用) or deletion ends that member's sessions at once.
// The built-in administrator's password is not set here, by anyone: its owner changes it with
// UpdateOwnPassword (routes/ownPassword.ts).
// Every change is logged in its own transaction (audit log), a new password only as "changed".
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { MODULES } from '../../../schemas/index';
import { memberResource } from '../../../schemas/member';
import { auditRecord, nameRecordsOf } from '../audit/log';
import { endSessionsOf, newCode, toMemberRecord } from '../auth/members';
import { hashPassword } from '../auth/password';
import { parseOrderName } from '../db/orderName';
import { badRequest, notFound } from '../errors';
import { listAnswer, MSG_DELETED, ok } from '../http/envelope';
import { requireAdmin } from '../plugins/permissions';
import { readRoute, writeRoute } from './crud';
import { idBodySchema, listParamsSchema, MAX_ALL_ROWS, writeBodySchema } from './requestSchemas';

const tags = ['成员'];

export const MSG_BUILTIN_PASSWORD = '内置管理员的密码只能由其本人修改';

interface MemberBody {
  Id?: number;
  UserName?: string;
  AuName?: string;
  OrganizationName?: string;
  IsAdmin?: number;
  IsDisabled?: number;
  Modules?: Record<string, string>;
  Password?: string;
}

// Two members may share a name: the log names one with the login too (UpdateOwnPassword's entries as well).
nameRecordsOf(memberResource.resource, (name, row) => (typeof row.UserName === 'string' ? `${name} (${row.UserName})` : name));

/** Longest module key a refusal repeats: the key is the client's text. */
const MAX_SHOWN_KEY = 64;

/**
 * Permission strings are keyed by the modules the entities declare: any other key is refused
 * (the schema cannot list them, schemas/member.ts), naming it.
 */
function checkModuleKeys(modules: Record<string, string> | undefined): void {
  const unknown = Object.keys(modules ?? {}).filter((key) => !MODULES.includes(key));
  if (unknown.length === 0) return;
  const shown = unknown.map((key) => (key.length > MAX_SHOWN_KEY ? `${key.slice(0, MAX_SHOWN_KEY)}…` : key));
  const msg = `权限模块不存在：${shown.join('、')}`;
  throw badRequest(msg, [{ field: 'Modules', msg }]);
}

export default async function memberRoutes(app: FastifyInstance) {
  const { db } = app.database;

  const load = async (id: number) => {
    const row = await db.selectFrom('MEMBER').selectAll().where('ID', '=', id).executeTakeFirst();
    if (!row) throw notFound('成员不存在或已被删除');
    return row;
  };

  const ensureUniqueName = async (userName: string, exceptId?: number) => {
    let q = db.selectFrom('MEMBER').select('ID').where(sql`lower(${sql.ref('USER_NAME')})`, '=', userName.toLowerCase());
    if (exceptId !== undefined) q = q.where('ID', '<>', exceptId);
    if (await q.executeTakeFirst()) throw badRequest('登录名已存在', [{ field: 'UserName', msg: '登录名已存在' }]);
  };

  readRoute(app, '/Ajax/GetMemberListInAdmin', listParamsSchema(memberResource), { tags, summary: '成员列表' }, async (request, params, reply) => {
    await requireAdmin(request);
    const order = parseOrderName(params.OrderName as string | undefined, memberResource);
    let base = db.selectFrom('MEMBER');
    for (const field of ['UserName', 'AuName'] as const) {
      const text = params[field];
      if (typeof text === 'string' && text.trim()) {
        const column = field === 'UserName' ? 'USER_NAME' : 'AU_NAME';
        const pattern = `%${text.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        // The escape character must be named: SQLite's LIKE has none by default.
        base = base.where(sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`);
      }
    }
    let rows = base.selectAll();
    for (const term of order) rows = rows.orderBy(term.column as 'ID', term.direction);
    const all = params.All === 1;
    const size = Number(params.pageSize ?? 15);
    rows = all ? rows.limit(MAX_ALL_ROWS) : rows.limit(size).offset((Number(params.pageIndex ?? 1) - 1) * size);
    const [list, count] = await Promise.all([
      rows.execute(),
      base.select(sql<number>`count(*)`.as('total')).executeTakeFirstOrThrow(),
    ]);
    // Within the byte limit like every list (docs/api.md, Lists); a member's row is short, so the
    // rows are read as asked and only the answer stops.
    return reply.type('application/json; charset=utf-8').send(listAnswer(list.map(toMemberRecord), Number(count.total), app.config.listMaxBytes));
  });

  readRoute(app, '/Ajax/GetSingleMemberInAdmin', idBodySchema, { tags, summary: '成员详情' }, async (request, params) => {
    await requireAdmin(request);
    return ok(toMemberRecord(await load(Number(params.Id))));
  });

  writeRoute(app, '/Ajax/AddMember', writeBodySchema(memberResource, 'create'), { tags, summary: '新增成员' }, async (request, raw) => {
    const admin = await requireAdmin(request);
    const body = raw as MemberBody;
    checkModuleKeys(body.Modules);
    await ensureUniqueName(body.UserName!);
    const values = {
      AU_CODE: newCode(),
      USER_NAME: body.UserName!,
      AU_NAME: body.AuName!,
      ORGANIZATION_NAME: body.OrganizationName ?? '',
      IS_ADMIN: body.IsAdmin ?? 0,
      IS_BUILTIN: 0,
      IS_DISABLED: body.IsDisabled ?? 0,
      MODULES: JSON.stringify(body.Modules ?? {}),
      PASSWORD_HASH: await hashPassword(body.Password!),
      UPDATE_TIME: new Date().toISOString(),
    };
    const row = await db.transaction().execute(async (trx) => {
      const added = await trx.insertInto('MEMBER').values(values).returningAll().executeTakeFirstOrThrow();
      await auditRecord(trx, admin, memberResource, 'create', undefined, toMemberRecord(added));
      return added;
    });
    return ok(toMemberRecord(row));
  });

  writeRoute(app, '/Ajax/UpdateMember', writeBodySchema(memberResource, 'update'), { tags, summary: '修改成员' }, async (request, raw) => {
    const admin = await requireAdmin(request);
    const body = raw as MemberBody;
    checkModuleKeys(body.Modules);
    const existing = await load(body.Id!);
    if (existing.IS_BUILTIN === 1 && body.IsAdmin === 0) {
      throw badRequest('内置管理员不能取消管理员身份', [{ field: 'IsAdmin', msg: '内置管理员不能取消管理员身份' }]);
    }
    // Not even by the built-in administrator themselves here: only through UpdateOwnPassword, which
    // asks for the current password (routes/ownPassword.ts).
    if (body.Password !== undefined && existing.IS_BUILTIN === 1) {
      throw badRequest(MSG_BUILTIN_PASSWORD, [{ field: 'Password', msg: MSG_BUILTIN_PASSWORD }]);
    }
    if (body.IsDisabled === 1 && existing.IS_BUILTIN === 1) {
      throw badRequest('内置管理员不能停用', [{ field: 'IsDisabled', msg: '内置管理员不能停用' }]);
    }
    if (body.IsDisabled === 1 && existing.AU_CODE === admin.AU_CODE) {
      throw badRequest('不能停用自己', [{ field: 'IsDisabled', msg: '不能停用自己' }]);
    }
    if (body.UserName !== undefined) await ensureUniqueName(body.UserName, existing.ID);
    const set = {
      ...(body.UserName !== undefined && { USER_NAME: body.UserName }),
      ...(body.AuName !== undefined && { AU_NAME: body.AuName }),
      ...(body.OrganizationName !== undefined && { ORGANIZATION_NAME: body.OrganizationName }),
      ...(body.IsAdmin !== undefined && { IS_ADMIN: body.IsAdmin }),
      ...(body.IsDisabled !== undefined && { IS_DISABLED: body.IsDisabled }),
      ...(body.Modules !== undefined && { MODULES: JSON.stringify(body.Modules) }),
      ...(body.Password !== undefined && { PASSWORD_HASH: await hashPassword(body.Password) }),
      UPDATE_TIME: new Date().toISOString(),
    };
    const row = await db.transaction().execute(async (trx) => {
      const updated = await trx.updateTable('MEMBER').set(set).where('ID', '=', existing.ID).returningAll().executeTakeFirstOrThrow();
      const password = body.Password !== undefined ? [{ field: 'Password', redacted: true as const }] : [];
      await auditRecord(trx, admin, memberResource, 'update', toMemberRecord(existing), toMemberRecord(updated), password);
      return updated;
    });
    // A new password, or being disabled, ends every session of the member (a new password of one's
    // own included: log in again).
    if (body.Password !== undefined || row.IS_DISABLED === 1) await endSessionsOf(app.database, existing.AU_CODE);
    return ok(toMemberRecord(row));
  });

  writeRoute(app, '/Ajax/DelMember', idBodySchema, { tags, summary: '删除成员' }, async (request, body) => {
    const admin = await requireAdmin(request);
    const existing = await load(Number(body.Id));
    if (existing.IS_BUILTIN === 1) throw badRequest('内置管理员不能删除');
    if (existing.AU_CODE === admin.AU_CODE) throw badRequest('不能删除自己');
    await endSessionsOf(app.database, existing.AU_CODE);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('MEMBER').where('ID', '=', existing.ID).execute();
      await auditRecord(trx, admin, memberResource, 'delete', toMemberRecord(existing), undefined);
    });
    return ok(toMemberRecord(existing), MSG_DELETED);
  });
}
