// Server-side rich text: the shared allow-list (schemas/richText.ts) over DOMPurify on one jsdom
// window, made on first use and kept (a window is too costly to make per request). First use, not
// start-up: jsdom takes some 70 MB, and a server that only answers reads never needs it.
import { createRequire } from 'node:module';
import createDOMPurify from 'dompurify';
import { createSanitizer } from '../../schemas/richText';

const require = createRequire(import.meta.url);
let made: { window: Window; sanitize: (html: string) => string } | undefined;

function sanitizerWindow() {
  if (!made) {
    const { JSDOM } = require('jsdom') as typeof import('jsdom');
    const { window } = new JSDOM('');
    const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
    made = { window: window as unknown as Window, sanitize: createSanitizer(purify) };
  }
  return made;
}

/** Sanitises rich text before it is stored (the app sanitises again on display). */
export const sanitizeRichText = (html: string): string => sanitizerWindow().sanitize(html);

// Whitespace the editor leaves in "empty" paragraphs: \s covers spaces, &nbsp; and BOM; the
// zero-width characters are not whitespace to JavaScript but show nothing.
const INVISIBLE = /[\s\u200b-\u200d\u2060]/g;

/** True when sanitised HTML shows nothing: no text (spaces and &nbsp; aside) and no image. */
export function richTextIsEmpty(html: string): boolean {
  // A <template> parses without running or loading anything, in the window we already have.
  const template = sanitizerWindow().window.document.createElement('template');
  template.innerHTML = sanitizeRichText(html);
  if (template.content.querySelector('img')) return false;
  return (template.content.textContent ?? '').replace(INVISIBLE, '') === '';
}

/** The text a reader sees in stored rich text, whitespace collapsed (for the audit log's excerpts). */
export function richTextPlainText(html: string): string {
  const template = sanitizerWindow().window.document.createElement('template');
  template.innerHTML = sanitizeRichText(html);
  // Blocks and line breaks separate words: <p>a</p><p>b</p> reads "a b", not "ab".
  for (const el of template.content.querySelectorAll('p, div, li, br, tr, td, th, h1, h2, h3, h4, h5, h6, blockquote, pre')) {
    el.append(template.ownerDocument.createTextNode(' '));
  }
  return (template.content.textContent ?? '').replace(/[\s\u200b-\u200d\u2060]+/g, ' ').trim();
}
