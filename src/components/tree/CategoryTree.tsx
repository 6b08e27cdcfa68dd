// The category tree of the article screens.
//
// Why our own tree on @tanstack/react-virtual rather than react-arborist (used before): with
// 10,000 categories react-arborist built its whole node model (one class instance with bound
// handlers per category) three times on mount and again on every open or close: 500 ms before
// the first row on the 2-core reference machine, against a 100 ms budget. Here the categories
// are already a tree (buildTree.ts); showing it is one walk over the open nodes into a flat
// array of visible rows, and @tanstack/react-virtual (a small, well-kept virtualiser) renders
// only the rows in view. The WAI-ARIA tree pattern (roles, levels, arrows, Home/End,
// PageUp/PageDown, type-ahead) is the keyboard handler below.
import { memo, useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import FolderOpenOutlinedIcon from '@mui/icons-material/FolderOpenOutlined';
import FolderOutlinedIcon from '@mui/icons-material/FolderOutlined';
import { Alert, Box, Paper, Typography } from '@mui/material';
import { observeElementRect, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { ListLoading } from '../ListStates';
import type { CategoryNode } from './buildTree';
import { visibleRows, type VisibleRow } from './visibleRows';

export const ROW_HEIGHT = 32;
const INDENT = 16;
const OVERSCAN = 8;
/** Where no layout exists (jsdom measures 0): the pane's usual size. */
const FALLBACK_RECT = { width: 260, height: 600 };
/** Type-ahead: letters typed within this many ms make one prefix. */
const TYPEAHEAD_MS = 600;

/** The virtualiser's own size observer, keeping the fallback while the pane measures 0. */
function observePane(instance: Virtualizer<HTMLDivElement, Element>, callback: (rect: { width: number; height: number }) => void) {
  return observeElementRect(instance, (rect) => callback(rect.height > 0 ? rect : FALLBACK_RECT));
}

export interface CategoryTreeProps {
  /** Heading above the tree (文章分类). */
  title: string;
  /** The root node (全部) with its categories; undefined while loading. */
  root: CategoryNode | undefined;
  /** Code of the selected node. */
  selected: string | null;
  onSelect: (code: string) => void;
  isPending?: boolean;
  error?: unknown;
}

/**
 * A virtualised, keyboard-usable category tree, all nodes open. Click, Enter or Space on a node
 * selects it; the selection is controlled by `selected`.
 */
export function CategoryTree({ title, root, selected, onSelect, isPending = false, error }: CategoryTreeProps) {
  const titleId = useId();
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={titleId}
      sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, height: '100%', overflow: 'hidden' }}
    >
      <Typography
        id={titleId}
        component="h2"
        variant="subtitle1"
        sx={{ px: 2, py: 1, fontWeight: 600, borderBottom: 1, borderColor: 'divider' }}
      >
        {title}
      </Typography>
      {error ? (
        <Alert severity="error" sx={{ m: 1 }}>
          分类加载失败
        </Alert>
      ) : isPending || !root ? (
        <ListLoading />
      ) : (
        <TreeRows root={root} selected={selected} onSelect={onSelect} labelledBy={titleId} />
      )}
    </Paper>
  );
}

// Row styles live once on the pane, as classes: a style object per row would be serialised by
// emotion for every row on every render.
const paneSx = {
  flex: 1,
  minHeight: 0,
  overflow: 'auto',
  px: 0.5,
  py: 0.5,
  '&:focus-visible': { outline: 'none' },
  '& .tree-row': {
    position: 'absolute',
    left: 0,
    right: 0,
    height: ROW_HEIGHT,
    display: 'flex',
    alignItems: 'center',
    gap: 0.5,
    pr: 1,
    cursor: 'pointer',
    whiteSpace: 'nowrap',
    borderRadius: 1,
    boxSizing: 'border-box',
    '&:hover': { bgcolor: 'action.hover' },
    '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineStyle: 'solid', outlineOffset: -2 },
  },
  // primary.dark keeps 4.5:1 contrast on the selection background.
  '& .tree-row[aria-selected="true"]': { bgcolor: 'action.selected', color: 'primary.dark', fontWeight: 600 },
  '& .tree-toggle': { color: 'text.secondary', flexShrink: 0 },
  '& .tree-spacer': { width: 20, flexShrink: 0 },
  '& .tree-folder': { color: 'text.secondary', flexShrink: 0 },
  '& .tree-folder.inner': { color: 'warning.main' },
  '& .tree-name': { overflow: 'hidden', textOverflow: 'ellipsis' },
} as const;

