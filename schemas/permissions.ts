// The permission rules of docs/api.md, as one pure function shared by the server (which
// enforces them) and the admin app (which hides what a member may not do).
import { resourceByName } from './index';
import type { Action, ModuleKey, PermissionCode, ResourceDescriptor } from './descriptor';
import type { CurrentMember } from './types';

export type { Action } from './descriptor';

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

/**
 * The ownership rule of a resource's `ownership`: a row is its owner's (by member code only:
 * display names are not unique), administrators may act on every row. A row without an owner code
 * (demo data, imported legacy rows) has no known owner, so only administrators may act on it.
 */
export function ownsRecord(member: PermissionHolder, resource: string, record: Record<string, unknown>): boolean {
  if (member.IsAdmin === 1) return true;
  const ownership = resourceByName(resource)?.ownership;
  if (!ownership) return true;
  const owner = record[ownership.field];
  return typeof owner === 'string' && owner !== '' && owner === member.AuCode;
}

/** Whether the action on the resource's rows is subject to the ownership rule. */
export function isOwnedAction(descriptor: ResourceDescriptor, action: Action): boolean {
  return descriptor.ownership?.actions.includes(action) ?? false;
}

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
  const owned = isOwnedAction(descriptor, query.action);
  // Some owned actions need authorship and sight of the rows only (any viewer may remove their own
  // comment), not the action's own code.
  const byOwner = owned && descriptor.ownership?.byOwnerWithView === true;
  const action = byOwner ? 'list' : query.action;
  if (!modulesFor(descriptor, action).some((m) => hasCode(member, m, ACTION_CODES[action]))) return false;
  if (query.record && owned) return ownsRecord(member, query.resource, query.record);
  return true;
}
