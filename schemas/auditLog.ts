// The audit log (操作日志): one read-only entry per successful write by a member: who added,
// changed, deleted or re-sorted which record, and when; and one per export (导出) of a list. The server writes the entries; no call
// changes or deletes them. Administrators read them.
import { defineResource } from './descriptor';
import { idField, withLabels } from './fields';
import type { JSONSchema } from 'json-schema-to-ts';

export const AUDIT_ACTIONS = ['create', 'update', 'delete', 'sort', 'export'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  create: '新增',
  update: '修改',
  delete: '删除',
  sort: '排序',
  export: '导出',
};

/**
 * One changed (or, for an addition or a deletion, recorded) field. `before`/`after` are absent on
 * the side that has no record. Long text and rich text are kept as a plain-text excerpt
 * (`truncated`); secrets are never kept, only that they changed (`redacted`). A sort lists each
 * moved record (`id`, `name`); `label` names items that are not fields of the schema.
 */
export interface AuditChange {
  field: string;
  label?: string;
  before?: unknown;
  after?: unknown;
  truncated?: true;
  redacted?: true;
  id?: number;
  name?: string;
}

export const auditLogSchema = {
  type: 'object',
  title: '操作日志',
  properties: {
    Id: idField,
    At: { type: 'string', title: '时间', format: 'date-time', readOnly: true },
    AuCode: { type: 'string', title: '操作人编码', maxLength: 64, readOnly: true },
    AuName: { type: 'string', title: '操作人', readOnly: true },
    Action: withLabels({ type: 'string', title: '操作', enum: AUDIT_ACTIONS, readOnly: true }, AUDIT_ACTION_LABELS),
    // A resource name of an audited entity (`audit` in its descriptor).
    Resource: { type: 'string', title: '对象', maxLength: 64, readOnly: true },
    RecordId: { type: ['integer', 'null'], title: '记录ID', readOnly: true },
    RecordCode: { type: 'string', title: '记录编码', readOnly: true },
    RecordName: { type: 'string', title: '名称', readOnly: true },
    // Stored as JSON text; the list call answers it as the array.
    Changes: { type: 'array', title: '变更内容', items: { type: 'object' }, readOnly: true },
  },
} as const satisfies JSONSchema;

export const auditLogResource = defineResource({
  resource: 'auditLog',
  service: 'Ajax',
  schema: auditLogSchema,
  // Read only: there is no call to add, change or delete an entry.
  calls: { list: 'GetAuditLogListInAdmin' },
  defaultOrder: 'AT DESC',
  module: 'admin',
  hidden: { list: ['AuCode', 'RecordId', 'RecordCode'] },
  nameField: 'RecordName',
  searchFields: ['RecordName'],
  filters: ['Resource', 'Action', 'AuCode'],
  listParams: ['AtFrom', 'AtTo'],
  pageSize: 15,
  dialog: { width: 800, title: '操作详情' },
  handWritten: ['list'],
  screens: [
    { component: 'auditLog/AuditLogList', menu: [{ group: '系统管理', order: 51, icon: 'History' }] },
  ],
});
