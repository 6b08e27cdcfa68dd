import { lazy, Suspense, useState } from 'react';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import CommentIcon from '@mui/icons-material/Comment';
import DownloadIcon from '@mui/icons-material/Download';
import ThumbUpIcon from '@mui/icons-material/ThumbUp';
import VisibilityOutlinedIcon from '@mui/icons-material/VisibilityOutlined';
import {
  Alert,
  Box,
  Button,
  IconButton,
  LinearProgress,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Paper,
  Tooltip,
  Typography,
} from '@mui/material';
import { useDataProvider, useNotify } from 'react-admin';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { parseFileList } from '../../../schemas/fileList';
import { posterUrlOf } from '../../../schemas/poster';
import { useAccess } from '../../access/useMember';
import { ListEmpty, ListLoading } from '../../components/ListStates';
import { HandoutDialog } from '../../components/video/HandoutDialog';
import { PLAYER_BOX_ASPECT_RATIO } from '../../components/video/playerSize';
import type { LegacyDataProvider } from '../../dataProvider/index';
import { formatDate } from '../../i18n/dayjs';
import { pathOf } from '../../navigation';
import { CommentDialog } from './CommentDialog';
import { CommentList } from './CommentList';
import { useInBrowser } from '../../util/useInBrowser';
import { useVideoDetails } from './useVideoDetails';
import { detailsPath } from './VideoCard';

// video.js stays out of every bundle but this screen's.
const VideoPlayer = lazy(() => import('../../components/video/VideoPlayer'));

/** The query's Id: a positive integer, or NaN. */
function toId(value: string | null): number {
  return value !== null && /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
}

/**
 * 视频详情 at /Knowledge/VideoView/Details?Id=&VdtCode=: a title bar with 返回; the
 * same category's videos on the left (30); the player, 评论, 讲义下载, likes, play count and the
 * comments in the main area.
 */
