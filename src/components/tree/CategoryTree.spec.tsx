// @vitest-environment jsdom
import { useState } from 'react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildCategoryTree, type CategoryRow } from './buildTree';
import { CategoryTree } from './CategoryTree';

afterEach(cleanup);

const rows: CategoryRow[] = [
  { ScCode: 'a', ScFatherCode: '0', ScName: '建筑专业', ScSort: 1 },
  { ScCode: 'b', ScFatherCode: '0', ScName: '结构专业', ScSort: 2 },
  { ScCode: 'c', ScFatherCode: 'b', ScName: '混凝土结构', ScSort: 1 },
];

function Harness({ onSelect, data = rows }: { onSelect: (code: string) => void; data?: CategoryRow[] }) {
  const [selected, setSelected] = useState('0');
  const tree = buildCategoryTree(data);
  return (
    <CategoryTree
      title="文章分类"
      root={tree.root}
      selected={selected}
      onSelect={(code) => {
        setSelected(code);
        onSelect(code);
      }}
    />
  );
}

describe('CategoryTree', { timeout: 20_000 }, () => {
  it('shows the titled tree, all open, with 全部 first and selected', () => {
    render(<Harness onSelect={() => undefined} />);
    expect(screen.getByRole('heading', { name: '文章分类' })).toBeTruthy();
    const tree = screen.getByRole('tree', { name: '文章分类' });
    const items = screen.getAllByRole('treeitem');
    expect(items.map((i) => i.textContent)).toEqual(['全部', '建筑专业', '结构专业', '混凝土结构']);
    expect(items[0]?.getAttribute('aria-selected')).toBe('true');
    expect(items[2]?.getAttribute('aria-expanded')).toBe('true');
    expect(tree.getAttribute('tabindex')).toBe('0');
  });

  it('selects a node on click', () => {
    const onSelect = vi.fn();
    render(<Harness onSelect={onSelect} />);
    fireEvent.click(screen.getByText('混凝土结构'));
    expect(onSelect).toHaveBeenLastCalledWith('c');
    expect(screen.getByRole('treeitem', { name: '混凝土结构' }).getAttribute('aria-selected')).toBe('true');
  });

  it('moves with the arrows and selects with Enter', async () => {
    const onSelect = vi.fn();
    render(<Harness onSelect={onSelect} />);
    const tree = screen.getByRole('tree');
    await act(async () => {
      tree.focus();
    });
    // Focus enters on the selected node (全部); two steps down is 结构专业.
    fireEvent.keyDown(tree, { key: 'ArrowDown' });
    fireEvent.keyDown(tree, { key: 'ArrowDown' });
    fireEvent.keyDown(tree, { key: 'Enter' });
    expect(onSelect).toHaveBeenLastCalledWith('b');
    fireEvent.keyDown(tree, { key: 'ArrowUp' });
    fireEvent.keyDown(tree, { key: ' ' });
    expect(onSelect).toHaveBeenLastCalledWith('a');
  });

  it('renders only the visible rows of 10,000 categories', () => {
    const many: CategoryRow[] = [];
    for (let i = 0; i < 10_000; i++) many.push({ ScCode: `c${i}`, ScFatherCode: i < 100 ? '0' : `c${i % 100}`, ScName: `分类${i}`, ScSort: i });
    const started = performance.now();
    render(<Harness onSelect={() => undefined} data={many} />);
    const took = performance.now() - started;
    console.info(`CategoryTree: build + first render of 10,000 categories in ${took.toFixed(0)} ms (jsdom)`);
    const rendered = screen.getAllByRole('treeitem').length;
    // 480px of 32px rows plus the overscan: a few dozen rows, not 10,001.
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(60);
  });
});