/**
 * Where a code's row is among the visible rows. A scan, run on a new selection, focus or key: a
 * map of every row would be built on each open and close, on the way to the first paint.
 */
function rowIndex(rows: readonly VisibleRow[], code: string | null): number | undefined {
  if (code === null) return undefined;
  const index = rows.findIndex((row) => row.node.id === code);
  return index < 0 ? undefined : index;
}

interface TreeRowsProps {
  root: CategoryNode;
  selected: string | null;
  onSelect: (code: string) => void;
  labelledBy: string;
}

function TreeRows({ root, selected, onSelect, labelledBy }: TreeRowsProps) {
  const idPrefix = useId();
  const paneRef = useRef<HTMLDivElement | null>(null);
  // Every node starts open: what the user closed is remembered, not what is open.
  const [closed, setClosed] = useState<ReadonlySet<string>>(() => new Set());
  const rows = useMemo(() => visibleRows(root, closed), [root, closed]);
  const [focused, setFocused] = useState<string | null>(null);
  // While a row holds the focus, the pane leaves the tab order: the tree is one tab stop.
  const [rowHasFocus, setRowHasFocus] = useState(false);
  const typed = useRef({ text: '', at: 0 });

  // eslint-disable-next-line react-hooks/incompatible-library -- nothing here is memoised by the compiler's rules; the virtualiser re-renders this component itself
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => paneRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    initialRect: FALLBACK_RECT,
    observeElementRect: observePane,
    getItemKey: (index) => rows[index]!.node.id,
  });

  // The selected node in view when the tree (or the selection from the address) arrives.
  const selectedIndex = useMemo(() => rowIndex(rows, selected), [rows, selected]);
  useEffect(() => {
    if (selectedIndex !== undefined) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
    // Only on a new selection or a new tree: scrolling is the user's afterwards.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedIndex, root]);

  const toggle = useCallback((id: string, open?: boolean) => {
    setClosed((old) => {
      const isOpen = !old.has(id);
      if (open === isOpen) return old;
      const next = new Set(old);
      if (isOpen) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);

  // Stable, so that the memoised rows re-render only when their own props change.
  const onSelectRef = useRef(onSelect);
  useEffect(() => {
    onSelectRef.current = onSelect;
  }, [onSelect]);
  const activate = useCallback((code: string) => {
    setFocused(code);
    onSelectRef.current(code);
  }, []);

  /** Moves the keyboard focus to a visible row, scrolling it into view first. */
  const focusRow = useCallback(
    (index: number) => {
      const clamped = Math.max(0, Math.min(rows.length - 1, index));
      const row = rows[clamped];
      if (!row) return;
      setFocused(row.node.id);
      virtualizer.scrollToIndex(clamped, { align: 'auto' });
    },
    [rows, virtualizer],
  );

  // Once the focused row is rendered (it may have just scrolled in), the DOM focus follows it,
  // as long as the focus is in the tree at all.
  useEffect(() => {
    const pane = paneRef.current;
    if (!pane || focused === null || !pane.contains(document.activeElement)) return;
    const element = [...pane.querySelectorAll<HTMLElement>('[role="treeitem"]')].find((e) => e.dataset.code === focused);
    if (element && element !== document.activeElement) element.focus({ preventScroll: true });
  });

  const focusedIndex = useMemo(() => rowIndex(rows, focused), [rows, focused]);
  const current = focusedIndex ?? selectedIndex ?? 0;

  const onKeyDown = (event: KeyboardEvent) => {
    const row = rows[current];
    if (!row) return;
    const pageRows = Math.max(1, Math.floor((paneRef.current?.clientHeight || FALLBACK_RECT.height) / ROW_HEIGHT) - 1);
    const handled = () => {
      event.preventDefault();
      event.stopPropagation();
    };
    switch (event.key) {
      case 'ArrowDown':
        handled();
        return focusRow(current + 1);
      case 'ArrowUp':
        handled();
        return focusRow(current - 1);
      case 'Home':
        handled();
        return focusRow(0);
      case 'End':
        handled();
        return focusRow(rows.length - 1);
      case 'PageDown':
        handled();
        return focusRow(current + pageRows);
      case 'PageUp':
        handled();
        return focusRow(current - pageRows);
      case 'ArrowRight':
        handled();
        if (!row.node.children) return undefined;
        if (closed.has(row.node.id)) return toggle(row.node.id, true);
        return focusRow(current + 1);
      case 'ArrowLeft':
        handled();
        if (row.node.children && !closed.has(row.node.id)) return toggle(row.node.id, false);
        return row.parent === null ? undefined : focusRow(rowIndex(rows, row.parent) ?? 0);
      case 'Enter':
      case ' ':
        handled();
        return activate(row.node.id);
      default:
        break;
    }
    // Type-ahead: the next row whose name starts with what was typed.
    if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      const now = Date.now();
      const text = (now - typed.current.at < TYPEAHEAD_MS ? typed.current.text : '') + event.key.toLowerCase();
      typed.current = { text, at: now };
      for (let step = text.length === 1 ? 1 : 0; step <= rows.length; step++) {
        const index = (current + step) % rows.length;
        if (rows[index]!.node.name.toLowerCase().startsWith(text)) {
          handled();
          return focusRow(index);
        }
      }
    }
    return undefined;
  };

  return (
    <Box
      ref={paneRef}
      role="tree"
      aria-labelledby={labelledBy}
      // The tree is one tab stop: entering it focuses the current row (then the rows hold it).
      tabIndex={rowHasFocus ? -1 : 0}
      onKeyDown={onKeyDown}
      onFocus={(event) => {
        if (event.target === event.currentTarget) return focusRow(current);
        setRowHasFocus(true);
        const code = (event.target as HTMLElement).dataset.code;
        if (code !== undefined && code !== focused) setFocused(code);
        return undefined;
      }}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setRowHasFocus(false);
      }}
      sx={paneSx}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          return (
            <TreeRow
              key={item.key}
              id={`${idPrefix}-${item.index}`}
              row={row}
              top={item.start}
              isOpen={!closed.has(row.node.id)}
              isSelected={row.node.id === selected}
              onToggle={toggle}
              onActivate={activate}
            />
          );
        })}
      </div>
    </Box>
  );
}

