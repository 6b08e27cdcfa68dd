import { useState } from 'react';
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type ScreenReaderInstructions,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import { Alert, Box, Button, Card, List, ListItem, ListItemIcon, ListItemText, Stack } from '@mui/material';
import { useDataProvider, useGetList, useNotify, type RaRecord } from 'react-admin';
import type { Useweb } from '../../../schemas/types';
import { usewebResource } from '../../../schemas/useweb';
import { ListEmpty, ListLoading } from '../../components/ListStates';
import { SUCCESS_MESSAGE } from '../../components/messages';
import type { LegacyDataProvider } from '../../dataProvider/index';

type Site = RaRecord & Useweb;

export const SORT_HINT = '拖动行进行排序，排序完成后点右上角保存';

/** UpdateUsewebSort's modelList: the shown order, numbered from 1. */
export function toModelList(sites: readonly Pick<Site, 'Id'>[]): { Id: number; UwSort: number }[] {
  return sites.map((site, index) => ({ Id: Number(site.Id), UwSort: index + 1 }));
}

const nameOf = (sites: Site[], id: unknown) => sites.find((s) => s.id === id)?.UwName ?? '';

// dnd-kit speaks English by default; these are read to screen-reader users.
const instructions: ScreenReaderInstructions = {
  draggable: '按空格键或回车键拿起该行，用上下方向键移动，再按空格键或回车键放下，按 Esc 取消。',
};

function SortRow({ site }: { site: Site }) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: site.id });
  return (
    // The <li> stays a list item; the drag handle (role=button, keyboard) is the element inside it.
    <ListItem
      ref={setNodeRef}
      divider
      disablePadding
      sx={{
        transform: CSS.Transform.toString(transform),
        transition,
        bgcolor: isDragging ? 'action.selected' : 'background.paper',
        position: 'relative',
        zIndex: isDragging ? 1 : 0,
      }}
    >
      <Box
        {...attributes}
        {...listeners}
        aria-roledescription="可排序的行"
        sx={{
          display: 'flex',
          alignItems: 'center',
          width: '100%',
          px: 2,
          py: 1,
          cursor: 'grab',
          '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 },
        }}
      >
        <ListItemIcon sx={{ minWidth: 36 }}>
          <DragIndicatorIcon />
        </ListItemIcon>
        <ListItemText primary={site.UwName} secondary={site.UwUrl} />
      </Box>
    </ListItem>
  );
}

function SortableSites({ initial, onLeave }: { initial: Site[]; onLeave: (saved: boolean) => void }) {
  const dataProvider = useDataProvider<LegacyDataProvider>();
  const notify = useNotify();
  const [sites, setSites] = useState(initial);
  const [saving, setSaving] = useState(false);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const announcements: Announcements = {
    onDragStart: ({ active }) => `已拿起 ${nameOf(sites, active.id)}`,
    onDragOver: ({ active, over }) =>
      over ? `${nameOf(sites, active.id)} 移到第 ${sites.findIndex((s) => s.id === over.id) + 1} 行` : undefined,
    onDragEnd: ({ active, over }) =>
      over ? `${nameOf(sites, active.id)} 放在第 ${sites.findIndex((s) => s.id === over.id) + 1} 行` : `已放下 ${nameOf(sites, active.id)}`,
    onDragCancel: ({ active }) => `已取消移动 ${nameOf(sites, active.id)}`,
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    setSites((current) => {
      const from = current.findIndex((s) => s.id === active.id);
      const to = current.findIndex((s) => s.id === over.id);
      return arrayMove(current, from, to);
    });
  };

  const save = async () => {
    setSaving(true);
    try {
      // Sent as JSON text, as the legacy client did.
      await dataProvider.call('Ajax', 'UpdateUsewebSort', { modelList: JSON.stringify(toModelList(sites)) });
      notify(SUCCESS_MESSAGE, { type: 'success' });
      onLeave(true);
    } catch (error) {
      notify(error instanceof Error ? error.message : '保存失败', { type: 'error' });
      setSaving(false);
    }
  };

  return (
    <>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', py: 1 }}>
        <Button variant="contained" onClick={save} disabled={saving || sites.length === 0}>
          保存
        </Button>
        <Button variant="outlined" onClick={() => onLeave(false)} disabled={saving}>
          取消
        </Button>
      </Stack>
      <Alert severity="info" sx={{ mb: 1 }}>
        {SORT_HINT}
      </Alert>
      <Card>
        {sites.length === 0 ? (
          <ListEmpty />
        ) : (
          <DndContext
            sensors={sensors}
            collisionDetection={closestCenter}
            onDragEnd={onDragEnd}
            accessibility={{ announcements, screenReaderInstructions: instructions }}
          >
            <SortableContext items={sites.map((s) => s.id)} strategy={verticalListSortingStrategy}>
              <List disablePadding aria-label="常用网站排序">
                {sites.map((site) => (
                  <SortRow key={site.id} site={site} />
                ))}
              </List>
            </SortableContext>
          </DndContext>
        )}
      </Card>
    </>
  );
}

/**
 * Sort mode of 常用网站管理: a copy of every website, reordered by mouse or
 * keyboard; 保存 sends the order, 取消 leaves without sending (the table keeps its order).
 */
export function UsewebSort({ onLeave }: { onLeave: (saved: boolean) => void }) {
  const { data, isPending, error } = useGetList<Site>(usewebResource.resource, {
    filter: { All: 1 },
    pagination: { page: 1, perPage: usewebResource.pageSize },
    sort: { field: 'UwSort', order: 'ASC' },
  }, { refetchOnWindowFocus: false });
  return (
    <Box>
      {isPending ? (
        <ListLoading />
      ) : error ? (
        <Alert severity="error" action={<Button onClick={() => onLeave(false)}>返回</Button>}>
          {error.message}
        </Alert>
      ) : (
        <SortableSites initial={data ?? []} onLeave={onLeave} />
      )}
    </Box>
  );
}
