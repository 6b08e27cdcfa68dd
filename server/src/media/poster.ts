// Posters: the frame at 1 second of an uploaded video, stored beside it as `<name>.poster.jpg`, so
// that a grid of video cards shows images and never downloads whole videos. Made with ffmpeg when
// it is on PATH; without it nothing happens and the admin app takes the frame in the browser.
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { posterUrlOf } from '../../../schemas/poster';
import type { StorageDriver } from '../storage/types';
import { DEMO_DIR } from '../paths';

/** A frame takes a few hundred ms; a stuck network read must not hold a request for long. */
export const POSTER_TIMEOUT_MS = 20_000;

const DEMO_POSTER = path.join(DEMO_DIR, 'demo-poster.jpg');

let ffmpegPath: string | null | undefined;

/** Absolute path of the ffmpeg binary on PATH, or undefined; looked up once per process. */
export function findFfmpeg(): string | undefined {
  if (ffmpegPath === undefined) {
    ffmpegPath = null;
    for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
      if (!dir) continue;
      const candidate = path.join(dir, process.platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg');
      try {
        accessSync(candidate, constants.X_OK);
        ffmpegPath = candidate;
        break;
      } catch {
        // not in this directory
      }
    }
  }
  return ffmpegPath ?? undefined;
}

/** Storage key of a video's poster (`video/…/<uuid>.poster.jpg`), or undefined for a non-MP4 key. */
export function posterKeyOf(videoKey: string): string | undefined {
  return posterUrlOf(videoKey) || undefined;
}

function run(file: string, args: string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024 }, (err, _stdout, stderr) => {
      if (err) reject(new Error(`ffmpeg failed: ${err.message} ${String(stderr).slice(-500)}`));
      else resolve();
    });
  });
}

export interface PosterOptions {
  /** Told about a failure; a poster is never worth failing an upload for. */
  onError?: (err: unknown) => void;
  timeoutMs?: number;
}

/**
 * Takes the frame at 1 second of the stored video `key` and stores it as its poster. Returns the
 * poster's URL, or undefined when there is no ffmpeg, the key is not an MP4, or ffmpeg failed
 * (a clip shorter than a second has no such frame). Never throws.
 */
export async function makePoster(storage: StorageDriver, key: string, options: PosterOptions = {}): Promise<string | undefined> {
  const ffmpeg = findFfmpeg();
  const posterKey = posterKeyOf(key);
  if (!ffmpeg || !posterKey) return undefined;
  let dir: string | undefined;
  try {
    const source = await storage.mediaSource(key);
    const remote = /^https?:\/\//.test(source);
    dir = await mkdtemp(path.join(os.tmpdir(), 'poster-'));
    const out = path.join(dir, 'poster.jpg');
    // Only the protocols the input needs: an MP4 may reference other files or URLs.
    const input = remote
      ? ['-protocol_whitelist', 'http,https,tcp,tls', '-i', source]
      : ['-protocol_whitelist', 'file', '-i', `file:${source}`];
    await run(
      ffmpeg,
      ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-ss', '1', ...input, '-frames:v', '1', '-q:v', '4', '-f', 'image2', out],
      options.timeoutMs ?? POSTER_TIMEOUT_MS,
    );
    const info = await stat(out).catch(() => undefined);
    if (!info || info.size === 0) return undefined;
    await storage.putFile(posterKey, out, 'image/jpeg');
    return storage.fileUrl(posterKey);
  } catch (err) {
    options.onError?.(err);
    return undefined;
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Stores the committed poster of the demo video (server/demo/demo-poster.jpg) beside it, so demo
 * data has posters without ffmpeg. Returns the poster's URL.
 */
export async function putDemoPoster(storage: StorageDriver, videoKey = 'demo/demo.mp4'): Promise<string> {
  const posterKey = posterKeyOf(videoKey);
  if (!posterKey) throw new Error(`not an MP4 key: ${videoKey}`);
  await storage.putFile(posterKey, DEMO_POSTER, 'image/jpeg');
  return storage.fileUrl(posterKey);
}
