import { Suspense } from 'react';
import { ListLoading } from '../ListStates';
import { lazyPart } from '../lazyPart';
import type { CategoryTreeProps } from './CategoryTree';

/**
 * The category tree (with its virtualiser) in a chunk of its own: the screens' tables do
 * not wait for it, and its download runs alongside theirs. Its pane keeps its size meanwhile.
 */
const Tree = lazyPart('CategoryTree', () => import('./CategoryTree').then((m) => m.CategoryTree));
// Only the article screens import this, and each shows the tree at once: its download starts as
// soon as their code runs, not when they first render.
Tree.preload().catch(() => undefined);

export function LazyCategoryTree(props: CategoryTreeProps) {
  return (
    <Suspense fallback={<ListLoading />}>
      <Tree {...props} />
    </Suspense>
  );
}
