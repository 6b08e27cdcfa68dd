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

/**
 * Builds the tree in O(n log n). Rows whose parent is missing, or which sit on a parent cycle
 * (the server refuses cycles, but the data may predate that), are shown at the top level rather
 * than lost. Equal SC_SORT keeps the order of the rows (the server's order).
 */
export function buildCategoryTree(rows: readonly CategoryRow[], rootName = ROOT_NAME): CategoryTree {
  const root: CategoryNode = { id: ROOT_CODE, name: rootName, sort: 0, children: [] };
  const byCode = new Map<string, CategoryNode>([[ROOT_CODE, root]]);
  const fatherOf = new Map<string, string>();
  const order: CategoryNode[] = [];

  for (const row of rows) {
    const code = row.ScCode === undefined || row.ScCode === null ? '' : String(row.ScCode);
    // A duplicate or empty code, or one equal to the root's, cannot be told apart: skip it.
    if (code === '' || byCode.has(code)) continue;
    const node: CategoryNode = { id: code, name: String(row.ScName ?? ''), sort: sortOf(row.ScSort) };
    byCode.set(code, node);
    order.push(node);
    const father = row.ScFatherCode === undefined || row.ScFatherCode === null ? '' : String(row.ScFatherCode);
    fatherOf.set(code, father === '' ? ROOT_CODE : father);
  }

  const kids = new Map<string, CategoryNode[]>();
  const parentOf = new Map<string, string>();
  for (const node of order) {
    let father = fatherOf.get(node.id) ?? ROOT_CODE;
    if (father === node.id || !byCode.has(father)) father = ROOT_CODE;
    parentOf.set(node.id, father);
    const list = kids.get(father);
    if (list) list.push(node);
    else kids.set(father, [node]);
  }

  // Walk from the root; whatever is not reached sits on a cycle: lift it to the top level.
  const reached = new Set<string>([ROOT_CODE]);
  const walk = (start: string) => {
    const stack = [start];
    while (stack.length > 0) {
      const code = stack.pop() as string;
      for (const child of kids.get(code) ?? []) {
        if (reached.has(child.id)) continue;
        reached.add(child.id);
        stack.push(child.id);
      }
    }
  };
  walk(ROOT_CODE);
  for (const node of order) {
    if (reached.has(node.id)) continue;
    const father = parentOf.get(node.id) as string;
    const siblings = kids.get(father);
    if (siblings) kids.set(father, siblings.filter((n) => n !== node));
    parentOf.set(node.id, ROOT_CODE);
    const top = kids.get(ROOT_CODE);
    if (top) top.push(node);
    else kids.set(ROOT_CODE, [node]);
    reached.add(node.id);
    walk(node.id);
  }

  for (const [code, list] of kids) {
    // Array.prototype.sort is stable: equal sorts keep the server's order.
    list.sort((a, b) => a.sort - b.sort);
    const node = byCode.get(code);
    if (node) node.children = list;
  }
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
