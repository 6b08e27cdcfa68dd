// The sections of 首页 (src/layout/Dashboard.tsx), in a chunk of their own: each shows the figures
// of a module the member may view (schemas/dashboard.ts dashboardSections, the rule the server
// refuses the others' calls by), in a box as tall before its figures arrive as after.
import { Suspense, useState, type ReactNode } from 'react';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Box,
  Card,
  CardContent,
  CircularProgress,
  Link as MuiLink,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { Link } from 'react-router-dom';
import { AUDIT_ACTION_LABELS, type AuditAction } from '../../../schemas/auditLog';
import {
  DASHBOARD_CALLS,
  DASHBOARD_LIST_SIZE,
  DASHBOARD_PERIODS,
  type DashboardSections,
  type DashboardChange,
  type DashboardComment,
  type DashboardCount,
  type DashboardDaily,
  type DashboardPeriod,
  type DashboardStorage,
  type DashboardTopVideos,
  type DashboardVideo,
} from '../../../schemas/dashboard';
import { lazyPart } from '../../components/lazyPart';
import type { LegacyDataProvider } from '../../dataProvider/index';
import { formatDate } from '../../i18n/dayjs';
import { detailsPath } from '../../components/video/detailsPath';

/** The chart library comes with home only, in a chunk of its own. */
const DailyChart = lazyPart('DailyChart', () => import('./DailyChart').then((m) => m.DailyChart));

// Every part has its height before its figures arrive, so nothing moves when they do (the server's
// page shows the same boxes, loading).
const ROW = 36;
const LIST_HEIGHT = ROW * DASHBOARD_LIST_SIZE;
const CHART_HEIGHT = 300;
const COUNT_CARD_HEIGHT = 176;

/** One call of the start page; `enabled` only for a section the member may see. */
function useDashboardCall<T>(call: keyof typeof DASHBOARD_CALLS, params: Record<string, unknown> = {}, enabled = true) {
  const dataProvider = useDataProvider<LegacyDataProvider>();
  return useQuery({
    queryKey: ['dashboard', call, params],
    queryFn: async () => (await dataProvider.call<T>('Ajax', DASHBOARD_CALLS[call], params)).data,
    enabled,
  });
}

type Query<T> = { data: T | undefined; isPending: boolean; isError: boolean; error: unknown };

/** Loading, failed or empty in Chinese, in the room kept for the content; else the content. */
function Loaded<T>({ query, empty, isEmpty, height, children }: { query: Query<T>; empty: string; isEmpty: (data: T) => boolean; height: number; children: (data: T) => ReactNode }) {
  const centred = { height, display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 1.5, color: 'text.secondary' } as const;
  if (query.isError) {
    const message = query.error instanceof Error ? query.error.message : '';
    return (
      <Box role="alert" sx={centred}>
        <Typography>加载失败{message ? `：${message}` : ''}</Typography>
      </Box>
    );
  }
  if (query.isPending || query.data === undefined) {
    return (
      <Box role="status" sx={centred}>
        <CircularProgress size={20} aria-hidden />
        <Typography>加载中…</Typography>
      </Box>
    );
  }
  if (isEmpty(query.data)) {
    return (
      <Box sx={centred}>
        <Typography>{empty}</Typography>
      </Box>
    );
  }
  return <Box sx={{ height, overflow: 'hidden' }}>{children(query.data)}</Box>;
}

/** A titled panel; `id` names its heading, which labels the section. */
function Section({ id, title, action, children, wide }: { id: string; title: string; action?: ReactNode; children: ReactNode; wide?: boolean }) {
  return (
    <Paper component="section" variant="outlined" aria-labelledby={id} sx={{ p: 2, gridColumn: wide ? '1 / -1' : undefined, minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, height: 40, mb: 1 }}>
        <Typography id={id} variant="h6" component="h2" noWrap>
          {title}
        </Typography>
        {action}
      </Box>
      {children}
    </Paper>
  );
}

/** A list of up to ten rows, each one line. */
function Rows({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box component="ul" aria-label={label} sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {children}
    </Box>
  );
}

