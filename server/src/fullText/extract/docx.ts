// The text of a Word (.docx) file: word/document.xml, read as a stream by saxes (the XML parser
// jsdom uses, resolved through jsdom as server/src/richTextSanitizer.ts does with parse5): the
// runs' text (w:t), paragraphs, line breaks, tabs, and explicit page breaks (Ctrl+Enter, "page
// break before", a section starting on a new page), which split the pages. Deleted text (tracked
// changes), field codes and the legacy copy of text boxes (mc:Fallback) are not the text read.
import { createRequire } from 'node:module';
import JSZip from 'jszip';
import type * as Saxes from 'saxes';

const WORD_NS = new Set([
  'http://schemas.openxmlformats.org/wordprocessingml/2006/main', // Transitional: what Word writes
  'http://purl.oclc.org/ooxml/wordprocessingml/main', // Strict
]);
const MARKUP_COMPATIBILITY_NS = 'http://schemas.openxmlformats.org/markup-compatibility/2006';

/** The reader's limits (changed by tests only). */
export const docxLimits = {
  /** word/document.xml larger than this (unzipped) is refused: a zip can inflate a thousandfold. */
  xmlBytes: 256 * 1024 * 1024,
};

export type DocxOutcome = { pages: string[] } | { failure: 'broken' | 'encrypted' | 'tooLarge' | 'notDocx' };

/** The start of an OLE compound file: legacy .doc, and any encrypted Office file. */
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/** The stream an encrypted OOXML file keeps its package in (OLE names are UTF-16LE). */
const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

let saxes: typeof Saxes | undefined;
function loadSaxes(): typeof Saxes {
  if (!saxes) {
    const require = createRequire(import.meta.url);
    saxes = createRequire(require.resolve('jsdom'))('saxes') as typeof Saxes;
  }
  return saxes;
}

/** The raw text of each page of a .docx file (not yet normalised). */
export async function readDocx(bytes: Uint8Array): Promise<DocxOutcome> {
  if (OLE_MAGIC.every((b, i) => bytes[i] === b)) {
    // Word encrypts a .docx into an OLE file; an OLE file named .docx otherwise is a .doc.
    return { failure: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(ENCRYPTED_PACKAGE) ? 'encrypted' : 'notDocx' };
  }
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch {
    return { failure: 'broken' };
  }
  const entry = zip.file('word/document.xml');
  if (!entry) return { failure: 'broken' };

  const reader = new DocumentReader();
  const { SaxesParser } = loadSaxes();
  const parser = new SaxesParser<{ xmlns: true; position: false }>({ xmlns: true, position: false });
  parser.on('opentag', (tag) => reader.open(tag));
  parser.on('closetag', (tag) => reader.close(tag));
  parser.on('text', (text) => reader.text(text));
  parser.on('cdata', (text) => reader.text(text));
  const decoder = new TextDecoder('utf-8');
  let size = 0;
  try {
    // jszip's stream is an older Readable, not async-iterable: read by its events.
    await new Promise<void>((resolve, reject) => {
      const stream = entry.nodeStream('nodebuffer');
      const stop = (error: unknown) => {
        stream.pause();
        reject(error);
      };
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > docxLimits.xmlBytes) return stop(new XmlTooLarge());
        try {
          parser.write(decoder.decode(chunk, { stream: true }));
        } catch (error) {
          stop(error);
        }
      });
      stream.on('error', reject);
      stream.on('end', () => resolve());
    });
    parser.write(decoder.decode());
    parser.close();
  } catch (error) {
    // Not XML, or a corrupt deflate stream.
    return { failure: error instanceof XmlTooLarge ? 'tooLarge' : 'broken' };
  }
  return { pages: reader.finish() };
}

class XmlTooLarge extends Error {}

type Tag = Saxes.SaxesTagNS;

