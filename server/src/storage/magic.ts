// Magic-byte checks: the first bytes of an upload must match its extension, so that an HTML or SVG
// page renamed .mp4 or .png is refused before it is stored and served from our origin.

/** How many leading bytes are collected before checking (the "first chunk" of a text file). */
export const MAGIC_HEAD_BYTES = 4096;

type Check = (head: Buffer) => boolean;

const startsWith =
  (...bytes: number[]): Check =>
  (head) =>
    head.length >= bytes.length && bytes.every((b, i) => head[i] === b);

const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

const at = (offset: number, s: string): Check => {
  const bytes = ascii(s);
  return (head) => head.length >= offset + bytes.length && bytes.every((b, i) => head[offset + i] === b);
};

const zip = startsWith(0x50, 0x4b, 0x03, 0x04); // PK\x03\x04, also every OOXML document
const ole = startsWith(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1); // legacy doc/xls/ppt
const jpeg = startsWith(0xff, 0xd8, 0xff);

const CHECKS: Readonly<Record<string, Check>> = {
  mp4: at(4, 'ftyp'),
  png: startsWith(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
  jpg: jpeg,
  jpeg,
  webp: (head) => at(0, 'RIFF')(head) && at(8, 'WEBP')(head),
  pdf: startsWith(...ascii('%PDF-')),
  zip,
  docx: zip,
  xlsx: zip,
  pptx: zip,
  doc: ole,
  xls: ole,
  ppt: ole,
  rar: startsWith(...ascii('Rar!'), 0x1a, 0x07),
  '7z': startsWith(0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c),
  // Text has no signature; a NUL byte says it is binary.
  txt: (head) => !head.includes(0),
};

/**
 * Whether `head` (the first MAGIC_HEAD_BYTES of the file, or the whole file when shorter) fits the
 * extension. Unknown extensions never match.
 */
export function matchesMagic(ext: string, head: Buffer): boolean {
  const check = Object.hasOwn(CHECKS, ext) ? CHECKS[ext] : undefined;
  return check ? check(head) : false;
}
