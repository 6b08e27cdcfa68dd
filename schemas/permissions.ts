// The permission rules of docs/api.md, as one pure function shared by the server (which
// enforces them) and the admin app (which hides what a member may not do).
import { resourceByName } from './index';
import type { ModuleKey, PermissionCode, ResourceDescriptor } from './descriptor';
import type { CurrentMember } from './types';

export type Action = 'create' | 'list' | 'show' | 'edit' | 'delete' | 'sort' | 'nextLevel';

/** Permission code each action needs: create 1, list/show 2, edit 3, delete 4, sort/next level 'a'. */
export const ACTION_CODES: Record<Action, PermissionCode> = {
  create: '1',
  list: '2',
  show: '2',
  edit: '3',
  delete: '4',
  sort: 'a',
  nextLevel: 'a',
};

export type PermissionHolder = Pick<CurrentMember, 'AuCode' | 'AuName' | 'IsAdmin' | 'Modules'>;

/** The codes a member holds on a module; an administrator holds all of them everywhere. */
export function codesOf(member: PermissionHolder, module: ModuleKey): Set<string> {
  if (member.IsAdmin === 1) return new Set(['1', '2', '3', '4', 'a']);
  const text = member.Modules?.[module] ?? '';
  return new Set(text.split(',').map((c) => c.trim()).filter(Boolean));
}

export function hasCode(member: PermissionHolder, module: ModuleKey, code: PermissionCode): boolean {
  return codesOf(member, module).has(code);
}

/** Modules whose permission string may allow the action on the resource. */
export function modulesFor(descriptor: ResourceDescriptor, action: Action): ModuleKey[] {
  if (descriptor.module === 'admin') return [];
  const reading = action === 'list' || action === 'show';
  if (reading) return [descriptor.module, ...(descriptor.readModules ?? [])];
  return [descriptor.writeModule ?? descriptor.module];
}

/** Ownership rule: videos by their creator, comments by their author; admins always. */
export function ownsRecord(member: PermissionHolder, resource: string, record: Record<string, unknown>): boolean {
  if (member.IsAdmin === 1) return true;
  // By member code only: display names are not unique. A row without a creator code (demo data,
  // imported legacy rows) has no known owner, so only administrators may change it.
  if (resource === 'video') return typeof record.CreateAuCode === 'string' && record.CreateAuCode !== '' && record.CreateAuCode === member.AuCode;
  if (resource === 'videoComment') return record.AuCode === member.AuCode;
  return true;
}

/** Actions whose rows are subject to the ownership rule. */
const OWNED_ACTIONS: Partial<Record<string, readonly Action[]>> = {
  video: ['edit', 'delete'],
  videoComment: ['delete'],
};

export interface AccessQuery {
  resource: string;
  action: Action;
  /** The row acted on, when there is one: the ownership rule applies to it. */
  record?: Record<string, unknown>;
}

export function canAccess(member: PermissionHolder | null | undefined, query: AccessQuery): boolean {
  if (!member) return false;
  const descriptor = resourceByName(query.resource);
  if (!descriptor) return false;
  if (descriptor.module === 'admin') return member.IsAdmin === 1;
  const code = ACTION_CODES[query.action];
  // Deleting a comment is governed by authorship alone (any viewer may remove their own comment).
  const needsCode = !(query.resource === 'videoComment' && query.action === 'delete');
  if (needsCode && !modulesFor(descriptor, query.action).some((m) => hasCode(member, m, code))) return false;
  if (!needsCode && !modulesFor(descriptor, 'list').some((m) => hasCode(member, m, '2'))) return false;
  if (query.record && OWNED_ACTIONS[query.resource]?.includes(query.action)) {
    return ownsRecord(member, query.resource, query.record);
  }
  return true;
}
