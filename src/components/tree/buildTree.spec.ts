import { describe, expect, it } from 'vitest';
import { buildCategoryTree, countNodes, pathTo, type CategoryNode, type CategoryRow } from './buildTree';

const names = (nodes: CategoryNode[] | undefined) => (nodes ?? []).map((n) => n.name);

describe('buildCategoryTree', () => {
  it('puts the categories under one root 全部 (code 0), by ScFatherCode, siblings by SC_SORT', () => {
    const rows: CategoryRow[] = [
      { ScCode: 'b', ScFatherCode: '0', ScName: '结构专业', ScSort: 2 },
      { ScCode: 'c', ScFatherCode: 'b', ScName: '混凝土结构', ScSort: 1 },
      { ScCode: 'a', ScFatherCode: '0', ScName: '建筑专业', ScSort: 1 },
      { ScCode: 'd', ScFatherCode: 'b', ScName: '钢结构', ScSort: 0 },
    ];
    const tree = buildCategoryTree(rows);
    const { root, byCode } = tree;
    expect(root).toMatchObject({ id: '0', name: '全部' });
    expect(names(root.children)).toEqual(['建筑专业', '结构专业']);
    expect(names(byCode.get('b')?.children)).toEqual(['钢结构', '混凝土结构']);
    expect(byCode.get('c')?.parent).toBe('b');
    expect(byCode.get('b')?.parent).toBe('0');
    expect(root.parent).toBeUndefined();
    expect(pathTo(tree, 'c')).toEqual(['b', 'c']);
  });

  it('leaves carry no children array (the tree draws any array as a folder with a chevron)', () => {
    const { byCode } = buildCategoryTree([{ ScCode: 'a', ScFatherCode: '0', ScName: '甲', ScSort: 0 }]);
    expect(byCode.get('a')?.children).toBeUndefined();
  });

  it('keeps the server order for equal SC_SORT, and reads a missing or bad sort as 0', () => {
    const { root } = buildCategoryTree([
      { ScCode: 'x', ScFatherCode: '0', ScName: '一', ScSort: 1 },
      { ScCode: 'y', ScFatherCode: '0', ScName: '二', ScSort: 1 },
      { ScCode: 'z', ScFatherCode: '0', ScName: '三', ScSort: 'bad' },
      { ScCode: 'w', ScFatherCode: '0', ScName: '四' },
    ]);
    expect(names(root.children)).toEqual(['三', '四', '一', '二']);
  });

  it('shows orphans and rows on a parent cycle at the top level instead of losing them', () => {
    const { root, byCode } = buildCategoryTree([
      { ScCode: 'o', ScFatherCode: 'missing', ScName: '孤儿', ScSort: 3 },
      { ScCode: 'p', ScFatherCode: 'q', ScName: '环甲', ScSort: 1 },
      { ScCode: 'q', ScFatherCode: 'p', ScName: '环乙', ScSort: 2 },
      { ScCode: 's', ScFatherCode: 's', ScName: '自指', ScSort: 4 },
      { ScCode: '', ScFatherCode: '0', ScName: '无编码' },
      { ScCode: 'o', ScFatherCode: '0', ScName: '重复' },
    ]);
    expect(countNodes(root)).toBe(5);
    expect(byCode.get('o')?.name).toBe('孤儿');
    const top = names(root.children);
    expect(top).toContain('孤儿');
    expect(top).toContain('自指');
    // One of the cycle is lifted; the other stays under it.
    expect(top.filter((n) => n.startsWith('环'))).toHaveLength(1);
  });

  it('builds a tree of 10,000 categories given in reverse sort order', () => {
    // 100 top-level categories, each with 99 children: 10,000 rows in reverse sort order.
    const rows: CategoryRow[] = [];
    for (let i = 0; i < 100; i++) {
      rows.push({ ScCode: `t${i}`, ScFatherCode: '0', ScName: `分类${i}`, ScSort: 100 - i });
      for (let j = 0; j < 99; j++) {
        rows.push({ ScCode: `t${i}-${j}`, ScFatherCode: `t${i}`, ScName: `子分类${i}-${j}`, ScSort: 99 - j });
      }
    }
    expect(rows).toHaveLength(10_000);
    // Its speed is a figure of `npm run bench:ui` (the tree's render), not a timed test.
    const tree = buildCategoryTree(rows);
    expect(countNodes(tree.root)).toBe(10_001);
    expect(tree.root.children?.[0]?.name).toBe('分类99');
    expect(tree.byCode.get('t0')?.children?.[0]?.name).toBe('子分类0-98');
  });
});
