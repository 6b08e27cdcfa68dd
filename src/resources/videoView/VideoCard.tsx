import { useState, type ReactNode } from 'react';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import EditIcon from '@mui/icons-material/Edit';
import PlayCircleOutlineIcon from '@mui/icons-material/PlayCircleOutline';
import ThumbUpOutlinedIcon from '@mui/icons-material/ThumbUpOutlined';
import VisibilityOutlinedIcon from '@mui/icons-material/VisibilityOutlined';
import { Box, Button, Card, CardActionArea, CardActions, CardContent, Typography } from '@mui/material';
import type { RaRecord } from 'react-admin';
import { Link } from 'react-router-dom';
import { parseFileList } from '../../../schemas/fileList';
import type { Video } from '../../../schemas/types';
import { HandoutDialog } from '../../components/video/HandoutDialog';
import { PlaybackDialog } from '../../components/video/PlaybackDialog';
import { VideoCover } from '../../components/video/VideoCover';
import { formatDate } from '../../i18n/dayjs';
import { detailsPath } from '../../components/video/detailsPath';

export type VideoRecord = Video & RaRecord;

export { detailsPath };

/** A figure of the footer (点赞, 点击量): icon and text kept on one line. */
function Figure({ label, value, icon }: { label: string; value: number | undefined; icon: ReactNode }) {
  return (
    <Box component="span" title={label} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, whiteSpace: 'nowrap' }}>
      {icon}
      <Typography variant="body2" component="span">
        {label} {value ?? 0}
      </Typography>
    </Box>
  );
}

/**
 * A card of 在线视频: cover, name, speaker, likes, update time, 点击量, and a 讲义
 * link when the video has handouts; the card opens the video's details, 播放 plays it in a dialog,
 * 编辑 (given `onEdit`) opens the 详情 dialog.
 */
export function VideoCard({ video, onEdit }: { video: VideoRecord; onEdit?: (() => void) | undefined }) {
  const files = parseFileList(video.VdEnclosure);
  const [handoutsOpen, setHandoutsOpen] = useState(false);
  const [playing, setPlaying] = useState(false);
  // The dialogs mount once first opened (and stay, so that they close with their animation): a
  // page of cards, each with two closed dialogs, rendered a few hundred components more on 下一页.
  const [handoutsUsed, setHandoutsUsed] = useState(false);
  const [playerUsed, setPlayerUsed] = useState(false);
  return (
    <Card variant="outlined" sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
      <CardActionArea component={Link} to={detailsPath(video)} sx={{ flex: 1, display: 'flex', flexDirection: 'column', alignItems: 'stretch', justifyContent: 'flex-start' }}>
        <VideoCover videoUrl={video.VdUrl} alt={`${video.VdName} 封面`} />
        <CardContent sx={{ p: 1.5 }}>
          <Typography variant="subtitle1" component="h3" noWrap title={video.VdName} sx={{ fontWeight: 600 }}>
            {video.VdName}
          </Typography>
          <Typography variant="body2" color="text.secondary" noWrap>
            主讲人：{video.VdPer || '—'}
          </Typography>
          <Typography variant="caption" color="text.secondary" component="p">
            更新时间：{formatDate(video.UpdateTime)}
          </Typography>
        </CardContent>
      </CardActionArea>
      {/* The buttons move under the figures when the card is too narrow for one row. */}
      <CardActions disableSpacing sx={{ px: 1.5, pt: 0, justifyContent: 'space-between', flexWrap: 'wrap', columnGap: 1, rowGap: 0.5 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1.5, color: 'text.secondary', alignItems: 'center' }}>
          <Figure label="点赞" value={video.VdFabulous} icon={<ThumbUpOutlinedIcon fontSize="small" aria-hidden />} />
          <Figure label="点击量" value={video.VdNum} icon={<VisibilityOutlinedIcon fontSize="small" aria-hidden />} />
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', ml: 'auto', whiteSpace: 'nowrap' }}>
          <Button
            size="small"
            startIcon={<PlayCircleOutlineIcon />}
            onClick={() => {
              setPlayerUsed(true);
              setPlaying(true);
            }}
            aria-label={`播放 ${video.VdName}`}
          >
            播放
          </Button>
          {files.length > 0 && (
            <Button
              size="small"
              startIcon={<AttachFileIcon />}
              onClick={() => {
                setHandoutsUsed(true);
                setHandoutsOpen(true);
              }}
            >
              讲义
            </Button>
          )}
          {onEdit && (
            <Button size="small" startIcon={<EditIcon />} onClick={onEdit} aria-label={`编辑 ${video.VdName}`}>
              编辑
            </Button>
          )}
        </Box>
      </CardActions>
      {playerUsed && <PlaybackDialog open={playing} onClose={() => setPlaying(false)} src={video.VdUrl} title={video.VdName} />}
      {handoutsUsed && files.length > 0 && <HandoutDialog files={files} open={handoutsOpen} onClose={() => setHandoutsOpen(false)} />}
    </Card>
  );
}
