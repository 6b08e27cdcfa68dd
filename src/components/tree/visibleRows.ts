// The rows a tree shows: its nodes in display order, skipping the children of closed nodes.
// Pure, so that it is tested without rendering; one walk, O(visible rows).
import type { CategoryNode } from './buildTree';

export interface VisibleRow {
  node: CategoryNode;
  /** 0 for the root. */
  level: number;
  /** Code of the parent row; null for the root. */
  parent: string | null;
  /** 1-based place among its siblings, and their number (aria-posinset / aria-setsize). */
  position: number;
  setSize: number;
}

export function visibleRows(root: CategoryNode, closed: ReadonlySet<string>): VisibleRow[] {
  const rows: VisibleRow[] = [];
  // An explicit stack (children pushed in reverse) rather than recursion: trees may be deep.
  const stack: VisibleRow[] = [{ node: root, level: 0, parent: null, position: 1, setSize: 1 }];
  while (stack.length > 0) {
    const row = stack.pop()!;
    rows.push(row);
    const children = row.node.children;
    if (!children || closed.has(row.node.id)) continue;
    for (let i = children.length - 1; i >= 0; i--) {
      stack.push({ node: children[i]!, level: row.level + 1, parent: row.node.id, position: i + 1, setSize: children.length });
    }
  }
  return rows;
}
