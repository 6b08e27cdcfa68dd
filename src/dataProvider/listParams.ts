// Pure helpers turning react-admin's list parameters into the legacy list call's parameters.
import { toColumn, type ResourceDescriptor } from '../../schemas/descriptor';
import { MAX_ALL_ROWS, MAX_PAGE_INDEX, MAX_PAGE_SIZE } from '../../schemas/lists';

export interface ListQuery {
  pagination?: { page: number; perPage: number };
  sort?: { field: string; order: string };
  filter?: Record<string, unknown>;
}

/** Fields the server can sort on: the schema's own scalar, readable properties. */
function isSortable(descriptor: ResourceDescriptor, field: string): boolean {
  const properties = descriptor.schema.properties;
  if (!Object.hasOwn(properties, field)) return false;
  const prop = properties[field] as { type?: unknown; writeOnly?: unknown } | undefined;
  if (!prop || prop.writeOnly === true) return false;
  return prop.type !== 'object' && prop.type !== 'array';
}

/**
 * `OrderName` for a sort. A schema field becomes `COLUMN DIR`, followed by the descriptor's
 * default order minus that column, so that rows equal on the chosen column keep the screen's
 * usual order. Anything else (react-admin's default `id`, an unknown field) gives the default.
 */
export function toOrderName(descriptor: ResourceDescriptor, sort?: { field: string; order: string }): string {
  if (!sort || typeof sort.field !== 'string' || !isSortable(descriptor, sort.field)) return descriptor.defaultOrder;
  const column = toColumn(sort.field);
  const direction = String(sort.order).toUpperCase() === 'DESC' ? 'DESC' : 'ASC';
  // A declared sortable column alone: the server breaks ties by Id, and its index serves just that.
  if (descriptor.sortable?.includes(sort.field)) return `${column} ${direction}`;
  const rest = descriptor.defaultOrder
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '' && part.split(/\s+/)[0]?.toUpperCase() !== column);
  return [`${column} ${direction}`, ...rest].join(', ');
}

/** `filter.All` asks for every row (lists used as choices: tabs, trees, sort mode). */
export function wantsAll(filter: Record<string, unknown> | undefined): boolean {
  const all = filter?.All;
  return all === 1 || all === true || all === '1';
}

/** Keeps only the descriptor's declared filters, search fields and list parameters, without empty values. */
export function pickFilters(descriptor: ResourceDescriptor, filter: Record<string, unknown> = {}): Record<string, unknown> {
  const allowed = new Set([...descriptor.filters, ...descriptor.searchFields, ...(descriptor.listParams ?? [])]);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (!allowed.has(key) || value === undefined || value === null || value === '') continue;
    out[key] = value;
  }
  return out;
}

/** Parameters of the descriptor's list call: paged, or `All: 1` without paging. */
export function toListParams(descriptor: ResourceDescriptor, query: ListQuery): Record<string, unknown> {
  const OrderName = toOrderName(descriptor, query.sort);
  const filters = pickFilters(descriptor, query.filter);
  if (wantsAll(query.filter)) return { All: 1, OrderName, ...filters };
  const pageIndex = query.pagination?.page ?? 1;
  const pageSize = query.pagination?.perPage ?? descriptor.pageSize;
  return { pageIndex, pageSize, OrderName, ...filters };
}

/**
 * The call for the rows an answer left out: a list answer stops at the server's byte limit
 * (docs/api.md, Lists) with fewer rows than asked for, while `total` counts them all. Given the
 * parameters sent and the rows received so far, the parameters of a page starting right after
 * them (its size divides its offset) and how many rows are still wanted; undefined once the
 * page asked for, or with All=1 every matching row up to MAX_ALL_ROWS, is complete.
 */
export function restOfList(
  params: Record<string, unknown>,
  total: number | undefined,
  received: number,
): { params: Record<string, unknown>; wanted: number } | undefined {
  if (total === undefined) return undefined;
  const { All, pageIndex, pageSize, ...rest } = params;
  const size = Number(pageSize);
  const start = All === 1 ? 0 : (Number(pageIndex) - 1) * size;
  const end = All === 1 ? Math.min(total, MAX_ALL_ROWS) : Math.min(total, start + size);
  const offset = start + received;
  const wanted = end - offset;
  if (wanted <= 0) return undefined;
  for (let n = Math.min(MAX_PAGE_SIZE, wanted); n >= 1; n--) {
    if (offset % n === 0 && offset / n + 1 <= MAX_PAGE_INDEX) return { params: { ...rest, pageIndex: offset / n + 1, pageSize: n }, wanted };
  }
  return undefined;
}
