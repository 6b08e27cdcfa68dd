// Category trees of SPEC.md section 3: built from ScCode / ScFatherCode, siblings ordered by
// SC_SORT, under one root node 全部 (code '0'). Pure, so that it is tested without rendering.
import { ROOT_CODE } from '../../../schemas/standardClassify';

/** The fields of a classification row the tree needs (the list call returns more). */
export interface CategoryRow {
  ScCode?: unknown;
  ScFatherCode?: unknown;
  ScName?: unknown;
  ScSort?: unknown;
}

/** A node as react-arborist reads it: `id`, `name` (its type-ahead search), `children` for inner nodes. */
export interface CategoryNode {
  id: string;
  name: string;
  sort: number;
  /** Absent on leaves: react-arborist treats any array (even empty) as an inner node. */
  children?: CategoryNode[];
}

export interface CategoryTree {
  /** The single root 全部 holding the top-level categories. */
  root: CategoryNode;
  /** Every node by code, the root included. */
  byCode: Map<string, CategoryNode>;
  /** Parent code of each category ('0' for the top level). */
  parentOf: Map<string, string>;
}

export const ROOT_NAME = '全部';

function sortOf(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : 0;
}

const codeOf = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));

/**
 * Builds the tree in O(n) when the rows come ordered by SC_SORT (as the list call answers them),
 * O(n log n) otherwise. Rows whose parent is missing, or which sit on a parent cycle (the server
 * refuses cycles, but the data may predate that), are shown at the top level rather than lost.
 * Equal SC_SORT keeps the order of the rows (the server's order).
 */
export function buildCategoryTree(rows: readonly CategoryRow[], rootName = ROOT_NAME): CategoryTree {
  const root: CategoryNode = { id: ROOT_CODE, name: rootName, sort: 0, children: [] };
  const byCode = new Map<string, CategoryNode>([[ROOT_CODE, root]]);
  const nodes: CategoryNode[] = [];
  const fathers: string[] = [];

  for (const row of rows) {
    const code = codeOf(row.ScCode);
    // A duplicate or empty code, or one equal to the root's, cannot be told apart: skip it.
    if (code === '' || byCode.has(code)) continue;
    const node: CategoryNode = { id: code, name: codeOf(row.ScName), sort: sortOf(row.ScSort) };
    byCode.set(code, node);
    nodes.push(node);
    fathers.push(codeOf(row.ScFatherCode));
  }

  const parentOf = new Map<string, string>();
  // Lists that received a child out of SC_SORT order: only those need sorting.
  const unsorted = new Set<CategoryNode>();
  const adopt = (parent: CategoryNode, node: CategoryNode) => {
    const siblings = (parent.children ??= []);
    const last = siblings[siblings.length - 1];
    if (last && last.sort > node.sort) unsorted.add(parent);
    siblings.push(node);
    parentOf.set(node.id, parent.id);
  };
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    const father = fathers[i]!;
    const parent = father === '' || father === node.id ? undefined : byCode.get(father);
    adopt(parent ?? root, node);
  }

  // Walk from the root; if some node is not reached it sits on a cycle: lift it to the top level.
  const reached = new Set<CategoryNode>([root]);
  const walk = (start: CategoryNode) => {
    const stack = [start];
    while (stack.length > 0) {
      const node = stack.pop()!;
      for (const child of node.children ?? []) {
        if (reached.has(child)) continue;
        reached.add(child);
        stack.push(child);
      }
    }
  };
  walk(root);
  if (reached.size < nodes.length + 1) {
    for (const node of nodes) {
      if (reached.has(node)) continue;
      const old = byCode.get(parentOf.get(node.id)!)!;
      old.children = old.children!.filter((n) => n !== node);
      if (old.children.length === 0) delete old.children;
      adopt(root, node);
      reached.add(node);
      walk(node);
    }
  }

  // Array.prototype.sort is stable: equal sorts keep the server's order.
  for (const parent of unsorted) parent.children!.sort((a, b) => a.sort - b.sort);
  return { root, byCode, parentOf };
}

/** Codes from the top level down to `code` (without the root); empty for the root or an unknown code. */
export function pathTo(tree: CategoryTree, code: string): string[] {
  const out: string[] = [];
  let cursor: string | undefined = code;
  for (let guard = 0; cursor !== undefined && cursor !== ROOT_CODE && guard <= tree.byCode.size; guard++) {
    if (!tree.byCode.has(cursor)) return [];
    out.unshift(cursor);
    cursor = tree.parentOf.get(cursor);
  }
  return out;
}

/** Counts nodes, the root included (for tests and diagnostics). */
export function countNodes(node: CategoryNode): number {
  let n = 0;
  const stack = [node];
  while (stack.length > 0) {
    const current = stack.pop() as CategoryNode;
    n++;
    if (current.children) stack.push(...current.children);
  }
  return n;
}
