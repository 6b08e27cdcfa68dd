// Server-side rich text: the shared allow-list (schemas/richText.ts) over DOMPurify on jsdom.
import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import { createSanitizer } from '../../schemas/richText';

const { window } = new JSDOM('');
const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);

export const sanitizeRichText = createSanitizer(purify);

/** True when sanitised HTML shows nothing: no text (spaces and &nbsp; aside) and no image. */
export function richTextIsEmpty(html: string): boolean {
  const doc = new JSDOM(`<body>${sanitizeRichText(html)}</body>`).window.document;
  if (doc.querySelector('img')) return false;
  return (doc.body.textContent ?? '').replace(/[\s\u00a0\u200b]/g, '') === '';
}
