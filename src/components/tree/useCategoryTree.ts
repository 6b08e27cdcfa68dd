import { useDeferredValue, useMemo } from 'react';
import { useGetList } from 'react-admin';
import { buildCategoryTree, ROOT_NAME, type CategoryTree } from './buildTree';
import type { ListQuery } from '../../dataProvider/listParams';
import { TREE_DATA_MARK } from './marks';

/** Every classification is requested at once (All=1); the server caps that list far above this. */
const ALL_CLASSIFICATIONS = 20000;

/** Every classification of a page type, SC_SORT ASC. */
export function categoryTreeQuery(type: number) {
  return {
    filter: { All: 1, type },
    pagination: { page: 1, perPage: ALL_CLASSIFICATIONS },
    sort: { field: 'ScSort', order: 'ASC' as const },
  } satisfies ListQuery;
}

/**
 * Every classification of a page type (GetStandardClassifyListInAdmin with All=1, type,
 * OrderName 'SC_SORT ASC'), built into the tree under 全部. Asked for once `enabled`.
 */
export function useCategoryTree(resource: 'classify' | 'tykjClassify', type: number, enabled = true) {
  const { data: answered, isPending, error, refetch } = useGetList(resource, categoryTreeQuery(type), { enabled });
  // Built and drawn in a render React may interrupt (useDeferredValue): the answer arrives in an
  // update React must finish at once, and up to 10,000 categories would hold the page meanwhile.
  // A page that arrives with its categories (the server's) shows them from its first render; a
  // tree already shown stays until the new one is drawn.
  const data = useDeferredValue(answered);
  const tree: CategoryTree | undefined = useMemo(() => {
    if (!data) return undefined;
    performance.mark(TREE_DATA_MARK);
    return buildCategoryTree(data, ROOT_NAME);
  }, [data]);
  return { tree, rows: data, isPending: isPending || (data === undefined && answered !== undefined), error, refetch };
}
