import type { ReactNode } from 'react';
import { Alert, Box, Tab, Tabs } from '@mui/material';
import { useGetList, type RaRecord } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import type { VideoType } from '../../../schemas/types';
import type { ListQuery } from '../../dataProvider/listParams';
import { ListEmpty, ListLoading } from '../ListStates';
import { SCROLLING_TABS } from '../scrollingTabs';

export type VideoTypeRecord = VideoType & RaRecord;

/** Every video category, VDT_SORT ASC: the tabs of 视频学习编辑 and 在线视频. */
export const VIDEO_TYPES_QUERY = {
  filter: { All: 1 },
  sort: { field: 'VdtSort', order: 'ASC' },
  pagination: { page: 1, perPage: 1000 },
} as const satisfies ListQuery;

/** Every video category, VDT_SORT ASC (GetVideoTypeListInAdmin with All=1). */
export function useVideoTypes() {
  return useGetList<VideoTypeRecord>('videoType', VIDEO_TYPES_QUERY);
}

/**
 * The category tab in the query (`?VdtCode=`), so that coming back from a video's details shows
 * the same tab; the first category when the query names none (or one that no longer exists).
 */
export function useSelectedCategory(types: readonly VideoTypeRecord[] | undefined): [string | undefined, (code: string) => void] {
  const [search, setSearch] = useSearchParams();
  const wanted = search.get('VdtCode');
  const selected = types?.find((t) => t.VdtCode === wanted)?.VdtCode ?? types?.[0]?.VdtCode;
  const select = (code: string) =>
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.set('VdtCode', code);
        return next;
      },
      { replace: true },
    );
  return [selected, select];
}

/**
 * One tab per video category, the first active by default, and the
 * content of the selected one (rendered with its code).
 */
export function CategoryTabs({ children }: { children: (vdtCode: string) => ReactNode }) {
  const { data: types, isPending, error } = useVideoTypes();
  const [selected, select] = useSelectedCategory(types);

  if (isPending) return <ListLoading />;
  if (error) return <Alert severity="error">{error instanceof Error ? error.message : '视频分类加载失败'}</Alert>;
  if (!types?.length || !selected) return <ListEmpty text="暂无视频分类，请先在视频分类中添加" />;

  return (
    <Box>
      <Tabs
        value={selected}
        onChange={(_event, value: string) => select(value)}
        {...SCROLLING_TABS}
        aria-label="视频分类"
        sx={{ ...SCROLLING_TABS.sx, borderBottom: 1, borderColor: 'divider', mb: 1 }}
      >
        {types.map((t) => (
          <Tab key={t.VdtCode} label={t.VdtName} value={t.VdtCode} />
        ))}
      </Tabs>
      {children(selected)}
    </Box>
  );
}
