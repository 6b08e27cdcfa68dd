import { useState } from 'react';
import AddIcon from '@mui/icons-material/Add';
import { Box } from '@mui/material';
import { Button, ListBase, TopToolbar, useListContext } from 'react-admin';
import { videoResource } from '../../../schemas/video';
import { useAccess } from '../../access/useMember';
import { ListEmpty, ListLoading } from '../../components/ListStates';
import { CategoryTabs } from '../../components/video/CategoryTabs';
import { ZhPagination } from '../../components/ZhPagination';
import { PreloadVideoDialog, VideoDialog } from '../video/VideoDialog';
import { VideoCard, type VideoRecord } from './VideoCard';

function Grid({ onEdit }: { onEdit: (video: VideoRecord) => void }) {
  const { data, isPending, error } = useListContext<VideoRecord>();
  const can = useAccess(videoResource.resource);
  if (isPending) return <ListLoading />;
  if (error) return <ListEmpty text={error instanceof Error ? error.message : '加载失败'} />;
  if (!data?.length) return <ListEmpty />;
  return (
    <Box
      component="ul"
      aria-label="视频列表"
      sx={{
        listStyle: 'none',
        m: 0,
        p: 1,
        display: 'grid',
        gap: 2,
        gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))',
      }}
    >
      {data.map((video) => (
        <Box component="li" key={video.id}>
          <VideoCard video={video} onEdit={can('edit', video) ? () => onEdit(video) : undefined} />
        </Box>
      ))}
    </Box>
  );
}

/**
 * A category's cards and pager, with 添加 (code 1 on 视频学习编辑) and 编辑 on the cards the member
 * may edit (code 3, their own videos; administrators: all): the rules and dialog of 视频学习编辑.
 */
function CategoryVideos({ vdtCode }: { vdtCode: string }) {
  const [editing, setEditing] = useState<VideoRecord | 'new' | null>(null);
  const can = useAccess(videoResource.resource);
  const canCreate = can('create');
  return (
    <ListBase
      resource={videoResource.resource}
      filter={{ VdtCode: vdtCode }}
      perPage={videoResource.pageSize}
      disableSyncWithLocation
      storeKey={false}
      disableAuthentication // the member is checked once, by the screen's guard (see SchemaList)
    >
      {(canCreate || can('edit')) && <PreloadVideoDialog />}
      {canCreate && (
        <TopToolbar>
          <Button label="添加" variant="contained" onClick={() => setEditing('new')}>
            <AddIcon />
          </Button>
        </TopToolbar>
      )}
      <Grid onEdit={setEditing} />
      <ZhPagination />
      {editing && <VideoDialog vdtCode={vdtCode} record={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />}
    </ListBase>
  );
}

/** 在线视频: tabs by category, a grid of video cards with the legacy pager. */
export default function VideoViewList() {
  return (
    <Box sx={{ pb: 2 }}>
      <CategoryTabs>{(vdtCode) => <CategoryVideos key={vdtCode} vdtCode={vdtCode} />}</CategoryTabs>
    </Box>
  );
}
