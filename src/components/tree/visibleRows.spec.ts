import { describe, expect, it } from 'vitest';
import { buildCategoryTree } from './buildTree';
import { visibleRows } from './visibleRows';

const tree = buildCategoryTree([
  { ScCode: 'a', ScFatherCode: '0', ScName: '建筑专业', ScSort: 1 },
  { ScCode: 'b', ScFatherCode: '0', ScName: '结构专业', ScSort: 2 },
  { ScCode: 'c', ScFatherCode: 'b', ScName: '混凝土结构', ScSort: 1 },
  { ScCode: 'd', ScFatherCode: 'b', ScName: '钢结构', ScSort: 2 },
  { ScCode: 'e', ScFatherCode: 'c', ScName: '预应力', ScSort: 1 },
]);

describe('visibleRows', () => {
  it('lists every node in display order with its level, parent and place among siblings', () => {
    const rows = visibleRows(tree.root, new Set());
    expect(rows.map((r) => [r.node.id, r.level, r.parent, r.position, r.setSize])).toEqual([
      ['0', 0, null, 1, 1],
      ['a', 1, '0', 1, 2],
      ['b', 1, '0', 2, 2],
      ['c', 2, 'b', 1, 2],
      ['e', 3, 'c', 1, 1],
      ['d', 2, 'b', 2, 2],
    ]);
  });

  it('skips what lies under a closed node, at any depth', () => {
    expect(visibleRows(tree.root, new Set(['c'])).map((r) => r.node.id)).toEqual(['0', 'a', 'b', 'c', 'd']);
    expect(visibleRows(tree.root, new Set(['b', 'c'])).map((r) => r.node.id)).toEqual(['0', 'a', 'b']);
    expect(visibleRows(tree.root, new Set(['0'])).map((r) => r.node.id)).toEqual(['0']);
  });

  it('walks a chain of 50,000 nested categories without running out of stack', () => {
    const chain = [];
    for (let i = 0; i < 50_000; i++) chain.push({ ScCode: `n${i}`, ScFatherCode: i === 0 ? '0' : `n${i - 1}`, ScName: `${i}`, ScSort: 0 });
    const rows = visibleRows(buildCategoryTree(chain).root, new Set());
    expect(rows).toHaveLength(50_001);
    expect(rows.at(-1)?.level).toBe(50_000);
  });
});
