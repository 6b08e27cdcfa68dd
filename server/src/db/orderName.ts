// Parses the legacy `OrderName` ("IS_TOP DESC, VD_TIME DESC") against the entity's own columns.
// Anything else is refused before a query is built, so no part of it ever reaches SQL text.
import { toColumn, type ResourceDescriptor } from '../../../schemas/descriptor';
import { badRequest } from '../errors';

export type Direction = 'asc' | 'desc';
export interface OrderTerm {
  column: string;
  direction: Direction;
}

const TERM = /^\s*([A-Za-z][A-Za-z0-9_]{0,63})(?:\s+(asc|desc))?\s*$/i;
const MAX_TERMS = 6;

/** Columns a list may be ordered by: every readable field of the schema. */
export function sortableColumns(descriptor: ResourceDescriptor): Set<string> {
  const columns = new Set<string>();
  for (const [field, schema] of Object.entries(descriptor.schema.properties)) {
    if (schema.writeOnly) continue;
    if (schema.type === 'object') continue;
    columns.add(toColumn(field));
  }
  return columns;
}

export function parseOrderName(orderName: string | undefined, descriptor: ResourceDescriptor): OrderTerm[] {
  const text = orderName === undefined || orderName.trim() === '' ? descriptor.defaultOrder : orderName;
  const allowed = sortableColumns(descriptor);
  const parts = text.split(',');
  if (parts.length > MAX_TERMS) throw badRequest('排序字段过多', [{ field: 'OrderName', msg: '排序字段过多' }]);
  const terms: OrderTerm[] = [];
  for (const part of parts) {
    const match = TERM.exec(part);
    const column = match?.[1]?.toUpperCase();
    if (!match || !column || !allowed.has(column)) {
      throw badRequest('排序字段无效', [{ field: 'OrderName', msg: '排序字段无效' }]);
    }
    if (terms.some((t) => t.column === column)) continue;
    terms.push({ column, direction: (match[2]?.toLowerCase() as Direction | undefined) ?? 'asc' });
  }
  // Ties are broken by the primary key, in the direction of the last term, so that paging is
  // deterministic (no row repeats or vanishes between pages) and the composite index still serves.
  if (!terms.some((t) => t.column === 'ID')) {
    terms.push({ column: 'ID', direction: terms[terms.length - 1]?.direction ?? 'asc' });
  }
  return terms;
}
