// The list queries the screens send as they open, in one light module: the screens build their
// queries here, and start.tsx sends the same ones early (src/http/early.ts) while the screen's code
// is still downloading, so that the screen's own first request finds its answer already in.
import {
  articleResource,
  classifyResource,
  memberResource,
  ROOT_CODE,
  tykjArticleResource,
  tykjClassifyResource,
  usewebResource,
  videoTypeResource,
} from '../schemas/index';
import type { ResourceDescriptor } from '../schemas/descriptor';
import type { ListQuery } from './dataProvider/listParams';
import type { ListQueryParams } from './dataProvider/listQuery';
import { PATHS, toPageType } from './navigation';
import { readPageSize } from './resources/article/pageSize';

export interface ScreenQuery {
  resource: string;
  query: ListQueryParams;
}

/**
 * What a react-admin List asks for first: page 1, its default sort (`id`, which the dataProvider
 * turns into the descriptor's default order) and the permanent filter.
 */
export function firstPage(perPage: number, filter: Record<string, unknown> = {}): ListQueryParams {
  return { pagination: { page: 1, perPage }, sort: { field: 'id', order: 'ASC' }, filter };
}

/** The permanent filter of a SchemaList: every row at once (All) when it has no pager. */
export function schemaListFilter(filter: Record<string, unknown> | undefined, paged: boolean): Record<string, unknown> | undefined {
  return paged ? filter : { ...filter, All: 1 };
}

/** Every video category, VDT_SORT ASC: the tabs of 视频学习编辑 and 在线视频. */
export const VIDEO_TYPES_QUERY = {
  filter: { All: 1 },
  sort: { field: 'VdtSort', order: 'ASC' },
  pagination: { page: 1, perPage: 1000 },
} as const satisfies ListQuery;

/** Every classification is requested at once (All=1); the server caps that list far above this. */
const ALL_CLASSIFICATIONS = 20000;

/** Every classification of a page type, SC_SORT ASC: the category trees. */
export function categoryTreeQuery(type: number) {
  return {
    filter: { All: 1, type },
    pagination: { page: 1, perPage: ALL_CLASSIFICATIONS },
    sort: { field: 'ScSort', order: 'ASC' as const },
  } satisfies ListQuery;
}

/** The articles of a category (a tree's selection) of a page type. */
export function articleFilter(code: string, type: number): { ScCode: string; type: number } {
  return { ScCode: code, type };
}

const schemaListFirst = (descriptor: ResourceDescriptor, filter?: Record<string, unknown>, paged = true): ScreenQuery => ({
  resource: descriptor.resource,
  query: firstPage(descriptor.pageSize, schemaListFilter(filter, paged)),
});

const tree = (descriptor: ResourceDescriptor, type: number): ScreenQuery => ({
  resource: descriptor.resource,
  query: categoryTreeQuery(type),
});

/**
 * The queries the screen at this address sends first, as far as the address decides them (a
 * list that waits for another answer, such as a category's videos, is left to the screen).
 */
export function openingQueries(pathname: string, search: string): ScreenQuery[] {
  const query = new URLSearchParams(search);
  const type = toPageType(query.get('type'));
  const path = pathname.replace(/\/+$/, '');
  const classifyPrefix = `${PATHS.articleClassify}/`;
  if (path.startsWith(classifyPrefix)) {
    const pathType = toPageType(path.slice(classifyPrefix.length));
    return [schemaListFirst(classifyResource, { ScFatherCode: query.get('code') || ROOT_CODE, type: pathType })];
  }
  switch (path) {
    case PATHS.videoType:
      return [schemaListFirst(videoTypeResource)];
    case PATHS.member:
      return [schemaListFirst(memberResource)];
    case PATHS.useweb:
      return [schemaListFirst(usewebResource, undefined, false)];
    case PATHS.video:
    case PATHS.videoView:
      return [{ resource: videoTypeResource.resource, query: VIDEO_TYPES_QUERY }];
    case PATHS.tykjClassify:
      return [schemaListFirst(tykjClassifyResource, { ScFatherCode: query.get('code') || ROOT_CODE, type })];
    case PATHS.articleCatalogue:
      return [
        tree(classifyResource, type),
        {
          resource: articleResource.resource,
          query: firstPage(readPageSize(), articleFilter(query.get('ScCode') || ROOT_CODE, type)),
        },
      ];
    case PATHS.articleManage:
      return [tree(classifyResource, type), schemaListFirst(articleResource, articleFilter(ROOT_CODE, type))];
    case PATHS.tykjManage:
      return [tree(tykjClassifyResource, type), schemaListFirst(tykjArticleResource, articleFilter(ROOT_CODE, type))];
    case PATHS.tykj:
      return [tree(tykjClassifyResource, type)];
    default:
      return [];
  }
}
