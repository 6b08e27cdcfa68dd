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

  it('closes and opens with the arrows, walks to the parent, jumps with Home/End and type-ahead', async () => {
    const onSelect = vi.fn();
    render(<Harness onSelect={onSelect} />);
    const tree = screen.getByRole('tree');
    await act(async () => {
      tree.focus();
    });
    const names = () => screen.getAllByRole('treeitem').map((i) => i.textContent);
    const focusedName = () => (document.activeElement as HTMLElement).textContent;
    // Focus entered on 全部; End goes to the last visible row, 混凝土结构.
    expect(focusedName()).toBe('全部');
    fireEvent.keyDown(tree, { key: 'End' });
    expect(focusedName()).toBe('混凝土结构');
    // Left on a leaf walks to its parent; Left again closes the parent.
    fireEvent.keyDown(tree, { key: 'ArrowLeft' });
    expect(focusedName()).toBe('结构专业');
    fireEvent.keyDown(tree, { key: 'ArrowLeft' });
    expect(names()).toEqual(['全部', '建筑专业', '结构专业']);
    expect(screen.getByRole('treeitem', { name: '结构专业' }).getAttribute('aria-expanded')).toBe('false');
    // Right opens it again, then steps into its first child.
    fireEvent.keyDown(tree, { key: 'ArrowRight' });
    expect(names()).toEqual(['全部', '建筑专业', '结构专业', '混凝土结构']);
    fireEvent.keyDown(tree, { key: 'ArrowRight' });
    expect(focusedName()).toBe('混凝土结构');
    fireEvent.keyDown(tree, { key: 'Home' });
    expect(focusedName()).toBe('全部');
    // Type-ahead: 建 finds 建筑专业.
    fireEvent.keyDown(tree, { key: '建' });
    expect(focusedName()).toBe('建筑专业');
    expect(onSelect).not.toHaveBeenCalled();
  });

  it('is one tab stop: the pane leaves the tab order while a row holds the focus', async () => {
    render(<Harness onSelect={() => undefined} />);
    const tree = screen.getByRole('tree');
    await act(async () => {
      tree.focus();
    });
    expect(document.activeElement?.getAttribute('role')).toBe('treeitem');
    expect(tree.getAttribute('tabindex')).toBe('-1');
    expect(screen.getAllByRole('treeitem').every((i) => i.getAttribute('tabindex') === '-1')).toBe(true);
  });

  it('toggles a node with its chevron without selecting it', () => {
    const onSelect = vi.fn();
    render(<Harness onSelect={onSelect} />);
    const chevron = screen.getByRole('treeitem', { name: '结构专业' }).querySelector('svg');
    fireEvent.click(chevron!);
    expect(screen.queryByRole('treeitem', { name: '混凝土结构' })).toBeNull();
    fireEvent.click(screen.getByRole('treeitem', { name: '结构专业' }).querySelector('svg')!);
    expect(screen.getByRole('treeitem', { name: '混凝土结构' })).toBeTruthy();
    expect(onSelect).not.toHaveBeenCalled();
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
