import { lazy, Suspense, useState } from 'react';
import CloseIcon from '@mui/icons-material/Close';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, LinearProgress } from '@mui/material';
import { Form, useNotify } from 'react-admin';
import { isEmptyRichText } from './detailsSequence';

const CommentEditor = lazy(() => import('./CommentEditor'));

export const PUBLISHED_MESSAGE = '发布成功!';
export const EMPTY_COMMENT_MESSAGE = '请输入评论内容';

function SubmitButton({ pending }: { pending: boolean }) {
  return (
    <Button type="submit" variant="contained" disabled={pending}>
      发布
    </Button>
  );
}

/**
 * 发表评论: opens empty; a rich-text editor whose placeholder asks to obey
 * internet laws; sent only when not empty; on success 发布成功!, the dialog closes and the list
 * reloads. Kept open while sending, so that a refused comment is not lost.
 */
export function CommentDialog({
  open,
  onClose,
  onSubmit,
}: {
  open: boolean;
  onClose: () => void;
  /** Sends the comment's HTML; rejects with the server's message. */
  onSubmit: (html: string) => Promise<void>;
}) {
  const notify = useNotify();
  const [pending, setPending] = useState(false);

  const submit = async (values: Record<string, unknown>) => {
    const html = typeof values.VmDes === 'string' ? values.VmDes : '';
    if (isEmptyRichText(html)) {
      notify(EMPTY_COMMENT_MESSAGE, { type: 'warning' });
      return;
    }
    setPending(true);
    try {
      await onSubmit(html);
      notify(PUBLISHED_MESSAGE, { type: 'success' });
      onClose();
    } catch (error) {
      notify(error instanceof Error && error.message ? error.message : '发布失败', { type: 'error' });
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={(_event, reason) => {
        if (reason === 'backdropClick' || reason === 'escapeKeyDown') return;
        onClose();
      }}
      disableEscapeKeyDown
      maxWidth={false}
      aria-labelledby="comment-dialog-title"
      slotProps={{ paper: { sx: { width: 600, maxWidth: 'calc(100% - 32px)' } } }}
    >
      <DialogTitle id="comment-dialog-title" sx={{ pr: 6 }}>
        发表评论
        <IconButton aria-label="关闭" onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      {/* A new Form each time the dialog opens: it starts empty. */}
      {open && (
        <Form record={{ VmDes: '' }} onSubmit={submit}>
          <DialogContent dividers>
            <Suspense fallback={<LinearProgress aria-label="编辑器加载中" />}>
              <CommentEditor source="VmDes" />
            </Suspense>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>取消</Button>
            <SubmitButton pending={pending} />
          </DialogActions>
        </Form>
      )}
    </Dialog>
  );
}
