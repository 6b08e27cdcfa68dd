// The playback dialog of 在线视频: the player in a dialog that Escape and a click
// outside do not close; closing it pauses the video. video.js loads only when a dialog opens.
import { lazy, Suspense, useRef } from 'react';
import CloseIcon from '@mui/icons-material/Close';
import { Dialog, DialogContent, DialogTitle, IconButton } from '@mui/material';
import { posterUrlOf } from '../../../schemas/poster';
import { ListLoading } from '../ListStates';

const VideoPlayer = lazy(() => import('./VideoPlayer'));

interface Pausable {
  pause(): unknown;
}

export function PlaybackDialog({ open, onClose, src, title }: { open: boolean; onClose: () => void; src: string; title: string }) {
  const player = useRef<Pausable | null>(null);
  const close = () => {
    player.current?.pause();
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={(_event, reason) => {
        if (reason === 'backdropClick' || reason === 'escapeKeyDown') return;
        close();
      }}
      disableEscapeKeyDown
      maxWidth={false}
      PaperProps={{ sx: { width: 800, maxWidth: '95vw' } }}
      aria-labelledby="playback-dialog-title"
    >
      <DialogTitle id="playback-dialog-title" sx={{ pr: 6 }}>
        {title}
        <IconButton aria-label="关闭" onClick={close} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent>
        {open && (
          <Suspense fallback={<ListLoading />}>
            <VideoPlayer src={src} poster={posterUrlOf(src)} title={title} onReady={(p) => (player.current = p)} />
          </Suspense>
        )}
      </DialogContent>
    </Dialog>
  );
}
