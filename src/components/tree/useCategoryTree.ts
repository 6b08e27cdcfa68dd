import { useMemo } from 'react';
import { useGetList } from 'react-admin';
import { buildCategoryTree, ROOT_NAME, type CategoryTree } from './buildTree';
import { TREE_DATA_MARK } from './marks';
import { categoryTreeQuery } from '../../screenQueries';

/**
 * Every classification of a page type (GetStandardClassifyListInAdmin with All=1, type,
 * OrderName 'SC_SORT ASC'), built into the tree under 全部.
 */
export function useCategoryTree(resource: 'classify' | 'tykjClassify', type: number) {
  const { data, isPending, error, refetch } = useGetList(resource, categoryTreeQuery(type));
  const tree: CategoryTree | undefined = useMemo(() => {
    if (!data) return undefined;
    performance.mark(TREE_DATA_MARK);
    return buildCategoryTree(data, ROOT_NAME);
  }, [data]);
  return { tree, rows: data, isPending, error, refetch };
}
