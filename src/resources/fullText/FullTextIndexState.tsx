// 全文索引 (administrators only): how many documents the full-text index holds, how many wait to be
// read and how many could not be read, with each failure (the article, the file, why, when) and
// 重新索引失败项, which puts the failed ones back in the queue.
import { useState } from 'react';
import RefreshIcon from '@mui/icons-material/Refresh';
import ReplayIcon from '@mui/icons-material/Replay';
import { Alert, Box, Button, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useNotify } from 'react-admin';
import { FULL_TEXT_CALLS, type FullTextFailure, type FullTextIndexState as IndexState } from '../../../schemas/fullText';
import { Prompt } from '../../components/Prompt';
import { PagerBar } from '../../components/ZhPagination';
import type { LegacyDataProvider } from '../../dataProvider/index';
import { formatDate } from '../../i18n/dayjs';

const PAGE_SIZE = 15;
const STATE_KEY = 'fullTextIndexState';
/** While documents wait, the counts are read again this often. */
const WAITING_REFRESH_MS = 5000;

const COUNTS = [
  { key: 'Indexed', label: '已索引', color: 'success.dark' },
  { key: 'Waiting', label: '等待中', color: 'primary.dark' },
  { key: 'Failed', label: '失败', color: 'error.dark' },
] as const;

function useIndexState(page: number) {
  const dataProvider = useDataProvider<LegacyDataProvider>();
  return useQuery({
    queryKey: [STATE_KEY, page],
    queryFn: async () => {
      const { data, total } = await dataProvider.call<IndexState>('Ajax', FULL_TEXT_CALLS.state, { PageIndex: page, PageSize: PAGE_SIZE });
      return { state: data, total: total ?? data.Failures.length };
    },
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.state.Waiting ? WAITING_REFRESH_MS : false),
  });
}

function Count({ label, value, color }: { label: string; value: number | undefined; color: string }) {
  return (
    <Paper variant="outlined" component="section" aria-label={label} sx={{ flex: 1, minWidth: 160, p: 2, height: 104 }}>
      <Typography color="text.secondary">{label}</Typography>
      <Typography component="p" variant="h4" sx={{ color, mt: 0.5 }}>
        {/* An <output> once known: the figure the screen computed (and what the bench waits for). */}
        {value === undefined ? '—' : <output>{value.toLocaleString('zh-CN')}</output>}
      </Typography>
    </Paper>
  );
}

function Failures({ rows }: { rows: FullTextFailure[] }) {
  return (
    <TableContainer>
      <Table size="small" aria-label="索引失败的文档">
        <TableHead>
          <TableRow>
            <TableCell>文章</TableCell>
            <TableCell>文件</TableCell>
            <TableCell>原因</TableCell>
            <TableCell sx={{ width: 160 }}>时间</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((f, i) => (
            <TableRow key={`${f.Table}|${f.Id}|${f.FileName}|${i}`}>
              <TableCell sx={{ wordBreak: 'break-all' }}>
                {f.SaName}
                <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 1 }}>
                  {f.Label}
                </Typography>
              </TableCell>
              <TableCell sx={{ wordBreak: 'break-all' }}>{f.FileName || '—'}</TableCell>
              <TableCell>{f.Reason}</TableCell>
              <TableCell>{formatDate(f.When, 'YYYY-MM-DD HH:mm')}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

export default function FullTextIndexState() {
  const [page, setPage] = useState(1);
  const [asking, setAsking] = useState(false);
  const { data, isPending, isError, error, refetch, isFetching } = useIndexState(page);
  const dataProvider = useDataProvider<LegacyDataProvider>();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const retry = useMutation({
    mutationFn: () => dataProvider.call('Ajax', FULL_TEXT_CALLS.retry, {}),
    onSuccess: ({ msg }) => {
      notify(msg || '已重新加入索引队列', { type: 'success' });
      setPage(1);
      void queryClient.invalidateQueries({ queryKey: [STATE_KEY] });
    },
    onError: (e) => notify(e instanceof Error ? e.message : '操作失败', { type: 'error' }),
    onSettled: () => setAsking(false),
  });

  const state = data?.state;
  const total = data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <Box sx={{ mt: 1, display: 'flex', flexDirection: 'column', gap: 2 }}>
      {isError && <Alert severity="error">全文索引状态加载失败：{error instanceof Error ? error.message : '请稍后重试'}</Alert>}
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        {COUNTS.map((c) => (
          <Count key={c.key} label={c.label} value={state?.[c.key]} color={c.color} />
        ))}
      </Box>
      <Paper variant="outlined">
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider' }}>
          <Typography component="h2" variant="h6" sx={{ flex: 1 }}>
            读取失败的文档
          </Typography>
          <Button variant="outlined" startIcon={<RefreshIcon />} onClick={() => void refetch()} disabled={isFetching}>
            刷新
          </Button>
          <Button variant="contained" startIcon={<ReplayIcon />} onClick={() => setAsking(true)} disabled={!state || state.Failed === 0}>
            重新索引失败项
          </Button>
        </Box>
        {isPending ? (
          <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
            加载中…
          </Typography>
        ) : !state || state.Failures.length === 0 ? (
          <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
            暂无读取失败的文档
          </Typography>
        ) : (
          <>
            <Failures rows={state.Failures} />
            <PagerBar total={total} page={page} pages={pages} onChange={setPage} />
          </>
        )}
      </Paper>
      <Prompt
        open={asking}
        loading={retry.isPending}
        question={`将重新读取全部 ${state?.Failed ?? 0} 个失败的文档，是否继续？`}
        onConfirm={() => retry.mutate()}
        onClose={() => setAsking(false)}
      />
    </Box>
  );
}