interface TreeRowProps {
  id: string;
  row: VisibleRow;
  top: number;
  isOpen: boolean;
  isSelected: boolean;
  onToggle: (id: string) => void;
  onActivate: (id: string) => void;
}

/** Memoised: the virtualiser's second pass (after measuring the pane) adds rows, it does not redo them. */
const TreeRow = memo(function TreeRow({ id, row, top, isOpen, isSelected, onToggle, onActivate }: TreeRowProps) {
  const { node, level, position, setSize } = row;
  const inner = node.children !== undefined;
  const Folder = inner && isOpen ? FolderOpenOutlinedIcon : FolderOutlinedIcon;
  const Toggle = isOpen ? ExpandMoreIcon : ChevronRightIcon;
  return (
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events -- the tree's onKeyDown handles every row's keys (WAI-ARIA tree pattern)
    <div
      id={id}
      className="tree-row"
      role="treeitem"
      data-code={node.id}
      aria-level={level + 1}
      aria-setsize={setSize}
      aria-posinset={position}
      aria-expanded={inner ? isOpen : undefined}
      aria-selected={isSelected}
      // Focusable from script and by click; Tab reaches the tree through the pane.
      tabIndex={-1}
      style={{ top, paddingLeft: level * INDENT }}
      onClick={() => onActivate(node.id)}
    >
      {inner ? (
        // The chevron toggles on click; keyboard users open and close with the arrows (tree model).
        <Toggle
          className="tree-toggle"
          aria-hidden
          fontSize="small"
          onClick={(event: MouseEvent) => {
            event.stopPropagation();
            onToggle(node.id);
          }}
        />
      ) : (
        <span className="tree-spacer" />
      )}
      <Folder className={inner ? 'tree-folder inner' : 'tree-folder'} fontSize="small" aria-hidden />
      <span className="tree-name">{node.name}</span>
    </div>
  );
});
