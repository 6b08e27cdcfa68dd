// video.js, loaded only by the screens that play a video (import this module lazily).
import { useEffect, useRef } from 'react';
import { Box } from '@mui/material';
// The core build: MP4 needs no streaming engine (VHS), which is most of the full build's size.
import videojs from 'video.js/core.es.js';
import zhCN from 'video.js/dist/lang/zh-CN.json';
import 'video.js/dist/video-js.css';
import { FILE_URL_PATTERN } from '../../../schemas/fields';
import { PLAYER_ASPECT_RATIO } from './playerSize';

type Player = ReturnType<typeof videojs>;

/** Only a stored-file URL (http(s) or /files/…) reaches the media element, whatever a record holds. */
const FILE_URL = new RegExp(FILE_URL_PATTERN, 'i');

/** The product's message for a video that cannot be played (SPEC 8). */
export const UNPLAYABLE_MESSAGE = '该视频暂时无法播放，请稍后再试';

/**
 * video.js's message for error code 4 when no tech can play the source's type (SPEC 8 keeps it for
 * a source the player cannot use); its zh-CN translation comes from video.js's table.
 */
export const NO_COMPATIBLE_SOURCE = 'No compatible source was found for this media.';

/**
 * video.js's messages for MediaError codes 1 to 5: a media element's error carries the one of its
 * code (not the browser's own text), whatever the cause (an unreadable or missing file, a broken
 * download, bad media data). video.js's own code 4, for a type no tech plays, carries
 * NO_COMPATIBLE_SOURCE instead, so it keeps its message.
 */
const PLAYBACK_FAILURES = [
  'You aborted the media playback',
  'A network error caused the media download to fail part-way.',
  'The media playback was aborted due to a corruption problem or because the media used features your browser did not support.',
  'The media could not be loaded, either because the server or network failed or because the format is not supported.',
  'The media is encrypted and we do not have the keys to decrypt it.',
];

// video.js's own Chinese messages, with every playback failure saying the product's message.
videojs.addLanguage('zh-CN', {
  ...zhCN,
  ...Object.fromEntries(PLAYBACK_FAILURES.map((message) => [message, UNPLAYABLE_MESSAGE])),
});

/**
 * The source handed to video.js: with an extension, video.js picks the type from it (and shows
 * code 4 for one the browser cannot play, an .avi say); without one, the product's videos are MP4.
 */
function sourceOf(src: string): { src: string; type?: string } {
  const { pathname } = new URL(src, window.location.origin);
  return /\.[a-z0-9]{1,8}$/i.test(pathname) ? { src } : { src, type: 'video/mp4' };
}

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
  aspectRatio: PLAYER_ASPECT_RATIO,
  fluid: true,
  inactivityTimeout: 2000,
  notSupportedMessage: NO_COMPATIBLE_SOURCE,
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
      // A record not written by this server (legacy, imported, tampered with) never reaches the
      // media element: the media element's code 4, whose message is the product's.
      player.error(4);
      return;
    }
    player.src(sourceOf(src));
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
