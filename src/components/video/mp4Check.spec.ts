import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkCodecs, checkNameAndSize, checkVideoFile, MAX_VIDEO_BYTES, readMp4Codecs, VIDEO_REQUIREMENT, type SliceableFile } from './mp4Check';

const DEMO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../server/demo/demo.mp4');
const demo = fs.readFileSync(DEMO);

/** A file over bytes that counts how much of it was read. */
function fileOf(bytes: Uint8Array, name = 'lesson.mp4'): SliceableFile & { read: number } {
  const blob = new Blob([Uint8Array.from(bytes)]);
  const file = {
    name,
    size: blob.size,
    read: 0,
    slice(start: number, end: number) {
      file.read += Math.min(end, blob.size) - start;
      return blob.slice(start, end);
    },
  };
  return file;
}

/** Replaces every occurrence of one fourcc with another (same length): a sample entry's type. */
function retag(bytes: Uint8Array, from: string, to: string): Uint8Array {
  const out = Uint8Array.from(bytes);
  const a = Buffer.from(from, 'latin1');
  const b = Buffer.from(to, 'latin1');
  let found = 0;
  for (let i = 0; i + 4 <= out.length; i++) {
    if (out[i] === a[0] && out[i + 1] === a[1] && out[i + 2] === a[2] && out[i + 3] === a[3]) {
      // Only box types: the four bytes after a 32-bit size.
      if (i >= 4) {
        out.set(b, i);
        found++;
      }
    }
  }
  if (found === 0) throw new Error(`${from} not found`);
  return out;
}

/** The top-level boxes of an MP4 (32-bit sizes, as in the demo file). */
function topBoxes(bytes: Uint8Array): Map<string, Uint8Array> {
  const boxes = new Map<string, Uint8Array>();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at + 8 <= bytes.length; ) {
    const size = view.getUint32(at);
    const type = Buffer.from(bytes.subarray(at + 4, at + 8)).toString('latin1');
    boxes.set(type, bytes.subarray(at, at + size));
    at += size;
  }
  return boxes;
}

function box(type: string, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + payload.length);
  new DataView(out.buffer).setUint32(0, out.length);
  out.set(Buffer.from(type, 'latin1'), 4);
  out.set(payload, 8);
  return out;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

describe('the MP4 check before upload', () => {
  it('reads H.264 and AAC from the demo video and accepts it', async () => {
    const file = fileOf(demo);
    await expect(readMp4Codecs(file)).resolves.toEqual({ video: ['avc1.64001e'], audio: ['mp4a.40.2'] });
    await expect(checkVideoFile(fileOf(demo))).resolves.toBeNull();
  });

  it('refuses HEVC (a sample entry hvc1) naming the requirement', async () => {
    const message = await checkVideoFile(fileOf(retag(demo, 'avc1', 'hvc1')));
    expect(message).toContain('H.265(HEVC)');
    expect(message).toContain(VIDEO_REQUIREMENT);
  });

  it('refuses MPEG-4 Part 2 video (mp4v)', async () => {
    await expect(checkVideoFile(fileOf(retag(demo, 'avc1', 'mp4v')))).resolves.toContain('MPEG-4 Part 2');
  });

  it('refuses audio that is not AAC', async () => {
    const message = await checkVideoFile(fileOf(retag(demo, 'mp4a', 'ac-3')));
    expect(message).toContain('音频');
    expect(message).toContain(VIDEO_REQUIREMENT);
  });

  it('finds a moov box at the end by skipping the mdat, reading only a few slices', async () => {
    const boxes = topBoxes(demo);
    // The demo's media data, grown to 8 MB: as a long recording saved without faststart.
    const media = boxes.get('mdat')!.subarray(8);
    const mdat = box('mdat', concat(media, new Uint8Array(8 * 1024 * 1024)));
    const moovLast = concat(boxes.get('ftyp')!, mdat, boxes.get('moov')!);
    const file = fileOf(moovLast);
    await expect(readMp4Codecs(file)).resolves.toEqual({ video: ['avc1.64001e'], audio: ['mp4a.40.2'] });
    expect(file.read).toBeLessThan(3 * 1024 * 1024);
  });

  it('refuses what is not an MP4 by name, by size, or by content', async () => {
    expect(checkNameAndSize({ name: 'lesson.mov', size: 10 })).toContain('只能上传MP4文件');
    expect(checkNameAndSize({ name: 'lesson.mp4', size: MAX_VIDEO_BYTES })).toContain('文件过大');
    expect(checkNameAndSize({ name: 'lesson.MP4', size: MAX_VIDEO_BYTES - 1 })).toBeNull();
    await expect(checkVideoFile(fileOf(new TextEncoder().encode('not a video at all'.repeat(100))))).resolves.toContain('无法读取视频信息');
  });

  it('accepts a silent H.264 video and the AAC profiles; refuses a file without video', () => {
    expect(checkCodecs({ video: ['avc1.42E01E'], audio: [] })).toBeNull();
    expect(checkCodecs({ video: ['avc3.640028'], audio: ['mp4a.40.5', 'mp4a.67'] })).toBeNull();
    expect(checkCodecs({ video: [], audio: ['mp4a.40.2'] })).toContain('没有视频轨道');
    expect(checkCodecs({ video: ['avc1.64001e'], audio: ['mp4a.6b'] })).toContain('MP3');
  });
});
