import { Box } from '@mui/material';
import { ListBase, Title, useListContext } from 'react-admin';
import { videoResource } from '../../../schemas/video';
import { ListEmpty, ListLoading } from '../../components/ListStates';
import { CategoryTabs } from '../../components/video/CategoryTabs';
import { ZhPagination } from '../../components/ZhPagination';
import { VideoCard, type VideoRecord } from './VideoCard';

function Grid() {
  const { data, isPending, error } = useListContext<VideoRecord>();
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
          <VideoCard video={video} />
        </Box>
      ))}
    </Box>
  );
}

/** 在线视频: tabs by category, a grid of video cards with the legacy pager. */
export default function VideoViewList() {
  return (
    <Box sx={{ pb: 2 }}>
      <Title title="在线视频" />
      <CategoryTabs>
        {(vdtCode) => (
          <ListBase
            key={vdtCode}
            resource={videoResource.resource}
            filter={{ VdtCode: vdtCode }}
            perPage={videoResource.pageSize}
            disableSyncWithLocation
            storeKey={false}
            disableAuthentication // the session is checked once, by Admin (see SchemaList)
          >
            <Grid />
            <ZhPagination />
          </ListBase>
        )}
      </CategoryTabs>
    </Box>
  );
}
