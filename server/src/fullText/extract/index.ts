// Text extraction for the full-text index: a stored document's bytes to the text of its pages,
// normalised (normalize.ts). Pure functions, no database: the index's background runner calls them
// in a worker thread. A file that cannot be read is an outcome with a reason for administrators,
// never an exception.
import { readDocx } from './docx';
import { normalizeText } from './normalize';
import { readPdf } from './pdf';
import { decodePlainText } from './plainText';

export { normalizeText } from './normalize';
export { richTextToText } from './richText';

export type ExtractResult = { ok: true; pages: string[] } | { ok: false; reason: string };

/** Files larger than this are not read (the caller may set another limit: `maxBytes`). */
export const MAX_DOCUMENT_BYTES = 100 * 1024 * 1024;

/** The reasons a file is not indexed, as administrators read them. */
export const EXTRACT_FAILURE = {
  noTextLayer: '扫描件（无文字层）',
  noText: '无文字内容',
  broken: '文件已损坏',
  encrypted: '文件已加密',
  tooLarge: '文件过大',
  unsupported: '不支持的文件类型',
} as const;

type Kind = 'pdf' | 'docx' | 'txt';

const EXTENSIONS: ReadonlyMap<string, Kind> = new Map([['pdf', 'pdf'], ['docx', 'docx'], ['txt', 'txt']]);
/** "%PDF-" within the first KiB, where readers look for it. */
const PDF_SIGNATURE = Buffer.from('%PDF-', 'latin1');

/**
 * The text of a stored document, by its name's extension: a PDF's pages (page 1 first; a page
 * without text is ""), a DOCX's pages as its explicit page breaks make them (one page without
 * any), a .txt file's text (UTF-8, else GB18030) as one page. Each page is normalizeText's text.
 */
export async function extractDocument(input: { bytes: Uint8Array; name: string; maxBytes?: number }): Promise<ExtractResult> {
  const { bytes } = input;
  const kind = kindOf(input.name, bytes);
  if (!kind) return failed(EXTRACT_FAILURE.unsupported);
  if (bytes.byteLength > (input.maxBytes ?? MAX_DOCUMENT_BYTES)) return failed(EXTRACT_FAILURE.tooLarge);
  switch (kind) {
    case 'pdf': {
      const outcome = await readPdf(bytes);
      if ('failure' in outcome) return failed(EXTRACT_FAILURE[outcome.failure]);
      const pages = outcome.pages.map(normalizeText);
      // Not one character on any page: the pages are images (a scan).
      return pages.some(Boolean) ? { ok: true, pages } : failed(EXTRACT_FAILURE.noTextLayer);
    }
    case 'docx': {
      const outcome = await readDocx(bytes);
      if ('failure' in outcome) return failed(outcome.failure === 'notDocx' ? EXTRACT_FAILURE.unsupported : EXTRACT_FAILURE[outcome.failure]);
      return withText(outcome.pages.map(normalizeText));
    }
    case 'txt':
      return withText([normalizeText(decodePlainText(bytes))]);
  }
}

function kindOf(name: string, bytes: Uint8Array): Kind | undefined {
  // A name may come as a URL or a path: its last segment, query and fragment aside.
  const base = name.split(/[?#]/)[0]!.split(/[\\/]/).pop()!;
  const dot = base.lastIndexOf('.');
  const kind = dot > 0 ? EXTENSIONS.get(base.slice(dot + 1).toLowerCase()) : undefined;
  if (kind) return kind;
  // Stored without an extension: a PDF is still known by its signature.
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).includes(PDF_SIGNATURE) ? 'pdf' : undefined;
}

function withText(pages: string[]): ExtractResult {
  return pages.some(Boolean) ? { ok: true, pages } : failed(EXTRACT_FAILURE.noText);
}

function failed(reason: string): ExtractResult {
  return { ok: false, reason };
}
