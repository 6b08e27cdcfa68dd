import { useState } from 'react';
import DeleteIcon from '@mui/icons-material/Delete';
import { Box, Button, Chip, Divider, List, ListItem, Typography } from '@mui/material';
import { useDataProvider, useNotify } from 'react-admin';
import { useAccess } from '../../access/useMember';
import { DeleteConfirm } from '../../components/DeleteWithConfirm';
import { ListEmpty } from '../../components/ListStates';
import { RichTextView } from '../../components/RichTextView';
import type { LegacyDataProvider } from '../../dataProvider/index';
import { formatDate } from '../../i18n/dayjs';
import { authorOf, withFloors, type CommentRecord } from './detailsSequence';

/** 删除 after 提示 / 此操作将永久删除该记录, 是否继续? (DelVideoMessage, success 操作成功!). */
function CommentDelete({ comment, onDeleted }: { comment: CommentRecord; onDeleted: () => void }) {
  const dataProvider = useDataProvider<LegacyDataProvider>();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);

  const confirm = async () => {
    setPending(true);
    try {
      const { msg } = await dataProvider.call('Ajax', 'DelVideoMessage', { Id: comment.Id });
      notify(msg || '操作成功!', { type: 'success' });
      onDeleted();
    } catch (error) {
      notify(error instanceof Error && error.message ? error.message : '删除失败', { type: 'error' });
    } finally {
      setPending(false);
      setOpen(false);
    }
  };

  return (
    <>
      <Button size="small" color="error" startIcon={<DeleteIcon />} onClick={() => setOpen(true)}>
        删除
      </Button>
      <DeleteConfirm open={open} loading={pending} onConfirm={() => void confirm()} onClose={() => setOpen(false)} />
    </>
  );
}

/**
 * Comments newest first with their floor (the newest highest: `total`, the video's comments of
 * which these are the first), organisation, author (管理员 when empty), sanitised rich text and
 * time; 删除 for the author or an administrator (canAccess).
 */
export function CommentList({ comments, total, onDeleted }: { comments: readonly CommentRecord[]; total?: number; onDeleted: () => void }) {
  const can = useAccess('videoComment');
  if (comments.length === 0) return <ListEmpty text="暂无评论" />;
  return (
    <List disablePadding aria-label="评论列表">
      {withFloors(comments, total).map((comment, index) => (
        <Box component="li" key={comment.id} sx={{ listStyle: 'none' }}>
          {index > 0 && <Divider component="div" />}
          <ListItem component="div" disableGutters sx={{ display: 'block', py: 1.5 }} data-testid="comment">
            <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
              <Chip size="small" color="primary" variant="outlined" label={`${comment.floor}楼`} />
              {comment.OrganizationName && (
                <Typography variant="body2" color="text.secondary">
                  {comment.OrganizationName}
                </Typography>
              )}
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {authorOf(comment)}
              </Typography>
              <Typography variant="caption" color="text.secondary" component="time">
                {formatDate(comment.VmTime, 'YYYY-MM-DD HH:mm')}
              </Typography>
              <Box sx={{ flex: 1 }} />
              {can('delete', comment) && <CommentDelete comment={comment} onDeleted={onDeleted} />}
            </Box>
            <RichTextView html={comment.VmDes} sx={{ mt: 1, '& p': { my: 0.5 } }} />
          </ListItem>
        </Box>
      ))}
    </List>
  );
}
