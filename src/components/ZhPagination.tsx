import { useEffect, useState, type ReactNode } from 'react';
import { Box, Pagination, Typography } from '@mui/material';
import { useGetList, useListContext, useListPaginationContext } from 'react-admin';
import { whenIdle } from './lazyPart';

/**
 * Asks for the next page once the current one has settled and the browser is idle, with the very
 * parameters the list controller will ask for (useListController: pagination, sort, the user's
 * filters merged with the permanent filter), through react-admin's own useGetList: 下一页 then
 * finds its rows in the cache and renders them in its first pass. A cached page is still
 * refreshed when shown (react-admin's queries are stale at once), so a write in between is never hidden.
 */
function usePrefetchNextPage() {
  const { resource, page, perPage, total, sort, filter, filterValues, isPending, isFetching } = useListContext();
  const hasNext = total !== undefined && page * perPage < total;
  const settled = !isPending && !isFetching;
  const params = { pagination: { page: page + 1, perPage }, sort, filter: { ...filterValues, ...filter } };
  const key = JSON.stringify([resource, params]);
  const [idleFor, setIdleFor] = useState<string>();
  useEffect(() => {
    if (!settled || !hasNext) return;
    // Not in the task that shows the page.
    return whenIdle(() => setIdleFor(key), 500);
  }, [settled, hasNext, key]);
  useGetList(resource, params, { enabled: hasNext && idleFor === key, refetchOnWindowFocus: false });
}

/** "第 n 页" / 上一页 / 下一页 for screen readers and tooltips. */
export function pageAriaLabel(type: string, page: number | null, selected: boolean): string {
  if (type === 'previous') return '上一页';
  if (type === 'next') return '下一页';
  if (type === 'first') return '第一页';
  if (type === 'last') return '最后一页';
  return selected ? `第 ${page} 页，当前页` : `第 ${page} 页`;
}

/**
 * The pager's bar: 共 n 条, then `children`, then the page numbers. For a list outside react-admin's
 * list context too (全文索引's failures).
 */
export function PagerBar({ total, page, pages, onChange, children }: { total: number; page: number; pages: number; onChange: (page: number) => void; children?: ReactNode }) {
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
        count={pages}
        page={Math.min(page, pages)}
        onChange={(_event, value) => onChange(value)}
        shape="rounded"
        color="primary"
        size="small"
        getItemAriaLabel={pageAriaLabel}
      />
    </Box>
  );
}

/**
 * The legacy pager: total, previous, page numbers, next. MUI's Pagination in react-admin's
 * pagination slot, so the list controller keeps the page across refreshes. `children` go between
 * the total and the page numbers (the viewer's page-size selector).
 */
export function ZhPagination({ children }: { children?: ReactNode }) {
  const { page, perPage, total, setPage, isPending } = useListPaginationContext();
  usePrefetchNextPage();
  if (isPending || total === undefined) return null;
  return (
    <PagerBar total={total} page={page} pages={Math.max(1, Math.ceil(total / perPage))} onChange={setPage}>
      {children}
    </PagerBar>
  );
}
