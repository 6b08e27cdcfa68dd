// Category trees, built from ScCode / ScFatherCode, siblings ordered by
// SC_SORT, under one root node 全部 (code '0'). Pure, so that it is tested without rendering.
import { ROOT_CODE } from '../../../schemas/standardClassify';

/** The fields of a classification row the tree needs (the list call returns more). */
export interface CategoryRow {
  ScCode?: unknown;
  ScFatherCode?: unknown;
  ScName?: unknown;
  ScSort?: unknown;
}

/** A category under the root 全部: `id`, `name` (what type-ahead searches), `children` for inner nodes. */
export interface CategoryNode {
  id: string;
  name: string;
  sort: number;
  /** Code of the parent node ('0' for the top level); absent on the root. */
  parent?: string;
  /** Absent on leaves: a leaf is drawn without a chevron, as a closed folder. */
  children?: CategoryNode[];
}

export interface CategoryTree {
  /** The single root 全部 holding the top-level categories. */
  root: CategoryNode;
  /** Every node by code, the root included. */
  byCode: Map<string, CategoryNode>;
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
 *
 * It runs once per tree on the way to the first paint, mostly before the JIT has warmed up: each
 * category costs one map insert and one lookup, and nothing else is kept per category.
 */
export function buildCategoryTree(rows: readonly CategoryRow[], rootName = ROOT_NAME): CategoryTree {
  const root: CategoryNode = { id: ROOT_CODE, name: rootName, sort: 0, children: [] };
  const byCode = new Map<string, CategoryNode>([[ROOT_CODE, root]]);
  const nodes: CategoryNode[] = [];

  for (const row of rows) {
    const code = codeOf(row.ScCode);
    // A duplicate or empty code, or one equal to the root's, cannot be told apart: skip it.
    if (code === '' || byCode.has(code)) continue;
    // `parent` holds the row's ScFatherCode until the node is placed.
    const node: CategoryNode = { id: code, name: codeOf(row.ScName), sort: sortOf(row.ScSort), parent: codeOf(row.ScFatherCode) };
    byCode.set(code, node);
    nodes.push(node);
  }

  // Lists that received a child out of SC_SORT order: only those need sorting.
  const unsorted = new Set<CategoryNode>();
  const adopt = (parent: CategoryNode, node: CategoryNode) => {
    const siblings = (parent.children ??= []);
    const last = siblings[siblings.length - 1];
    if (last && last.sort > node.sort) unsorted.add(parent);
    siblings.push(node);
    node.parent = parent.id;
  };
  for (const node of nodes) {
    const father = node.parent!;
    adopt((father !== node.id && byCode.get(father)) || root, node);
  }

  // Every node was adopted once, so a walk from the root meets each node it reaches once: a count
  // tells whether all were reached (the usual case) without remembering them. Nodes not reached
  // sit on a cycle: only then are the reached ones collected, and the others lifted to the top.
  if (countNodes(root) < nodes.length + 1) {
    const reached = new Set<CategoryNode>();
    const walk = (start: CategoryNode) => {
      const stack = [start];
      while (stack.length > 0) {
        const node = stack.pop()!;
        reached.add(node);
        if (node.children) for (const child of node.children) if (!reached.has(child)) stack.push(child);
      }
    };
    walk(root);
    for (const node of nodes) {
      if (reached.has(node)) continue;
      const old = byCode.get(node.parent!)!;
      old.children = old.children!.filter((n) => n !== node);
      if (old.children.length === 0) delete old.children;
      adopt(root, node);
      walk(node);
    }
  }

  // Array.prototype.sort is stable: equal sorts keep the server's order.
  for (const parent of unsorted) parent.children!.sort((a, b) => a.sort - b.sort);
  return { root, byCode };
}

/** Codes from the top level down to `code` (without the root); empty for the root or an unknown code. */
export function pathTo(tree: CategoryTree, code: string): string[] {
  const out: string[] = [];
  let cursor: string | undefined = code;
  for (let guard = 0; cursor !== undefined && cursor !== ROOT_CODE && guard <= tree.byCode.size; guard++) {
    const node = tree.byCode.get(cursor);
    if (!node) return [];
    out.unshift(cursor);
    cursor = node.parent;
  }
  return out;
}

/** Counts the nodes under `node`, itself included (the tree has no cycle from the root down). */
export function countNodes(start: CategoryNode): number {
  let n = 0;
  const stack = [start];
  while (stack.length > 0) {
    const current = stack.pop()!;
    n++;
    if (current.children) for (const child of current.children) stack.push(child);
  }
  return n;
}

/** A category's place as its names from the top ('结构专业 / 混凝土结构'); 未分类 when the tree does not hold it. */
export function placeName(tree: CategoryTree | undefined, code: string): string {
  const path = tree ? pathTo(tree, code) : [];
  return path.map((id) => tree?.byCode.get(id)?.name ?? id).join(' / ') || '未分类';
}
