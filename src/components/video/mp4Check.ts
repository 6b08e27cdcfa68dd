// The video requirement (MP4 under 500 MB, H.264 video, AAC audio), checked in
// the browser before a byte is sent. The codecs come from the file's own boxes (moov/trak/stsd),
// parsed by mp4box from a few slices of the file: never the whole file.
import type { Movie } from 'mp4box';

export const VIDEO_REQUIREMENT = '视频须为H.264编码、音频须为AAC编码的MP4文件，且小于500MB';
/** "Under 500 MB": strictly below, as the server's policy. */
export const MAX_VIDEO_BYTES = 500 * 1024 * 1024;
/** Bytes read per slice. */
export const PROBE_CHUNK = 1024 * 1024;
/** At most this much is read to find the moov box (a 2-hour video's moov is a few MB). */
export const PROBE_BUDGET = 24 * 1024 * 1024;

/** What File and Blob offer; the specs pass a Blob over a file read from disk. */
export interface SliceableFile {
  readonly name: string;
  readonly size: number;
  slice(start: number, end: number): Blob;
}

export interface Mp4Codecs {
  video: string[];
  audio: string[];
}

const requirement = (reason: string) => `${reason}。${VIDEO_REQUIREMENT}`;

/** A refusal message for the name and size alone (before reading anything), or null. */
export function checkNameAndSize(file: Pick<SliceableFile, 'name' | 'size'>): string | null {
  if (!/\.mp4$/i.test(file.name)) return requirement('只能上传MP4文件');
  if (file.size <= 0) return requirement('文件为空');
  if (file.size >= MAX_VIDEO_BYTES) return requirement('文件过大');
  return null;
}

const isH264 = (codec: string) => /^(avc1|avc3)(\.|$)/i.test(codec);
// mp4a.40.x is MPEG-4 AAC (LC, HE, HEv2); mp4a.66-68 are the MPEG-2 AAC profiles.
const isAac = (codec: string) => /^mp4a\.(40(\.\d+)?|66|67|68)$/i.test(codec);

function describeVideo(codec: string): string {
  if (/^(hvc1|hev1)/i.test(codec)) return 'H.265(HEVC)';
  if (/^mp4v/i.test(codec)) return 'MPEG-4 Part 2';
  if (/^(av01)/i.test(codec)) return 'AV1';
  if (/^vp0?9/i.test(codec)) return 'VP9';
  return codec || '未知';
}

function describeAudio(codec: string): string {
  if (/^mp4a\.6b$/i.test(codec) || /^mp4a\.69$/i.test(codec) || /^\.?mp3/i.test(codec)) return 'MP3';
  if (/^(ac-3|ec-3)/i.test(codec)) return 'Dolby(AC-3/E-AC-3)';
  if (/^opus/i.test(codec)) return 'Opus';
  return codec || '未知';
}

/** A refusal message for the codecs, or null when they meet the requirement. */
export function checkCodecs(codecs: Mp4Codecs): string | null {
  if (codecs.video.length === 0) return requirement('文件中没有视频轨道');
  const badVideo = codecs.video.find((c) => !isH264(c));
  if (badVideo !== undefined) return requirement(`该视频为${describeVideo(badVideo)}编码，浏览器无法播放`);
  // A silent video (no audio track) is fine: only a non-AAC audio track is refused.
  const badAudio = codecs.audio.find((c) => !isAac(c));
  if (badAudio !== undefined) return requirement(`该视频的音频为${describeAudio(badAudio)}编码`);
  return null;
}

/**
 * Reads the codecs from the file's moov box, following mp4box's next wanted position (a moov at
 * the end is reached by skipping the mdat), within PROBE_BUDGET bytes. null when no moov was found.
 */
export async function readMp4Codecs(file: SliceableFile): Promise<Mp4Codecs | null> {
  const { createFile, MP4BoxBuffer } = await import('mp4box');
  const iso = createFile();
  let info: Movie | undefined;
  let failed = false;
  iso.onReady = (movie) => {
    info = movie;
  };
  iso.onError = () => {
    failed = true;
  };
  let position = 0;
  let read = 0;
  while (!info && !failed && position < file.size && read < PROBE_BUDGET) {
    const end = Math.min(file.size, position + PROBE_CHUNK);
    const bytes = await file.slice(position, end).arrayBuffer();
    read += bytes.byteLength;
    let next: number;
    try {
      next = iso.appendBuffer(MP4BoxBuffer.fromArrayBuffer(bytes, position), end >= file.size);
    } catch {
      return null;
    }
    // mp4box answers where it wants to read next; without progress the file is not an MP4.
    if (!Number.isFinite(next) || next <= position) break;
    position = next;
  }
  if (!info) return null;
  return {
    video: info.videoTracks.map((t) => t.codec),
    audio: info.audioTracks.map((t) => t.codec),
  };
}

/** The whole check: null when the file may be uploaded, otherwise the message to show. */
export async function checkVideoFile(file: SliceableFile): Promise<string | null> {
  const early = checkNameAndSize(file);
  if (early) return early;
  let codecs: Mp4Codecs | null;
  try {
    codecs = await readMp4Codecs(file);
  } catch {
    codecs = null;
  }
  if (!codecs) return requirement('无法读取视频信息，文件可能不是有效的MP4');
  return checkCodecs(codecs);
}
