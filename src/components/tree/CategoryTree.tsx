// The category tree of the article screens (SPEC.md 2.7, 2.8).
//
// Why react-arborist: DESIGN.md's ra-tree-mui does not exist on npm, and the free MUI X Tree View
// renders every node (no virtualisation), which stalls with thousands of categories. react-arborist
// renders only the visible rows (react-window) and brings the WAI-ARIA tree keyboard model
// (arrows, Home/End, PageUp/PageDown, type-ahead); we add Enter to select.
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import FolderOpenOutlinedIcon from '@mui/icons-material/FolderOpenOutlined';
import FolderOutlinedIcon from '@mui/icons-material/FolderOutlined';
import { Alert, Box, Paper, Typography } from '@mui/material';
import { Tree, type NodeApi, type NodeRendererProps, type TreeApi } from 'react-arborist';
import { ListLoading } from '../ListStates';
import type { CategoryNode } from './buildTree';

export const ROW_HEIGHT = 32;

/** Size of an element, followed with a ResizeObserver (react-arborist needs numbers). */
function useElementSize<T extends HTMLElement>(fallback: { width: number; height: number }) {
  const [element, setElement] = useState<T | null>(null);
  const [size, setSize] = useState(fallback);
  useEffect(() => {
    if (!element) return undefined;
    const measure = () => {
      const rect = element.getBoundingClientRect();
      // jsdom measures 0: keep the fallback there.
      if (rect.width > 0 && rect.height > 0) {
        setSize((old) =>
          old.width === Math.floor(rect.width) && old.height === Math.floor(rect.height)
            ? old
            : { width: Math.floor(rect.width), height: Math.floor(rect.height) },
        );
      }
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return [setElement, size] as const;
}

function Node({ node, style }: NodeRendererProps<CategoryNode>) {
  const Folder = node.isOpen ? FolderOpenOutlinedIcon : FolderOutlinedIcon;
  return (
    <Box
      style={style}
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 0.5,
        height: '100%',
        pr: 1,
        cursor: 'pointer',
        whiteSpace: 'nowrap',
        borderRadius: 1,
        bgcolor: node.isSelected ? 'action.selected' : undefined,
        // primary.dark keeps 4.5:1 contrast on the selection background.
        color: node.isSelected ? 'primary.dark' : undefined,
        fontWeight: node.isSelected ? 600 : undefined,
        '&:hover': { bgcolor: node.isSelected ? 'action.selected' : 'action.hover' },
      }}
    >
      {node.isInternal ? (
        // The chevron toggles on click; keyboard users open and close with the arrows (tree model).
        <Box
          component={node.isOpen ? ExpandMoreIcon : ChevronRightIcon}
          aria-hidden
          fontSize="small"
          onClick={(event: React.MouseEvent) => {
            event.stopPropagation();
            node.toggle();
          }}
          sx={{ color: 'text.secondary', flexShrink: 0 }}
        />
      ) : (
        <Box sx={{ width: 20, flexShrink: 0 }} />
      )}
      <Folder fontSize="small" sx={{ color: node.isInternal ? 'warning.main' : 'text.secondary', flexShrink: 0 }} />
      <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
        {node.data.name}
      </Box>
    </Box>
  );
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
  const treeRef = useRef<TreeApi<CategoryNode> | null>(null);
  const [measureRef, size] = useElementSize<HTMLDivElement>({ width: 260, height: 480 });
  // react-arborist rebuilds its whole node tree whenever any prop changes identity (10,000 nodes:
  // tens of ms each time), so every prop handed to it is kept stable.
  const data = useMemo(() => (root ? [root] : []), [root]);
  const onSelectRef = useRef(onSelect);
  useEffect(() => {
    onSelectRef.current = onSelect;
  }, [onSelect]);
  const onActivate = useCallback((node: NodeApi<CategoryNode>) => onSelectRef.current(node.id), []);
  // The selection is applied imperatively rather than through the `selection` prop, for the same reason.
  useEffect(() => {
    const api = treeRef.current;
    if (!api) return;
    if (selected !== null && api.get(selected)) {
      if (!api.isSelected(selected)) api.select(selected, { focus: false });
    } else {
      api.deselectAll();
    }
  }, [selected, data]);

  const onKeyDown = useCallback(
    (event: KeyboardEvent) => {
      // react-arborist keeps Enter for renaming (disabled here): make it select, as Space does on leaves.
      if (event.key !== 'Enter') return;
      const node = treeRef.current?.focusedNode;
      if (!node) return;
      event.preventDefault();
      node.select();
      onSelect(node.id);
    },
    [onSelect],
  );

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
      <Box ref={measureRef} onKeyDown={onKeyDown} sx={{ flex: 1, minHeight: 0, px: 0.5, py: 0.5, '& [role="treeitem"]:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineStyle: 'solid', outlineOffset: -2 }, '& [role="tree"]:focus-visible': { outline: 'none' } }}>
        {error ? (
          <Alert severity="error" sx={{ m: 1 }}>
            分类加载失败
          </Alert>
        ) : isPending || !root ? (
          <ListLoading />
        ) : (
          <Tree<CategoryNode>
            ref={treeRef}
            data={data}
            width={size.width}
            height={size.height}
            rowHeight={ROW_HEIGHT}
            indent={16}
            overscanCount={8}
            openByDefault
            disableDrag
            disableDrop
            disableEdit
            disableMultiSelection
            onActivate={onActivate}
            aria-labelledby={titleId}
          >
            {Node}
          </Tree>
        )}
      </Box>
    </Paper>
  );
}
