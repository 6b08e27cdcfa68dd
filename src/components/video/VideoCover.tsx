import { useState } from 'react';
import MovieIcon from '@mui/icons-material/Movie';
import { Box } from '@mui/material';
import { FILE_URL_PATTERN } from '../../../schemas/fields';
import { posterUrlOf } from '../../../schemas/poster';
import { PLAYER_BOX_ASPECT_RATIO } from './playerSize';

const FILE_URL = new RegExp(FILE_URL_PATTERN);

/** The browser's own frame at 1 second: a media fragment, and only the metadata is fetched. */
export function frameUrlOf(videoUrl: string): string {
  return `${videoUrl.split('#')[0] ?? videoUrl}#t=1`;
}

type Source = 'poster' | 'frame' | 'none';

const fill = { position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'cover', display: 'block' } as const;

/**
 * A video's cover, 16:9: the poster stored beside the video (`posterUrlOf`), or, when it does not
 * load (no ffmpeg on the server, an older upload), the frame at 1 s drawn by a <video> element
 * with preload="metadata" and `#t=1`: a grid never downloads whole videos.
 */
export function VideoCover({ videoUrl, alt }: { videoUrl: string | null | undefined; alt: string }) {
  const url = typeof videoUrl === 'string' && FILE_URL.test(videoUrl) ? videoUrl : '';
  const poster = url ? posterUrlOf(url) : '';
  const [failed, setFailed] = useState<{ url: string; source: Source } | null>(null);
  // A new video starts again from its poster.
  const initial: Source = !url ? 'none' : poster ? 'poster' : 'frame';
  const source: Source = failed && failed.url === url ? failed.source : initial;

  return (
    <Box sx={{ position: 'relative', width: '100%', aspectRatio: PLAYER_BOX_ASPECT_RATIO, bgcolor: 'grey.900', overflow: 'hidden' }}>
      {source === 'poster' && (
        <Box component="img" src={poster} alt={alt} loading="lazy" sx={fill} onError={() => setFailed({ url, source: 'frame' })} />
      )}
      {source === 'frame' && (
        <Box
          component="video"
          src={frameUrlOf(url)}
          preload="metadata"
          muted
          playsInline
          aria-label={alt}
          tabIndex={-1}
          sx={{ ...fill, pointerEvents: 'none' }}
          onError={() => setFailed({ url, source: 'none' })}
        />
      )}
      {source === 'none' && (
        <Box role="img" aria-label={alt} sx={{ ...fill, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          <MovieIcon sx={{ fontSize: 48, color: 'grey.600' }} />
        </Box>
      )}
    </Box>
  );
}