function Row({ main, side }: { main: ReactNode; side?: ReactNode }) {
  return (
    <Box component="li" sx={{ height: ROW, display: 'flex', alignItems: 'center', gap: 2, borderBottom: 1, borderColor: 'divider' }}>
      <Box sx={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{main}</Box>
      {side !== undefined && (
        <Typography component="span" variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
          {side}
        </Typography>
      )}
    </Box>
  );
}

const VideoLink = ({ video }: { video: DashboardVideo }) => (
  <MuiLink component={Link} to={detailsPath(video)} underline="hover">
    {video.VdName}
  </MuiLink>
);

const number = (n: number) => n.toLocaleString('zh-CN');

/** Bytes as people read them: 1.5 GB. */
function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

function CountCards({ types }: { types: number }) {
  const query = useDashboardCall<DashboardCount[]>('counts');
  return (
    <Box component="section" aria-label="内容数量" sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', mb: 2 }}>
      {Array.from({ length: types }, (_, i) => {
        const count = query.data?.[i];
        return (
          <Card key={i} variant="outlined" sx={{ height: COUNT_CARD_HEIGHT }}>
            <CardContent sx={{ height: '100%', display: 'flex', flexDirection: 'column', gap: 0.5, boxSizing: 'border-box' }}>
              {count ? (
                <>
                  <MuiLink component={Link} to={count.Link} underline="hover" variant="subtitle1">
                    {count.Label}
                  </MuiLink>
                  <Typography variant="h4" component="p">
                    {number(count.Total)}
                  </Typography>
                  {/* Focusable: it scrolls when the groups are many, and must then scroll from the keyboard too. */}
                  <Box component="ul" tabIndex={0} aria-label={`${count.Label}按分类`} sx={{ listStyle: 'none', m: 0, p: 0, overflow: 'auto', flex: 1 }}>
                    {count.Groups.map((g) => (
                      <Box component="li" key={g.Value} sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, typography: 'body2' }}>
                        {g.Link ? (
                          <MuiLink component={Link} to={g.Link} underline="hover" noWrap>
                            {g.Label}
                          </MuiLink>
                        ) : (
                          <Typography variant="body2" noWrap>
                            {g.Label}
                          </Typography>
                        )}
                        <span>{number(g.Count)}</span>
                      </Box>
                    ))}
                  </Box>
                </>
              ) : (
                <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'text.secondary', height: '100%' }}>
                  {query.isError ? (
                    <Typography>加载失败</Typography>
                  ) : (
                    <>
                      <CircularProgress size={20} aria-hidden />
                      <Typography>加载中…</Typography>
                    </>
                  )}
                </Box>
              )}
            </CardContent>
          </Card>
        );
      })}
    </Box>
  );
}

