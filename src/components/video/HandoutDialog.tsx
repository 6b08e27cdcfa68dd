import CloseIcon from '@mui/icons-material/Close';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton } from '@mui/material';
import type { FileEntry } from '../../../schemas/types';
import { FileDownloadList } from '../FileDownloadList';

/** Opens a handout in a new window, without handing it this page (noopener). */
export function openFile(url: string): void {
  window.open(url, '_blank', 'noopener,noreferrer');
}

/**
 * 讲义下载: the handouts' names, each with 下载 opening the file in a new window.
 * The entries come from parseFileList, so their URLs are checked http(s) or /files/ paths.
 */
export function HandoutDialog({ files, open, onClose }: { files: readonly FileEntry[]; open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="handout-dialog-title">
      <DialogTitle id="handout-dialog-title" sx={{ pr: 6 }}>
        讲义下载
        <IconButton aria-label="关闭" onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers>
        <FileDownloadList files={files} onDownload={(file) => openFile(file.url)} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>关闭</Button>
      </DialogActions>
    </Dialog>
  );
}
