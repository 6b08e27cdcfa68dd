// The one allow-list for rich text (comments, questions, answers, article content), used by the
// server on write and by the admin app again on display. Built on DOMPurify, which parses like a
// browser (so mutation XSS tricks are handled by the library, not by hand-written parsing).
// This module never imports jsdom: the caller passes a DOMPurify instance (the browser's, or one
// made over a jsdom window on the server, see server/src/richTextSanitizer.ts).
import type { Config, DOMPurify, UponSanitizeAttributeHookEvent } from 'dompurify';

/**
 * The shape the server accepts, besides the length (`maxLength` of schemas/fields.ts): elements
 * nested at most this deep (the editor's content rarely passes 20: each level of a nested list is
 * two, <ul><li>, and marks add a few)…
 */
export const RICH_TEXT_MAX_DEPTH = 100;
/**
 * …and at most this many nodes (elements, text runs, comments) as the HTML parser builds them: one
 * per 4 characters of the longest text allowed, about twice the densest real content (one-line
 * paragraphs or list items, a number per table cell). The parser may build more nodes than the text
 * has tags (misnested formatting is reopened in every later paragraph): this bounds them too.
 */
export const RICH_TEXT_MAX_NODES = 25000;

/**
 * What the editor (TipTap through ra-input-rich-text) produces, minus anything active. Everything
 * else (script, style, iframe, object, embed, form, input, button, meta, link, base, svg, math…)
 * is absent from the list, so DOMPurify removes it.
 */
export const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'b', 'strong', 'i', 'em', 'u', 's', 'sub', 'sup',
  'blockquote', 'pre', 'code', 'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
  'caption', 'colgroup', 'col', 'a', 'img', 'span', 'div', 'mark',
];

/**
 * `style` is allowed, but the hook below rebuilds it from three declarations only: `text-align`
 * (TipTap's TextAlign), `color` and `background-color` (its Color and multicolour Highlight), each
 * with a strict value grammar (keywords, hex, numeric rgb/rgba). Anything else (position, url(),
 * expressions, sizes) is dropped: free CSS could overlay the admin or fetch remote resources.
 * `class` stays out: the app's own classes could be borrowed to disguise content.
 * `target` and `rel` are not accepted from the author; the hook sets them on every kept link.
 */
export const ALLOWED_ATTR = ['href', 'src', 'alt', 'title', 'colspan', 'rowspan', 'width', 'height', 'style'];

/**
 * Elements outside the list go with their content when they are one of these (code, styles,
 * embedded documents and media, SVG and MathML, the document head); any other is replaced by its
 * content (`<font>a</font>` keeps "a"). This is DOMPurify's own default list, written out so that
 * the server's pre-pass (server/src/richTextSanitizer.ts) and DOMPurify apply the same one.
 */
export const DROPPED_WITH_CONTENT = [
  'annotation-xml', 'audio', 'colgroup', 'desc', 'foreignobject', 'head', 'iframe', 'math', 'mi', 'mn',
  'mo', 'ms', 'mtext', 'noembed', 'noframes', 'noscript', 'plaintext', 'script', 'selectedcontent',
  'style', 'svg', 'template', 'thead', 'title', 'video', 'xmp',
];

/**
 * DOMPurify tests every attribute value that is not URI-safe against this pattern, so it keeps the
 * shape of DOMPurify's default (values without a scheme, such as "2" or "noopener", pass) but
 * admits no scheme other than http(s) and mailto. Links and image sources are then held to the
 * stricter rules below.
 */
export const ALLOWED_URI_REGEXP = /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

