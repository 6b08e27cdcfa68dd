import type { ReactNode } from 'react';
import { Box, Pagination, Typography } from '@mui/material';
import { useListPaginationContext } from 'react-admin';

/** "第 n 页" / 上一页 / 下一页 for screen readers and tooltips. */
export function pageAriaLabel(type: string, page: number | null, selected: boolean): string {
  if (type === 'previous') return '上一页';
  if (type === 'next') return '下一页';
  if (type === 'first') return '第一页';
  if (type === 'last') return '最后一页';
  return selected ? `第 ${page} 页，当前页` : `第 ${page} 页`;
}

/**
 * The legacy pager: total, previous, page numbers, next. MUI's Pagination in react-admin's
 * pagination slot, so the list controller keeps the page across refreshes. `children` go between
 * the total and the page numbers (the viewer's page-size selector).
 */
export function ZhPagination({ children }: { children?: ReactNode }) {
  const { page, perPage, total, setPage, isPending } = useListPaginationContext();
  if (isPending || total === undefined) return null;
  const count = Math.max(1, Math.ceil(total / perPage));
  return (
    <Box
      component="nav"
      aria-label="分页"
      sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', flexWrap: 'wrap', gap: 2, px: 2, py: 1 }}
    >
      <Typography variant="body2" color="text.secondary">
        共 {total} 条
      </Typography>
      {children}
      <Pagination
        count={count}
        page={Math.min(page, count)}
        onChange={(_event, value) => setPage(value)}
        shape="rounded"
        color="primary"
        size="small"
        getItemAriaLabel={pageAriaLabel}
      />
    </Box>
  );
}