/** Follows the document's elements and collects the text of each page. */
class DocumentReader {
  private readonly pages: string[] = [];
  private page: string[] = [];
  /** Inside w:t (text shown); w:delText and w:instrText are not it. */
  private inText = false;
  /** Depth inside content that is not the text read: mc:Fallback, ruby annotations (w:rt). */
  private skipped = 0;
  /** The paragraph's properties asked for a page break after it (a section starting on a new page). */
  private breakAfterParagraph = false;
  private inParagraphProperties = false;
  private sectionInParagraph = false;

  open(tag: Tag): void {
    if (tag.uri === MARKUP_COMPATIBILITY_NS && tag.local === 'Fallback') {
      if (!tag.isSelfClosing) this.skipped++;
      return;
    }
    if (!WORD_NS.has(tag.uri)) return;
    if (tag.local === 'rt') {
      if (!tag.isSelfClosing) this.skipped++;
      return;
    }
    if (this.skipped) return;
    switch (tag.local) {
      case 't':
        this.inText = !tag.isSelfClosing;
        break;
      case 'tab':
        // w:tab is also a tab stop's definition inside w:tabs; only a run's tab is text.
        if (!this.inParagraphProperties) this.page.push('\t');
        break;
      case 'br':
        if (attribute(tag, 'type') === 'page') this.newPage();
        else this.page.push('\n');
        break;
      case 'cr':
        this.page.push('\n');
        break;
      case 'noBreakHyphen':
        this.page.push('-');
        break;
      case 'pPr':
        this.inParagraphProperties = !tag.isSelfClosing;
        break;
      case 'pageBreakBefore':
        // On a page of its own already (the document's start, after a page break): no empty page.
        if (this.inParagraphProperties && isOn(tag) && this.page.join('').trim()) this.newPage();
        break;
      case 'sectPr':
        // A section's properties inside a paragraph's end that section; the body's last one ends the document.
        if (this.inParagraphProperties) {
          this.sectionInParagraph = true;
          this.breakAfterParagraph = true; // a section starts on a new page unless its type says otherwise
        }
        break;
      case 'type':
        if (this.sectionInParagraph && ['continuous', 'nextColumn'].includes(attribute(tag, 'val') ?? '')) this.breakAfterParagraph = false;
        break;
    }
  }

  close(tag: Tag): void {
    if ((tag.uri === MARKUP_COMPATIBILITY_NS && tag.local === 'Fallback') || (WORD_NS.has(tag.uri) && tag.local === 'rt')) {
      if (!tag.isSelfClosing) this.skipped--;
      return;
    }
    if (this.skipped || !WORD_NS.has(tag.uri)) return;
    if (tag.local === 't') this.inText = false;
    else if (tag.local === 'pPr') this.inParagraphProperties = false;
    else if (tag.local === 'sectPr') this.sectionInParagraph = false;
    else if (tag.local === 'p') {
      this.page.push('\n\n');
      if (this.breakAfterParagraph) this.newPage();
      this.breakAfterParagraph = false;
    }
  }

  text(text: string): void {
    if (this.inText && !this.skipped) this.page.push(text);
  }

  /** A page break: what came before is a page (the first page break makes the first page). */
  private newPage(): void {
    this.pages.push(this.page.join(''));
    this.page = [];
  }

  finish(): string[] {
    const last = this.page.join('');
    // A break at the very end opens no page.
    if (last.trim() || this.pages.length === 0) this.pages.push(last);
    return this.pages;
  }
}

/** The value of a WordprocessingML attribute of the tag, by its local name. */
function attribute(tag: Tag, local: string): string | undefined {
  for (const attr of Object.values(tag.attributes)) if (attr.local === local && WORD_NS.has(attr.uri)) return attr.value;
  return undefined;
}

/** An on/off property: on unless w:val says off. */
function isOn(tag: Tag): boolean {
  const value = attribute(tag, 'val');
  return value === undefined || !['0', 'false', 'off'].includes(value);
}
