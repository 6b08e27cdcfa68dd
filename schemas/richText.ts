// The one allow-list for rich text (comments, questions, answers, article content), used by the
// server on write and by the admin app again on display. Built on DOMPurify, which parses like a
// browser (so mutation XSS tricks are handled by the library, not by hand-written parsing).
import type { Config, DOMPurify } from 'dompurify';

export const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'b', 'strong', 'i', 'em', 'u', 's', 'sub', 'sup',
  'blockquote', 'pre', 'code', 'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
  'caption', 'colgroup', 'col', 'a', 'img', 'span', 'div', 'mark',
];

// `style` is allowed only to carry the editor's text alignment (the hook below drops the rest):
// arbitrary CSS could overlay the page or load remote resources.
export const ALLOWED_ATTR = ['href', 'src', 'alt', 'title', 'colspan', 'rowspan', 'style', 'target', 'rel'];

/**
 * DOMPurify tests every attribute value that is not URI-safe against this pattern, so it has the
 * shape of DOMPurify's default (values without a scheme pass) but admits no scheme other than
 * http(s) and mailto. Links and image sources are then held to the stricter rules below.
 */
export const ALLOWED_URI_REGEXP = /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;
/** Links: http(s), mailto, and files served by this server. */
const LINK_HREF = /^(?:https?:\/\/|mailto:|\/files\/)/i;
/** Images: http(s) and files served by this server. */
const IMAGE_SRC = /^(?:https?:\/\/|\/files\/)/i;
const TEXT_ALIGN = /(?:^|;)\s*text-align\s*:\s*(left|right|center|justify)\s*(?:;|$)/i;

export const SANITIZE_CONFIG: Config = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOWED_URI_REGEXP,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
};

const prepared = new WeakSet<DOMPurify>();

function addHooks(purify: DOMPurify): void {
  if (prepared.has(purify)) return;
  prepared.add(purify);
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    if (data.attrName === 'style') {
      const align = TEXT_ALIGN.exec(data.attrValue)?.[1];
      if (align) data.attrValue = `text-align: ${align.toLowerCase()}`;
      else data.keepAttr = false;
    }
  });
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.hasAttribute('href') && (node.nodeName !== 'A' || !LINK_HREF.test(node.getAttribute('href') ?? ''))) {
      node.removeAttribute('href');
    }
    if (node.hasAttribute('src') && node.nodeName !== 'IMG') node.removeAttribute('src');
    if (node.nodeName === 'A' && node.hasAttribute('href')) {
      // Links open outside the admin, without handing it to the opened page.
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    } else if (node.nodeName === 'A') {
      node.removeAttribute('target');
      node.removeAttribute('rel');
    }
    if (node.nodeName === 'IMG' && !IMAGE_SRC.test(node.getAttribute('src') ?? '')) node.remove();
    if (node.nodeName !== 'A') {
      node.removeAttribute('target');
      node.removeAttribute('rel');
    }
  });
}

/** A sanitiser over a DOMPurify instance (the browser's, or one over jsdom on the server). */
export function createSanitizer(purify: DOMPurify): (html: string) => string {
  addHooks(purify);
  return (html: string) => purify.sanitize(html, SANITIZE_CONFIG) as string;
}
