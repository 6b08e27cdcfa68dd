// A .txt file's characters. Files saved on Chinese Windows are often GBK (GB18030's older subset)
// rather than UTF-8; Notepad's "Unicode" is UTF-16 with a byte order mark.

/** The text of a plain-text file: by its byte order mark, else UTF-8 when valid, else GB18030. */
export function decodePlainText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  try {
    // The decoder drops a UTF-8 byte order mark.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // GB18030 decodes any bytes; GBK and GB2312 files are GB18030 too.
    return new TextDecoder('gb18030').decode(bytes);
  }
}
