// How the audit log reads to a person: Chinese names of resources, actions and fields (from the
// schemas, never restated), and the kept values as text (flags as 是/否, permissions by module).
import { AUDIT_ACTION_LABELS, type AuditAction, type AuditChange } from '../../../schemas/auditLog';
import { PERMISSION_CODES, type PermissionCode } from '../../../schemas/descriptor';
import { AUDITED_RESOURCES, MODULE_LABELS, resourceByName } from '../../../schemas/index';
import { choiceLabel, fieldSchema, fieldTitle, referenceOf, referenceTarget } from '../../components/schemaFields';
import { CODE_LABELS } from '../member/ModulePermissionsInput';

export const EMPTY_VALUE = '—';
export const REDACTED_TEXT = '已修改（内容不记录）';

export function resourceLabel(resource: unknown): string {
  const audited = AUDITED_RESOURCES[String(resource)];
  // An export names any listed resource, audited or not.
  return audited?.label ?? resourceByName(String(resource))?.label ?? String(resource ?? '');
}

export function actionLabel(action: unknown): string {
  return AUDIT_ACTION_LABELS[action as AuditAction] ?? String(action ?? '');
}

export const RESOURCE_CHOICES = Object.entries(AUDITED_RESOURCES).map(([id, { label }]) => ({ id, name: label }));
export const ACTION_CHOICES = Object.entries(AUDIT_ACTION_LABELS).map(([id, name]) => ({ id, name }));

/** The field's Chinese title; a sort names the moved record too (`常用网站甲 · 排序`). */
export function changeLabel(resource: string, change: AuditChange): string {
  if (change.label) return change.label;
  const descriptor = resourceByName(resource);
  const title = descriptor ? fieldTitle(descriptor, change.field) : change.field;
  return change.name !== undefined ? `${change.name} · ${title}` : title;
}

function permissions(value: Record<string, unknown>): string {
  const parts = Object.entries(value)
    .filter(([, codes]) => typeof codes === 'string' && codes !== '')
    .map(([module, codes]) => {
      const names = String(codes)
        .split(',')
        .map((c) => c.trim())
        .filter((c): c is PermissionCode => (PERMISSION_CODES as readonly string[]).includes(c))
        .map((c) => CODE_LABELS[c]);
      return `${MODULE_LABELS[module] ?? module}：${names.join('、')}`;
    });
  return parts.length > 0 ? parts.join('；') : '（无）';
}

/** One side of a change as text. */
export function formatValue(resource: string, change: AuditChange, side: 'before' | 'after'): string {
  if (change.redacted) return side === 'after' ? REDACTED_TEXT : EMPTY_VALUE;
  if (!(side in change)) return EMPTY_VALUE;
  const value = change[side];
  if (value === null || value === undefined) return EMPTY_VALUE;
  const descriptor = resourceByName(resource);
  const schema = descriptor ? fieldSchema(descriptor, change.field) : {};
  // A flag or a choice by its label (是/否, 草稿…).
  if (schema.enum && (typeof value === 'string' || typeof value === 'number')) return choiceLabel(schema, value);
  if (Array.isArray(value)) return value.length > 0 ? value.map(String).join('、') : '（无）';
  if (typeof value === 'object') return permissions(value as Record<string, unknown>);
  if (value === '') return '（空）';
  return String(value);
}

/**
 * What a changed value names when the field is a reference: the referenced resource, the field its
 * value matches and the field naming the record, for the change view to show the name.
 */
export function referenceOfChange(resource: string, change: AuditChange): ReturnType<typeof referenceTarget> | undefined {
  const descriptor = resourceByName(resource);
  const reference = descriptor ? referenceOf(descriptor, change.field) : undefined;
  return reference ? referenceTarget(reference) : undefined;
}