export default function VideoDetails() {
  const [search] = useSearchParams();
  const id = toId(search.get('Id'));
  const vdtCode = search.get('VdtCode') ?? '';
  const navigate = useNavigate();
  const location = useLocation();
  const notify = useNotify();
  const dataProvider = useDataProvider<LegacyDataProvider>();
  const canComment = useAccess('videoComment')('create');
  const details = useVideoDetails(id, vdtCode);
  // video.js needs a document: the player comes once the browser has taken the page over.
  const inBrowser = useInBrowser();
  const { comments, commentTotal, list, loading, listLoading, error, listError } = details;
  // The main area shows only the video the address names: while another one loads, or when
  // opening it failed (its play count, SPEC 7), nothing of the previous video stays on screen.
  const video = !error && details.video && Number(details.video.Id) === id ? details.video : undefined;

  const [commentOpen, setCommentOpen] = useState(false);
  const [handoutsOpen, setHandoutsOpen] = useState(false);
  const [liking, setLiking] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);

  const files = parseFileList(video?.VdEnclosure);

  // One step back (the list it came from, with its tab); a deep link has none: go to the list.
  const back = () => {
    if (location.key !== 'default') navigate(-1);
    else navigate(`${pathOf('videoView/VideoViewList')}${vdtCode ? `?VdtCode=${encodeURIComponent(vdtCode)}` : ''}`, { replace: true });
  };

  const like = async () => {
    setLiking(true);
    try {
      await details.like();
    } catch (e) {
      notify(e instanceof Error && e.message ? e.message : '点赞失败', { type: 'error' });
    } finally {
      setLiking(false);
    }
  };

  const addComment = async (html: string) => {
    if (!video?.VdCode) return;
    await dataProvider.call('Ajax', 'AddVideoMessage', { VdCode: video.VdCode, VmName: video.VdName.slice(0, 100), VmDes: html });
    await details.reloadComments().catch(() => undefined);
  };

  const reloadComments = () => {
    details.reloadComments().catch((e: unknown) => notify(e instanceof Error ? e.message : '评论加载失败', { type: 'error' }));
  };

  const loadMoreComments = async () => {
    setLoadingMore(true);
    try {
      await details.loadMoreComments();
    } catch (e) {
      notify(e instanceof Error && e.message ? e.message : '评论加载失败', { type: 'error' });
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <Box sx={{ pb: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 1 }}>
        <Tooltip title="返回">
          <IconButton aria-label="返回" onClick={back}>
            <ArrowBackIcon />
          </IconButton>
        </Tooltip>
        <Typography variant="h6" component="h1" noWrap sx={{ flex: 1 }}>
          {video?.VdName ?? '视频详情'}
        </Typography>
      </Box>

      <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexDirection: { xs: 'column', md: 'row' } }}>
        <Paper variant="outlined" component="nav" aria-label="同类视频" sx={{ width: { xs: '100%', md: 300 }, flex: 'none', maxHeight: { md: 'calc(100vh - 160px)' }, overflow: 'auto' }}>
          <Typography variant="subtitle2" sx={{ px: 2, pt: 1.5, pb: 0.5 }} color="text.secondary">
            同类视频
          </Typography>
          {listLoading ? (
            <ListLoading />
          ) : listError ? (
            <Alert severity="error" sx={{ m: 1 }}>
              {listError}
            </Alert>
          ) : list.length === 0 ? (
            <ListEmpty />
          ) : (
            <List dense disablePadding>
              {list.map((item) => (
                <ListItem key={item.id} disablePadding>
                  <ListItemButton
                    selected={Number(item.Id) === id}
                    aria-current={Number(item.Id) === id ? 'page' : undefined}
                    onClick={() => navigate(detailsPath(item), { replace: true })}
                  >
                    <ListItemText
                      primary={item.VdName}
                      secondary={`${item.VdPer || '—'} · 点击量 ${item.VdNum ?? 0}`}
                      slotProps={{ primary: { noWrap: true, title: item.VdName } }}
                    />
                  </ListItemButton>
                </ListItem>
              ))}
            </List>
          )}
        </Paper>

        <Box component="section" aria-label="视频" sx={{ flex: 1, minWidth: 0, width: '100%' }} aria-busy={loading}>
          {loading && <LinearProgress aria-label="视频加载中" sx={{ mb: 1 }} />}
          {error && (
            <Alert
              severity="error"
              sx={{ mb: 2 }}
              action={
                Number.isInteger(id) && id > 0 ? (
                  <Button color="inherit" size="small" onClick={details.retry}>
                    重试
                  </Button>
                ) : undefined
              }
            >
              {error}
            </Alert>
          )}
          {!video && loading && <ListLoading />}
          {video && (
            <>
              {/* The player's size, reserved: the page arrives (from the server) without it, and
                  video.js sizes its player (fluid, PLAYER_OPTIONS.aspectRatio) to this box. */}
              <Box data-testid="player-box" sx={{ maxWidth: 960, aspectRatio: PLAYER_BOX_ASPECT_RATIO }}>
                {inBrowser && (
                  <Suspense fallback={null}>
                    <VideoPlayer src={video.VdUrl} poster={posterUrlOf(video.VdUrl)} title={video.VdName} />
                  </Suspense>
                )}
              </Box>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, my: 2 }}>
                {canComment && (
                  <Button variant="contained" startIcon={<CommentIcon />} onClick={() => setCommentOpen(true)}>
                    评论
                  </Button>
                )}
                {files.length > 0 && (
                  <Button variant="outlined" startIcon={<DownloadIcon />} onClick={() => setHandoutsOpen(true)}>
                    讲义下载
                  </Button>
                )}
                <Button variant="outlined" startIcon={<ThumbUpIcon />} onClick={like} disabled={liking}>
                  点赞 {video.VdFabulous ?? 0}
                </Button>
                <Typography variant="body2" color="text.secondary">
                  主讲人：{video.VdPer || '—'} · {formatDate(video.VdTime)}
                </Typography>
                {/* Last: the play this page counts changes its width once the page is shown. */}
                <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, color: 'text.secondary' }}>
                  <VisibilityOutlinedIcon fontSize="small" aria-hidden />
                  <Typography variant="body2" data-testid="play-count">
                    点击量 {video.VdNum ?? 0}
                  </Typography>
                </Box>
              </Box>

              <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
                评论（{commentTotal}）
              </Typography>
              {loading ? <ListLoading /> : <CommentList comments={comments} total={commentTotal} onDeleted={reloadComments} />}
              {!loading && comments.length < commentTotal && (
                <Box sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', gap: 1.5, mt: 1 }}>
                  <Button variant="outlined" onClick={() => void loadMoreComments()} disabled={loadingMore}>
                    加载更多
                  </Button>
                  <Typography variant="body2" color="text.secondary">
                    已显示 {comments.length} / {commentTotal} 条
                  </Typography>
                </Box>
              )}

              <CommentDialog open={commentOpen} onClose={() => setCommentOpen(false)} onSubmit={addComment} />
              <HandoutDialog files={files} open={handoutsOpen} onClose={() => setHandoutsOpen(false)} />
            </>
          )}
        </Box>
      </Box>
    </Box>
  );
}
