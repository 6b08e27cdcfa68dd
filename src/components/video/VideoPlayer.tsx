// video.js, loaded only by the screens that play a video (import this module lazily).
import { useEffect, useRef } from 'react';
import { Box } from '@mui/material';
// The core build: MP4 needs no streaming engine (VHS), which is most of the full build's size.
import videojs from 'video.js/core.es.js';
import zhCN from 'video.js/dist/lang/zh-CN.json';
import 'video.js/dist/video-js.css';
import { FILE_URL_PATTERN } from '../../../schemas/fields';

type Player = ReturnType<typeof videojs>;

/** Only a stored-file URL (http(s) or /files/…) reaches the media element, whatever a record holds. */
const FILE_URL = new RegExp(FILE_URL_PATTERN, 'i');

/** The product's message for a video that cannot be played. */
export const UNPLAYABLE_MESSAGE = '该视频暂时无法播放，请稍后再试';

// video.js's own Chinese messages, plus the unplayable-video message for its English key.
videojs.addLanguage('zh-CN', {
  ...zhCN,
  'This video cannot be played at the moment, please try again later': UNPLAYABLE_MESSAGE,
});

/**
 * The player's options. inactivityTimeout is the one timing video.js takes as an option; the other
 * timings are video.js's built-in behaviour: activity polled every 250 ms, resize handling
 * debounced 100 ms, caption font sizes 50% to 400%, arrow keys seek 5 s on the progress bar and
 * change the volume by 0.1 on the volume bar.
 */
export const PLAYER_OPTIONS = {
  controls: true,
  autoplay: false,
  loop: false,
  preload: 'auto',
  language: 'zh-CN',
  aspectRatio: '16:9',
  fluid: true,
  inactivityTimeout: 2000,
  notSupportedMessage: UNPLAYABLE_MESSAGE,
  playbackRates: [0.5, 1, 1.25, 1.5, 2],
} as const;

export interface VideoPlayerProps {
  src: string;
  poster?: string | undefined;
  /** Accessible name of the player. */
  title: string;
  /** The player, once created (pause it when its dialog closes…). */
  onReady?: (player: Player) => void;
}

/**
 * A video.js player over an MP4. The <video-js> element is created outside React's tree, as the
 * video.js guide for React advises, so that video.js may rebuild it freely; a new `src` reuses
 * the same player.
 */
export default function VideoPlayer({ src, poster, title, onReady }: VideoPlayerProps) {
  const holder = useRef<HTMLDivElement>(null);
  const playerRef = useRef<Player | null>(null);
  const onReadyRef = useRef(onReady);
  useEffect(() => {
    onReadyRef.current = onReady;
  }, [onReady]);

  useEffect(() => {
    const host = holder.current;
    if (!host) return;
    const element = document.createElement('video-js');
    element.classList.add('vjs-big-play-centered');
    host.appendChild(element);
    const player = videojs(element, { ...PLAYER_OPTIONS, playbackRates: [...PLAYER_OPTIONS.playbackRates] });
    playerRef.current = player;
    onReadyRef.current?.(player);
    return () => {
      playerRef.current = null;
      if (!player.isDisposed()) player.dispose();
    };
  }, []);

  useEffect(() => {
    const player = playerRef.current;
    if (!player) return;
    player.pause();
    if (!FILE_URL.test(src)) {
      // A record not written by this server (legacy, imported, tampered with): show the message.
      // Code 4 (source not supported) shows notSupportedMessage, UNPLAYABLE_MESSAGE.
      player.error(4);
      return;
    }
    player.src({ src, type: 'video/mp4' });
  }, [src]);

  useEffect(() => {
    playerRef.current?.el()?.setAttribute('aria-label', title);
  }, [title]);

  // The stored poster may not exist (no ffmpeg on the server): show it only once it has loaded,
  // otherwise the player shows the video's first frame (preload auto).
  useEffect(() => {
    const player = playerRef.current;
    if (!player) return;
    player.poster('');
    if (!poster || !FILE_URL.test(poster)) return;
    let live = true;
    const probe = new Image();
    probe.onload = () => {
      if (live && !player.isDisposed()) player.poster(poster);
    };
    probe.src = poster;
    return () => {
      live = false;
    };
  }, [poster]);

  return <Box ref={holder} data-vjs-player sx={{ width: '100%', '& .video-js': { borderRadius: 1, overflow: 'hidden' } }} />;
}
