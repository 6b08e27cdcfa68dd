import { useMemo } from 'react';
import { useGetList } from 'react-admin';
import { buildCategoryTree, ROOT_NAME, type CategoryTree } from './buildTree';
import { TREE_DATA_MARK } from './marks';

/** Every classification is requested at once (All=1); the server caps that list far above this. */
const ALL_ROWS = 20000;

/**
 * Every classification of a page type (GetStandardClassifyListInAdmin with All=1, type,
 * OrderName 'SC_SORT ASC'), built into the tree under 全部.
 */
export function useCategoryTree(resource: 'classify' | 'tykjClassify', type: number) {
  const { data, isPending, error, refetch } = useGetList(resource, {
    filter: { All: 1, type },
    pagination: { page: 1, perPage: ALL_ROWS },
    sort: { field: 'ScSort', order: 'ASC' },
  });
  const tree: CategoryTree | undefined = useMemo(() => {
    if (!data) return undefined;
    performance.mark(TREE_DATA_MARK);
    return buildCategoryTree(data, ROOT_NAME);
  }, [data]);
  return { tree, rows: data, isPending, error, refetch };
}
