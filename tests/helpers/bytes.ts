// File bodies that pass the server's magic-byte checks, padded with random bytes.
import { randomBytes } from 'node:crypto';

export function mp4Bytes(length: number): Buffer {
  const bytes = randomBytes(length);
  bytes.writeUInt32BE(0x18, 0);
  bytes.write('ftypisom', 4, 'latin1');
  return bytes;
}

export function pngBytes(length: number): Buffer {
  const bytes = randomBytes(length);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  return bytes;
}
