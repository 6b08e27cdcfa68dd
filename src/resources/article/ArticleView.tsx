// 查看 of an article: the 文件下载 dialog, the 840px 预览 dialog, and the hook
// choosing between them and a direct download.
import { useCallback, useId, useState, type ReactNode } from 'react';
import CloseIcon from '@mui/icons-material/Close';
import { Alert, Box, Dialog, DialogContent, DialogTitle, Divider, IconButton, Typography } from '@mui/material';
import { useGetOne, useNotify, type RaRecord } from 'react-admin';
import type { FileEntry } from '../../../schemas/types';
import { ListLoading } from '../../components/ListStates';
import { FileDownloadList } from '../../components/FileDownloadList';
import { LazyRichTextView as RichTextView } from '../../components/LazyRichTextView';
import { downloadFile, viewActionOf } from './articleRules';

export const PREVIEW_WIDTH = 840;

function ViewDialog({ title, width, onClose, children }: { title: string; width?: number; onClose: () => void; children: ReactNode }) {
  const titleId = useId();
  return (
    <Dialog
      open
      onClose={onClose}
      maxWidth={false}
      aria-labelledby={titleId}
      slotProps={{ paper: { sx: { width: width ?? 520, maxWidth: 'calc(100% - 32px)' } } }}
    >
      <DialogTitle id={titleId} sx={{ pr: 6 }}>
        {title}
        <IconButton aria-label="关闭" onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      {children}
    </Dialog>
  );
}

/** 文件下载: each file with a 下载 button. */
export function FileDownloadDialog({ files, onClose }: { files: FileEntry[]; onClose: () => void }) {
  const notify = useNotify();
  return (
    <ViewDialog title="文件下载" onClose={onClose}>
      <DialogContent dividers>
        <FileDownloadList
          files={files}
          onDownload={(file) => {
            if (!downloadFile(file)) notify('文件地址无效', { type: 'error' });
          }}
        />
      </DialogContent>
    </ViewDialog>
  );
}

function Section({ title, html }: { title: string; html: unknown }) {
  return (
    <Box component="section" sx={{ mb: 2 }}>
      <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      <RichTextView html={typeof html === 'string' ? html : ''} />
    </Box>
  );
}

/**
 * 预览 (840px): the article as GetStandardArticleInfoInAdmin returns it, its rich text sanitised
 * (scripts, styles and handlers never reach the page). Unified answers show 问题 and 统一回答.
 */
export function PreviewDialog({ resource, record, onClose }: { resource: string; record: RaRecord; onClose: () => void }) {
  const { data, isPending, error } = useGetOne(resource, { id: record.id, meta: { code: record.SaCode } });
  const article = (data ?? record) as RaRecord & Record<string, unknown>;
  const isTykj = resource === 'tykjArticle';
  return (
    <ViewDialog title="预览" width={PREVIEW_WIDTH} onClose={onClose}>
      <DialogContent dividers sx={{ minHeight: 240 }}>
        {error ? (
          <Alert severity="error">{error instanceof Error ? error.message : '加载失败'}</Alert>
        ) : isPending ? (
          <ListLoading />
        ) : (
          <>
            <Typography component="h2" variant="h6" sx={{ textAlign: 'center', mb: 1 }}>
              {String(article.SaName ?? '')}
            </Typography>
            <Divider sx={{ mb: 2 }} />
            {isTykj ? (
              <>
                <Section title="问题" html={article.SaProblem} />
                <Section title="统一回答" html={article.SaAnswer} />
              </>
            ) : (
              <RichTextView html={typeof article.SaPdfContent === 'string' ? article.SaPdfContent : ''} />
            )}
          </>
        )}
      </DialogContent>
    </ViewDialog>
  );
}

type Open = { kind: 'files'; files: FileEntry[] } | { kind: 'preview'; record: RaRecord } | null;

/** `view(row)` does what 查看 does for the row, `preview(row)` opens its 预览; render `dialogs` once on the screen. */
export function useArticleView(resource: string) {
  const notify = useNotify();
  const [open, setOpen] = useState<Open>(null);

  const view = useCallback(
    (record: RaRecord) => {
      // A unified answer is always previewed (问题 / 统一回答).
      const action = resource === 'tykjArticle' ? ({ kind: 'preview' } as const) : viewActionOf(record as Record<string, unknown>);
      switch (action.kind) {
        case 'download':
          if (!downloadFile(action.file)) notify('文件地址无效', { type: 'error' });
          break;
        case 'files':
          setOpen({ kind: 'files', files: action.files });
          break;
        case 'preview':
          setOpen({ kind: 'preview', record });
          break;
        default:
          notify('该文章暂无文件', { type: 'info' });
      }
    },
    [notify, resource],
  );

  /** 预览 of an article, whatever its kind (a full-text hit in its body). */
  const preview = useCallback((record: RaRecord) => setOpen({ kind: 'preview', record }), []);

  const close = useCallback(() => setOpen(null), []);
  const dialogs =
    open?.kind === 'files' ? (
      <FileDownloadDialog files={open.files} onClose={close} />
    ) : open?.kind === 'preview' ? (
      <PreviewDialog resource={resource} record={open.record} onClose={close} />
    ) : null;
  return { view, preview, dialogs };
}
