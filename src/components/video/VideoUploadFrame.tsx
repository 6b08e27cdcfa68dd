import type { ReactNode } from 'react';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import { Box, Button, FormHelperText, FormLabel, Typography } from '@mui/material';
import { useWatch } from 'react-hook-form';
import { useFileName } from '../fileNames';
import { VIDEO_REQUIREMENT } from './mp4Check';
import { VideoCover } from './VideoCover';

/**
 * The video input's frame: its label, the current video's cover and name, the upload button, what
 * is under way, and the requirement. The input (./VideoUploadInput, whose code loads on demand)
 * fills it; drawn alone, it holds the input's place while that code arrives, so that the dialog
 * keeps its size when it does.
 */
export function VideoUploadFrame({ source, label, url, inputId, button, status, helper }: { source: string; label: string; url: string; inputId?: string; button: ReactNode; status?: ReactNode; helper: ReactNode }) {
  const fileName = useFileName(url);
  return (
    <Box className={`ra-input ra-input-${source}`} sx={{ mb: 2 }}>
      <FormLabel htmlFor={inputId} required sx={{ display: 'block', mb: 0.5 }}>
        {label}
      </FormLabel>

      {url !== '' && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 1 }}>
          <Box sx={{ width: 128, flex: 'none', borderRadius: 1, overflow: 'hidden', border: 1, borderColor: 'divider' }}>
            <VideoCover videoUrl={url} alt="视频封面" />
          </Box>
          <Typography variant="body2" sx={{ wordBreak: 'break-all' }} data-testid="video-file-name">
            {fileName}
          </Typography>
        </Box>
      )}

      {button}
      {status}
      {helper}
    </Box>
  );
}

/** The upload button's look; the input adds its file picker and handlers. */
export const uploadButtonProps = { variant: 'outlined', size: 'small', startIcon: <CloudUploadIcon /> } as const;

/** The frame while the input's code loads: the same parts, its button not yet usable. */
export function VideoUploadPlaceholder({ source, label }: { source: string; label: string }) {
  const value: unknown = useWatch({ name: source });
  const url = typeof value === 'string' ? value : '';
  return (
    <VideoUploadFrame
      source={source}
      label={label}
      url={url}
      button={
        <Button {...uploadButtonProps} disabled>
          {url ? '重新上传视频' : '上传视频'}
        </Button>
      }
      helper={<FormHelperText>{VIDEO_REQUIREMENT}</FormHelperText>}
    />
  );
}
