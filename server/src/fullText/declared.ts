// What the full-text index needs of the descriptors that declare `fullText` (schemas/descriptor.ts):
// their sources and the two filters a search applies inside its query, the document type and the
// category (a tree: a category and everything under it).
import { toColumn, type FullTextSource, type ResourceDescriptor } from '../../../schemas/descriptor';
import { RESOURCES, resourceByName } from '../../../schemas/index';
import type { Row } from '../db/row';

export const FULL_TEXT_RESOURCES: readonly ResourceDescriptor[] = RESOURCES.filter((d) => d.fullText);

export function fullTextByTable(table: string): ResourceDescriptor | undefined {
  return FULL_TEXT_RESOURCES.find((d) => d.table === table);
}

export interface CategoryFilter {
  /** The record's field holding its category (ScCode). */
  field: string;
  /** The tree: its table, code column and parent column, and the code of its root. */
  tree: { table: string; codeColumn: string; parentColumn: string; root: string };
}

const categories = new Map<string, CategoryFilter | undefined>();

/** The filter whose reference points into a tree (an article's classification), if any. */
export function categoryFilter(descriptor: ResourceDescriptor): CategoryFilter | undefined {
  if (!categories.has(descriptor.resource)) {
    let found: CategoryFilter | undefined;
    for (const field of descriptor.filters) {
      const reference = descriptor.references?.find((r) => r.field === field);
      const tree = reference ? resourceByName(reference.to) : undefined;
      const parent = tree?.references?.find((r) => r.to === tree.resource && r.root !== undefined);
      if (reference && tree && parent) {
        found = { field, tree: { table: tree.table, codeColumn: toColumn(reference.toField), parentColumn: toColumn(parent.field), root: parent.root! } };
        break;
      }
    }
    categories.set(descriptor.resource, found);
  }
  return categories.get(descriptor.resource);
}

/** The other filter, an equality on a small set of values (an article's document type), if any. */
export function typeFilter(descriptor: ResourceDescriptor): string | undefined {
  const category = categoryFilter(descriptor)?.field;
  return descriptor.filters.find((f) => f !== category);
}

/**
 * What the index cannot hold of a descriptor: its type filter is copied into FT_PAGE.TYPE, an
 * integer column (migration 011), so it must be an integer field (PostgreSQL refuses any other).
 */
export function fullTextProblems(descriptor: ResourceDescriptor): string[] {
  const type = descriptor.fullText ? typeFilter(descriptor) : undefined;
  if (type === undefined) return [];
  const property = descriptor.schema.properties[type] as { type?: string | readonly string[]; enum?: readonly unknown[] } | undefined;
  const types = property?.type === undefined ? [] : typeof property.type === 'string' ? [property.type] : property.type;
  const integer = types.includes('integer') || types.includes('boolean') || (types.length === 0 && typeof property?.enum?.[0] === 'number');
  return integer ? [] : [`${descriptor.resource}: the full-text search's type filter ${type} must be an integer field (FT_PAGE.TYPE)`];
}

/** The fields whose change calls for reading a record again: its sources. */
export function sourceFields(descriptor: ResourceDescriptor): string[] {
  const ft = descriptor.fullText;
  return ft ? [...(ft.files ?? []), ...(ft.richText ?? [])] : [];
}

/** The fields its pages copy for the search's filters: its type and its category. */
export function filterFields(descriptor: ResourceDescriptor): string[] {
  return [typeFilter(descriptor), categoryFilter(descriptor)?.field].filter((f): f is string => !!f);
}

/** FTS5 tag tokens of a record: its type and its category (server/src/fullText/tokens.ts keeps them apart from words). */
export function tagsOf(descriptor: ResourceDescriptor, row: Row): string {
  const tags: string[] = [];
  const type = typeFilter(descriptor);
  if (type && row[type] !== null && row[type] !== undefined) tags.push(typeTag(row[type]));
  const category = categoryFilter(descriptor);
  if (category && typeof row[category.field] === 'string') tags.push(categoryTag(row[category.field] as string));
  return tags.join(' ');
}

/** Tags are letters and digits only (one unicode61 token); other characters go as their code points. */
const tagSafe = (value: string) => value.toLowerCase().replace(/[^a-z0-9]/g, (c) => `x${c.codePointAt(0)!.toString(16)}x`);
export const typeTag = (value: unknown) => `t${tagSafe(String(value))}`;
export const categoryTag = (value: string) => `c${tagSafe(value)}`;

export function sourceOfRichText(descriptor: ResourceDescriptor, field: string): FullTextSource {
  return descriptor.fullText?.sources?.[field] ?? 'content';
}
