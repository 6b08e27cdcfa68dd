// The text of each page of a PDF, by pdf.js (pdfjs-dist's legacy build, the one for Node; 5.6 is the
// last line that runs on Node 20). In Node pdf.js runs its "worker" in the calling thread, by its
// own choice and without a warning: the extraction runs in a worker thread of the server already.
// It yields between pages, so that thread can still answer (a stop, a heartbeat).
import { createRequire } from 'node:module';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PdfPage = Awaited<ReturnType<Awaited<ReturnType<PdfJs['getDocument']>['promise']>['getPage']>>;
type TextContentItem = Awaited<ReturnType<PdfPage['getTextContent']>>['items'][number];

let pdfjs: Promise<PdfJs> | undefined;
/** pdf.js is large (two modules of some 2 MB): loaded with the first PDF. */
function loadPdfJs(): Promise<PdfJs> {
  return (pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs'));
}

// pdf.js reads these in Node with fs, by path (with the trailing separator it requires): the
// predefined CMaps of Chinese fonts that are not embedded (UniGB-UCS2-H, GBK-EUC-H…), the
// standard fonts' data, and its decoders.
const PDFJS_DIR = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const CMAP_DIR = path.join(PDFJS_DIR, 'cmaps') + path.sep;
const STANDARD_FONT_DIR = path.join(PDFJS_DIR, 'standard_fonts') + path.sep;
const WASM_DIR = path.join(PDFJS_DIR, 'wasm') + path.sep;

export type PdfOutcome = { pages: string[] } | { failure: 'broken' | 'encrypted' };

let openDocuments = 0;
/** PDFs open now (each is destroyed when read, whatever happened): for the tests. */
export function openPdfDocuments(): number {
  return openDocuments;
}

/** The raw text of each page (not yet normalised): lines end with "\n". */
export async function readPdf(bytes: Uint8Array): Promise<PdfOutcome> {
  const { getDocument, VerbosityLevel } = await loadPdfJs();
  const task = getDocument({
    // pdf.js takes (detaches) the buffer it is given: a copy leaves the caller's bytes alone.
    data: new Uint8Array(bytes),
    cMapUrl: CMAP_DIR,
    cMapPacked: true,
    standardFontDataUrl: STANDARD_FONT_DIR,
    wasmUrl: WASM_DIR,
    // No fonts are drawn: neither loaded into a (missing) DOM nor looked for on the system.
    disableFontFace: true,
    useSystemFonts: false,
    isEvalSupported: false,
    // Real files are full of small defects that pdf.js reads past, saying so on the console;
    // the outcome says what matters.
    verbosity: VerbosityLevel.ERRORS,
  });
  openDocuments++;
  try {
    let document;
    try {
      document = await task.promise;
    } catch (error) {
      // Thrown from pdf.js's worker side: known by name (PasswordException is not exported).
      if (error instanceof Error && error.name === 'PasswordException') return { failure: 'encrypted' };
      return { failure: 'broken' };
    }
    const pages: string[] = [];
    let unreadable = 0;
    for (let number = 1; number <= document.numPages; number++) {
      try {
        const page = await document.getPage(number);
        const content = await page.getTextContent();
        pages.push(pageText(content.items));
        page.cleanup();
      } catch {
        // One broken page does not lose the others; its text is missing.
        pages.push('');
        unreadable++;
      }
      await nextTurn();
    }
    return unreadable === pages.length ? { failure: 'broken' } : { pages };
  } finally {
    // Frees the document and its (in-thread) worker.
    await task.destroy();
    openDocuments--;
  }
}

function pageText(items: readonly TextContentItem[]): string {
  let text = '';
  for (const item of items) {
    // Marked-content markers carry no text.
    if (!('str' in item)) continue;
    text += item.str;
    if (item.hasEOL) text += '\n';
  }
  return text;
}
