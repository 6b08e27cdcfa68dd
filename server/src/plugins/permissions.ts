// Guards: every call checks its module's permission code with the same pure rules the admin app
// uses (schemas/permissions.ts). Row ownership is checked by the handlers, which load the row.
import type { FastifyRequest } from 'fastify';
import type { Action, ModuleKey, PermissionCode, ResourceDescriptor } from '../../../schemas/descriptor';
import { canAccess, hasCode, isOwnedAction, ownsRecord } from '../../../schemas/permissions';
import { forbidden, unauthorized } from '../errors';
import { toCurrentMember, type MemberRow } from '../auth/members';

export async function requireMember(request: FastifyRequest): Promise<MemberRow> {
  const member = await request.currentMember();
  if (!member) throw unauthorized();
  return member;
}

export async function requireAdmin(request: FastifyRequest): Promise<MemberRow> {
  const member = await requireMember(request);
  if (member.IS_ADMIN !== 1) throw forbidden('仅管理员可以执行此操作');
  return member;
}

/** The member may do `action` on the resource (permission code only; rows are checked later). */
export async function requireAccess(
  request: FastifyRequest,
  descriptor: ResourceDescriptor,
  action: Action,
): Promise<MemberRow> {
  const member = await requireMember(request);
  if (!canAccess(toCurrentMember(member), { resource: descriptor.resource, action })) throw forbidden();
  return member;
}

/** The member holds one of the codes on one of the modules. */
export async function requireAnyCode(
  request: FastifyRequest,
  modules: readonly ModuleKey[],
  codes: readonly PermissionCode[],
): Promise<MemberRow> {
  const member = await requireMember(request);
  const current = toCurrentMember(member);
  if (!modules.some((m) => codes.some((c) => hasCode(current, m, c)))) throw forbidden();
  return member;
}

export const MSG_NOT_OWNER = '只能修改或删除自己创建的记录';

/**
 * The ownership rule (ownsRecord in schemas/permissions.ts) on a loaded row, when the descriptor's
 * `ownership` covers the action. A special call may word the refusal its own way.
 */
export function requireOwnership(member: MemberRow, descriptor: ResourceDescriptor, action: Action, row: Record<string, unknown>, message = MSG_NOT_OWNER): void {
  if (isOwnedAction(descriptor, action) && !ownsRecord(toCurrentMember(member), descriptor.resource, row)) throw forbidden(message);
}
