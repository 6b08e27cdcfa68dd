// 导出: the rows of a list's current filters, search and order as an .xlsx file, through the list
// call's export (docs/api.md, Export). The file downloads through fetch, so that its progress shows
// (the bytes received, the rows the server counted) and 取消 stops it; the server stops reading
// rows once the request is gone. Shown to members who may view the list (code 2).
import { useRef, useState } from 'react';
import DownloadIcon from '@mui/icons-material/Download';
import { Box, Dialog, DialogActions, DialogContent, DialogTitle, LinearProgress, Button as MuiButton, Typography } from '@mui/material';
import { Button, useListContext, useNotify, type SortPayload } from 'react-admin';
import { useLocation } from 'react-router-dom';
import type { ResourceDescriptor } from '../../schemas/descriptor';
import { EXPORT_ROWS_HEADER, exportCall } from '../../schemas/lists';
import { useAccess } from '../access/useMember';
import { toListParams } from '../dataProvider/listParams';
import { NETWORK_ERROR_MESSAGE } from '../http/index';
import { titleAt } from '../navigation';

interface Progress {
  received: number;
  rows: number | undefined;
}

/** Bytes as staff read them: 12.3 KB, 4.5 MB. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The file name the server gave (Content-Disposition's UTF-8 `filename*`), else the title's. */
function fileNameOf(disposition: string | null, fallback: string): string {
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '')?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // A malformed name: the fallback.
    }
  }
  return fallback;
}

async function errorMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { msg?: unknown };
    if (typeof body.msg === 'string' && body.msg !== '') return body.msg;
  } catch {
    // Not the envelope.
  }
  return '导出失败，请稍后重试';
}

/** Hands the received file to the browser's downloads. */
function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the blob once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export interface ExportButtonProps {
  descriptor: ResourceDescriptor;
  /** The list's filters and search, as react-admin's filter (the screen's own and the member's). */
  filter?: Record<string, unknown>;
  sort?: SortPayload;
}

/** 导出 with the given filters and order (a screen whose list context is out of the button's reach). */
export function ExportButton({ descriptor, filter = {}, sort }: ExportButtonProps) {
  const can = useAccess(descriptor.resource);
  const notify = useNotify();
  const title = titleAt(useLocation());
  const [progress, setProgress] = useState<Progress | null>(null);
  const controller = useRef<AbortController | null>(null);

  if (!can('list')) return null;

  const start = async () => {
    const abort = new AbortController();
    controller.current = abort;
    setProgress({ received: 0, rows: undefined });
    try {
      const params = { ...toListParams(descriptor, { filter: { ...filter, All: 1 }, ...(sort ? { sort } : {}) }), Screen: title };
      const response = await fetch(exportCall(descriptor), {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(params),
        signal: abort.signal,
      });
      if (!response.ok || !response.body) {
        notify(await errorMessage(response), { type: 'error' });
        return;
      }
      const counted = Number(response.headers.get(EXPORT_ROWS_HEADER));
      const rows = Number.isFinite(counted) && response.headers.has(EXPORT_ROWS_HEADER) ? counted : undefined;
      const reader = response.body.getReader();
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      let received = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.byteLength;
        setProgress({ received, rows });
      }
      saveFile(new Blob(chunks, { type: response.headers.get('content-type') ?? '' }), fileNameOf(response.headers.get('content-disposition'), `${title}.xlsx`));
      notify(rows === undefined ? '导出完成' : `导出完成，共${rows}行`, { type: 'success' });
    } catch (error) {
      if (abort.signal.aborted) notify('已取消导出', { type: 'info' });
      else notify(error instanceof Error && error.message && !/fetch|network/i.test(error.message) ? error.message : NETWORK_ERROR_MESSAGE, { type: 'error' });
    } finally {
      controller.current = null;
      setProgress(null);
    }
  };

  return (
    <>
      <Button label="导出" variant="outlined" onClick={() => void start()} disabled={progress !== null}>
        <DownloadIcon />
      </Button>
      <Dialog open={progress !== null} aria-labelledby="export-progress-title" fullWidth maxWidth="xs">
        <DialogTitle id="export-progress-title">正在导出</DialogTitle>
        <DialogContent>
          <LinearProgress aria-label="导出进度" />
          <Box sx={{ mt: 1.5 }}>
            <Typography variant="body2" role="status">
              已接收 {sizeText(progress?.received ?? 0)}
              {progress?.rows !== undefined ? `，共 ${progress.rows} 行` : ''}
            </Typography>
          </Box>
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => controller.current?.abort()}>取消</MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** 导出 in a list's toolbar: the list context's filters (the screen's and the member's) and order. */
export function ListExportButton({ descriptor }: { descriptor: ResourceDescriptor }) {
  const { filter, filterValues, sort } = useListContext();
  return <ExportButton descriptor={descriptor} filter={{ ...filter, ...(filterValues as Record<string, unknown>) }} sort={sort} />;
}
