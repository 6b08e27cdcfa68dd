import { useEffect, type ReactNode } from 'react';
import { Box, Pagination, Typography } from '@mui/material';
import { useDataProvider, useListContext, useListPaginationContext } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import { getListQuery } from '../dataProvider/listQuery';
import { whenIdle } from './lazyPart';

/**
 * Fetches the next page into react-admin's query cache once the current one has settled, under
 * the very key its list controller asks for (useListController: pagination, sort, the user's
 * filters merged with the permanent filter, meta). 下一页 then renders the new rows in its first
 * pass instead of a pass with the old rows, a request and a second pass. The cached page is
 * still refreshed in the background when shown (react-admin's queries are stale at once), so a
 * write in between is never hidden.
 */
function usePrefetchNextPage() {
  const { resource, page, perPage, total, sort, filter, filterValues, isPending, isFetching } = useListContext();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider();
  const hasNext = total !== undefined && page * perPage < total;
  const settled = !isPending && !isFetching;
  useEffect(() => {
    if (!settled || !hasNext) return;
    const query = getListQuery(dataProvider, resource, { pagination: { page: page + 1, perPage }, sort, filter: { ...filterValues, ...filter }, meta: undefined });
    // Once the browser is idle: not in the task that shows (or takes over) the page.
    return whenIdle(() => void queryClient.prefetchQuery(query), 500);
    // The objects from the list context change identity on every render; their content is what counts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled, hasNext, resource, page, perPage, JSON.stringify(sort), JSON.stringify(filter), JSON.stringify(filterValues)]);
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
 * The legacy pager: total, previous, page numbers, next. MUI's Pagination in react-admin's
 * pagination slot, so the list controller keeps the page across refreshes. `children` go between
 * the total and the page numbers (the viewer's page-size selector).
 */
export function ZhPagination({ children }: { children?: ReactNode }) {
  const { page, perPage, total, setPage, isPending } = useListPaginationContext();
  usePrefetchNextPage();
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
