import { Suspense } from 'react';
import { ListLoading } from '../ListStates';
import { lazyPart } from '../lazyPart';
import type { CategoryTreeProps } from './CategoryTree';

/**
 * The category tree (react-arborist and react-dnd) in a chunk of its own: the screens' tables do
 * not wait for it, and its download runs alongside theirs. Its pane keeps its size meanwhile.
 */
const Tree = lazyPart(() => import('./CategoryTree').then((m) => m.CategoryTree));

export function LazyCategoryTree(props: CategoryTreeProps) {
  return (
    <Suspense fallback={<ListLoading />}>
      <Tree {...props} />
    </Suspense>
  );
}