function PeriodToggle({ period, onChange }: { period: DashboardPeriod; onChange: (p: DashboardPeriod) => void }) {
  return (
    <ToggleButtonGroup size="small" exclusive value={period} aria-label="统计周期" onChange={(_, value: DashboardPeriod | null) => value && onChange(value)}>
      {DASHBOARD_PERIODS.map((p) => (
        <ToggleButton key={p} value={p}>
          近{p}天
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}

function PlaysSection({ period, onPeriod }: { period: DashboardPeriod; onPeriod: (p: DashboardPeriod) => void }) {
  const query = useDashboardCall<DashboardDaily>('daily', { Days: period });
  const title = `播放量与点赞数（近${period}天）`;
  return (
    <Section id="home-plays" title={title} action={<PeriodToggle period={period} onChange={onPeriod} />} wide>
      <Loaded query={query} empty="暂无数据" isEmpty={() => false} height={CHART_HEIGHT}>
        {(daily) => {
          const plays = daily.Days.reduce((n, d) => n + d.VdNum, 0);
          const likes = daily.Days.reduce((n, d) => n + d.VdFabulous, 0);
          const summary = `${daily.From} 至 ${daily.To}：共播放 ${number(plays)} 次，点赞 ${number(likes)} 次`;
          return (
            <Box component="figure" aria-label={title} sx={{ m: 0, height: CHART_HEIGHT, display: 'flex', flexDirection: 'column' }}>
              <Typography component="figcaption" variant="body2" color="text.secondary" sx={{ height: 20 }}>
                {summary}
              </Typography>
              <Box sx={{ flex: 1, minHeight: 0 }}>
                <Suspense fallback={null}>
                  <DailyChart days={daily.Days} height={CHART_HEIGHT - 20} />
                </Suspense>
              </Box>
            </Box>
          );
        }}
      </Loaded>
      <DailyTable query={query} />
    </Section>
  );
}

/** The chart's figures as a table (its text alternative), folded away until asked for. */
function DailyTable({ query }: { query: Query<DashboardDaily> }) {
  return (
    <Accordion disableGutters elevation={0} sx={{ mt: 1, '&:before': { display: 'none' } }} slotProps={{ transition: { unmountOnExit: true } }}>
      <AccordionSummary expandIcon={<ExpandMoreIcon />} sx={{ px: 0, minHeight: 40 }}>
        <Typography variant="body2">以表格查看每日数据</Typography>
      </AccordionSummary>
      <AccordionDetails sx={{ px: 0, maxHeight: 320, overflow: 'auto' }}>
        {query.data && (
          <Table size="small" aria-label="每日播放量与点赞数">
            <TableHead>
              <TableRow>
                <TableCell>日期</TableCell>
                <TableCell align="right">播放量</TableCell>
                <TableCell align="right">点赞数</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {[...query.data.Days].reverse().map((d) => (
                <TableRow key={d.Day}>
                  <TableCell>{d.Day}</TableCell>
                  <TableCell align="right">{number(d.VdNum)}</TableCell>
                  <TableCell align="right">{number(d.VdFabulous)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </AccordionDetails>
    </Accordion>
  );
}

function TopVideos({ period }: { period: DashboardPeriod }) {
  const query = useDashboardCall<DashboardTopVideos>('topVideos', { Days: period });
  const title = `播放最多的视频（近${period}天）`;
  return (
    <Section id="home-top" title={title}>
      <Loaded query={query} empty={`近${period}天没有播放记录`} isEmpty={(d) => d.Rows.length === 0} height={LIST_HEIGHT}>
        {(top) => (
          <Rows label={title}>
            {top.Rows.map((v, i) => (
              <Row key={v.VdCode} main={<>{i + 1}. <VideoLink video={v} /></>} side={`播放 ${number(v.VdNum ?? 0)} 次`} />
            ))}
          </Rows>
        )}
      </Loaded>
    </Section>
  );
}

function UnwatchedVideos({ period }: { period: DashboardPeriod }) {
  const query = useDashboardCall<DashboardVideo[]>('unwatchedVideos', { Days: period });
  const top = useDashboardCall<DashboardTopVideos>('topVideos', { Days: period });
  const unwatched = top.data ? top.data.Total - top.data.Watched : undefined;
  const title = `无人观看的视频（近${period}天）`;
  return (
    <Section
      id="home-unwatched"
      title={title}
      action={
        <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap', minWidth: '6em', textAlign: 'right' }}>
          {unwatched === undefined ? '' : `共 ${number(unwatched)} 个`}
        </Typography>
      }
    >
      <Loaded query={query} empty={`近${period}天每个视频都有人观看`} isEmpty={(d) => d.length === 0} height={LIST_HEIGHT}>
        {(videos) => (
          <Rows label={title}>
            {videos.map((v) => (
              <Row key={v.VdCode} main={<VideoLink video={v} />} side={v.VdTime ? `发布于 ${formatDate(v.VdTime)}` : undefined} />
            ))}
          </Rows>
        )}
      </Loaded>
    </Section>
  );
}

function LatestComments() {
  const query = useDashboardCall<DashboardComment[]>('comments');
  return (
    <Section id="home-comments" title="最新评论">
      <Loaded query={query} empty="暂无评论" isEmpty={(d) => d.length === 0} height={LIST_HEIGHT}>
        {(comments) => (
          <Rows label="最新评论">
            {comments.map((c) => (
              <Row
                key={c.Id}
                main={
                  <>
                    <VideoLink video={c.Video} />
                    <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 1 }}>
                      {`${c.AuName}：${c.Text}`}
                    </Typography>
                  </>
                }
                side={formatDate(c.VmTime, 'MM-DD HH:mm')}
              />
            ))}
          </Rows>
        )}
      </Loaded>
    </Section>
  );
}

function LatestChanges() {
  const query = useDashboardCall<DashboardChange[]>('auditLog');
  return (
    <Section id="home-changes" title="最近操作">
      <Loaded query={query} empty="暂无操作记录" isEmpty={(d) => d.length === 0} height={LIST_HEIGHT}>
        {(changes) => (
          <Rows label="最近操作">
            {changes.map((c) => (
              <Row
                key={c.Id}
                main={`${c.AuName} ${AUDIT_ACTION_LABELS[c.Action as AuditAction] ?? c.Action}${c.ResourceLabel}「${c.RecordName}」`}
                side={formatDate(c.At, 'MM-DD HH:mm')}
              />
            ))}
          </Rows>
        )}
      </Loaded>
    </Section>
  );
}

function StorageByKind() {
  const query = useDashboardCall<DashboardStorage[]>('storage');
  return (
    <Section id="home-storage" title="存储占用">
      <Loaded query={query} empty="暂无文件" isEmpty={(d) => d.length === 0} height={ROW * 4}>
        {(kinds) => (
          <Rows label="存储占用">
            {kinds.map((k) => (
              <Row
                key={k.Kind}
                main={k.Label}
                side={`${number(k.Files)} 个文件，${formatBytes(k.Bytes)}${k.Unsized > 0 ? `（其中 ${number(k.Unsized)} 个大小未知）` : ''}`}
              />
            ))}
          </Rows>
        )}
      </Loaded>
    </Section>
  );
}

/** The sections this member may see (`sections`), counts first. */
export function DashboardPanels({ sections, types }: { sections: DashboardSections; types: number }) {
  const [period, setPeriod] = useState<DashboardPeriod>(DASHBOARD_PERIODS[0]);
  return (
    <>
      {sections.counts && <CountCards types={types} />}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' } }}>
        {sections.plays && (
          <>
            <PlaysSection period={period} onPeriod={setPeriod} />
            <TopVideos period={period} />
            <UnwatchedVideos period={period} />
          </>
        )}
        {sections.comments && <LatestComments />}
        {sections.auditLog && <LatestChanges />}
        {sections.storage && <StorageByKind />}
      </Box>
    </>
  );
}