/** Links: http(s), mailto, and files served by this server. */
const LINK_HREF = /^(?:https?:\/\/[^\s<>"]+|mailto:[^\s<>"]+|\/files\/[A-Za-z0-9._/-]+)$/i;
/** Images: http(s) and files served by this server (no data:, no other paths of the admin). */
const IMAGE_SRC = /^(?:https?:\/\/[^\s<>"]+|\/files\/[A-Za-z0-9._/-]+)$/i;
/** `/files/../Ajax/...` would be resolved by the browser to another path of this origin. */
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;
const localPathOk = (url: string) => !url.startsWith('/') || !DOT_SEGMENT.test(url);
/** Whether an image source is kept; an image without one is removed (so the server removes it early too). */
export const imageSourceAllowed = (src: string) => IMAGE_SRC.test(src) && localPathOk(src);
const SMALL_NUMBER = /^\d{1,4}$/;

const TEXT_ALIGN = /^(?:left|right|center|justify)$/;
const COLOR =
  /^(?:[a-z]{3,20}|#[0-9a-f]{3,4}|#[0-9a-f]{6}|#[0-9a-f]{8}|rgba?\(\s*\d{1,3}%?\s*(?:,\s*\d{1,3}%?\s*){2}(?:,\s*(?:0|1|0?\.\d{1,3})\s*)?\))$/;
/** Kept declarations, in the order they are written back (a fixed order keeps sanitising idempotent). */
const STYLE_RULES: [property: string, value: RegExp][] = [
  ['text-align', TEXT_ALIGN],
  ['color', COLOR],
  ['background-color', COLOR],
];

/** Rebuilds a style attribute from the allowed declarations; '' when none is left. */
export function filterStyle(style: string): string {
  const found = new Map<string, string>();
  for (const declaration of style.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration.slice(colon + 1).trim().toLowerCase();
    const rule = STYLE_RULES.find(([name]) => name === property);
    if (rule && rule[1].test(value)) found.set(property, value);
  }
  return STYLE_RULES.filter(([name]) => found.has(name))
    .map(([name]) => `${name}: ${found.get(name)}`)
    .join('; ');
}

export const SANITIZE_CONFIG: Config = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOWED_URI_REGEXP,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  // `/>` inside attribute values is a known mutation-XSS ingredient; nothing legitimate needs it.
  ALLOW_SELF_CLOSE_IN_ATTR: false,
  FORBID_CONTENTS: DROPPED_WITH_CONTENT,
  RETURN_TRUSTED_TYPE: false,
};

function onAttribute(node: Element, data: UponSanitizeAttributeHookEvent): void {
  const tag = node.nodeName;
  switch (data.attrName) {
    case 'style': {
      const style = filterStyle(data.attrValue);
      if (style) data.attrValue = style;
      else data.keepAttr = false;
      break;
    }
    case 'href':
      data.keepAttr = tag === 'A' && LINK_HREF.test(data.attrValue) && localPathOk(data.attrValue);
      break;
    case 'src':
      data.keepAttr = tag === 'IMG' && imageSourceAllowed(data.attrValue);
      break;
    case 'width':
    case 'height':
      data.keepAttr = tag === 'IMG' && SMALL_NUMBER.test(data.attrValue);
      break;
    case 'colspan':
    case 'rowspan':
      data.keepAttr = (tag === 'TD' || tag === 'TH') && SMALL_NUMBER.test(data.attrValue);
      break;
  }
}

function afterAttributes(node: Element): void {
  if (node.nodeName === 'A' && node.hasAttribute('href')) {
    // Links open outside the admin, without handing it (window.opener, referrer) to the opened page.
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
  // An image without an acceptable source shows nothing: drop the element rather than keep an empty tag.
  if (node.nodeName === 'IMG' && !node.hasAttribute('src')) node.remove();
}

// Hooks belong to a DOMPurify instance, and the browser's default instance is shared (react-admin's
// RichTextField uses it too): the hooks act only while one of our sanitisers is running.
const active = new WeakMap<DOMPurify, { running: boolean }>();

function prepare(purify: DOMPurify): { running: boolean } {
  let state = active.get(purify);
  if (!state) {
    const s = { running: false };
    state = s;
    active.set(purify, s);
    purify.addHook('uponSanitizeAttribute', (node, data) => {
      if (s.running) onAttribute(node, data);
    });
    purify.addHook('afterSanitizeAttributes', (node) => {
      if (s.running) afterAttributes(node);
    });
  }
  return state;
}

/** A sanitiser over a DOMPurify instance (the browser's, or one over jsdom on the server). */
export function createSanitizer(purify: DOMPurify): (html: string) => string {
  const state = prepare(purify);
  return (html: string) => {
    state.running = true;
    try {
      return purify.sanitize(String(html ?? ''), SANITIZE_CONFIG) as string;
    } finally {
      state.running = false;
    }
  };
}
