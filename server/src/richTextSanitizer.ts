// Sanitises rich text in the calling thread: the rich-text worker's work (server/src/richText.ts
// runs it there, off the event loop). The shared allow-list (schemas/richText.ts) is applied by
// DOMPurify over one jsdom window, made on first use: jsdom takes some 50 MB, which only the worker
// pays, and only once rich text is written.
//
// DOMPurify over jsdom is not linear in its input, for two reasons in jsdom:
// - every node inserted walks its ancestors (a pre-insertion check, mutation bookkeeping), and
//   DOMPurify reads each element's textContent: deep nesting costs nodes × depth;
// - every node removed or unwrapped costs as much as the siblings before it (jsdom recomputes the
//   child's index and rebuilds its parent's live childNodes list on each change): DOMPurify
//   removing thousands of nodes from one parent (comments, unknown tags, images without a source)
//   costs removals × siblings. 25,000 `<x-a>` took 44 s, 9,000 `<img src=x>` 14 s.
// So before DOMPurify, the HTML is parsed once by parse5 (the parser jsdom itself uses, resolved
// through jsdom so that both parse alike), refused past RICH_TEXT_MAX_DEPTH or RICH_TEXT_MAX_NODES
// while it is parsed, and stripped in one linear pass of what DOMPurify would remove anyway:
// comments, elements outside ALLOWED_TAGS (unwrapped, or dropped with their content when
// DROPPED_WITH_CONTENT), attributes outside ALLOWED_ATTR, images without an allowed source. The
// result is serialised and handed to DOMPurify, which then removes (almost) nothing: its cost is
// linear. DOMPurify stays the authority: the pre-pass only saves it work, and is tested to change
// no output (richTextSanitizer.spec.ts).
import { createRequire } from 'node:module';
import createDOMPurify from 'dompurify';
import type * as Parse5 from 'parse5';
import type { DefaultTreeAdapterTypes as P5 } from 'parse5';
import {
  ALLOWED_ATTR,
  ALLOWED_TAGS,
  DROPPED_WITH_CONTENT,
  RICH_TEXT_MAX_DEPTH,
  RICH_TEXT_MAX_NODES,
  createSanitizer,
  imageSourceAllowed,
} from '../../schemas/richText';

/** Why rich text is refused without being sanitised. */
export type RichTextRefusal = 'depth' | 'nodes';

export type SanitizeOutcome = { html: string } | { refused: RichTextRefusal };

class Refused extends Error {
  constructor(readonly reason: RichTextRefusal) {
    super(reason);
  }
}

const HTML_NS = 'http://www.w3.org/1999/xhtml';
const KEPT_TAGS = new Set(ALLOWED_TAGS);
const KEPT_ATTRS = new Set(ALLOWED_ATTR);
const DROPPED = new Set(DROPPED_WITH_CONTENT);
/** What DOMPurify puts back before the content: the HTML parser drops leading whitespace. */
const LEADING_WHITESPACE = /^[\r\n\t ]+/;

interface Tools {
  parse5: typeof Parse5;
  sanitize: (html: string) => string;
}
let tools: Tools | undefined;

/** Loads jsdom, DOMPurify and parse5 (the worker calls this as it starts, before its first job). */
export function loadSanitizer(): Tools {
  if (!tools) {
    const require = createRequire(import.meta.url);
    const { JSDOM } = require('jsdom') as typeof import('jsdom');
    // jsdom's own parse5 (an ES module, which Node ≥ 20.19 loads with require).
    const parse5 = createRequire(require.resolve('jsdom'))('parse5') as typeof Parse5;
    const { window } = new JSDOM('');
    const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
    tools = { parse5, sanitize: createSanitizer(purify) };
  }
  return tools;
}

/**
 * parse5's default tree, counting the nodes it creates and checking the depth of each element
 * inserted (an ancestor walk, stopped at the limit: at most RICH_TEXT_MAX_DEPTH steps). Either
 * limit throws at once, so no input makes the parser build more than the limits allow. (The parser
 * may later move a subtree deeper, misnested formatting: the walk over the finished tree in
 * keptChildren checks the depth again, exactly.)
 */
function limitedTreeAdapter(parse5: typeof Parse5): typeof parse5.defaultTreeAdapter {
  const base = parse5.defaultTreeAdapter;
  // A template's content is a fragment of its own: its depth continues from the template.
  const hosts = new WeakMap<P5.ParentNode, P5.ParentNode>();
  // Every document has html, head and body: the limit counts the content's nodes.
  let nodes = -3;
  const count = () => {
    if (++nodes > RICH_TEXT_MAX_NODES) throw new Refused('nodes');
  };
  // Elements above an element inserted into `parent`: html, body, then the content's own. A
  // top-level element of the content has 2 (html, body), one nested n deep has n + 1.
  const checkDepth = (parent: P5.ParentNode, node: P5.ChildNode) => {
    if (!('tagName' in node)) return;
    let depth = 0;
    for (let above: P5.ParentNode | null | undefined = parent; above; ) {
      if ('tagName' in above && ++depth > RICH_TEXT_MAX_DEPTH + 1) throw new Refused('depth');
      above = 'parentNode' in above && above.parentNode ? above.parentNode : hosts.get(above);
    }
  };
  return {
    ...base,
    createElement(tagName, namespaceURI, attrs) {
      count();
      return base.createElement(tagName, namespaceURI, attrs);
    },
    createCommentNode(data) {
      count();
      return base.createCommentNode(data);
    },
    appendChild(parent, node) {
      checkDepth(parent, node);
      base.appendChild(parent, node);
    },
    insertBefore(parent, node, reference) {
      checkDepth(parent, node);
      base.insertBefore(parent, node, reference);
    },
    insertText(parent, text) {
      const last = parent.childNodes[parent.childNodes.length - 1];
      if (!last || !base.isTextNode(last)) count();
      base.insertText(parent, text);
    },
    insertTextBefore(parent, text, reference) {
      count();
      base.insertTextBefore(parent, text, reference);
    },
    setTemplateContent(template, content) {
      hosts.set(content, template);
      base.setTemplateContent(template, content);
    },
  };
}

const isElement = (node: P5.ChildNode): node is P5.Element => 'tagName' in node;

/** Markup-like text (DOMPurify's ELEMENT_MARKUP_PROBE). */
const MARKUP = /<[/\w!]/;

/**
 * DOMPurify's SAFE_FOR_XML rule, which comes before the allow-list: an element holding only text
 * and comments, whose text looks like markup, goes with its content (a comment beside such text
 * is a known mutation-XSS ingredient). Applied here because the comments go below.
 */
function markupInText(element: P5.Element): boolean {
  let text = '';
  let comment = false;
  for (const child of element.childNodes) {
    if (isElement(child)) return false;
    if (child.nodeName === '#text') text += (child as P5.TextNode).value;
    else if (child.nodeName === '#comment') comment = true;
  }
  return comment && MARKUP.test(text);
}

/**
 * The children to keep in place of `node`'s, as DOMPurify with the shared config would leave them
 * (attribute values aside: those are DOMPurify's). `depth` is that of `node`'s children (1 for the
 * body's); the recursion stops at the depth limit.
 */
function keptChildren(node: P5.ParentNode, depth: number): P5.ChildNode[] {
  const kept: P5.ChildNode[] = [];
  for (const child of node.childNodes) {
    if (isElement(child) && depth > RICH_TEXT_MAX_DEPTH) throw new Refused('depth');
    if (child.nodeName === '#text') {
      kept.push(child);
    } else if (isElement(child)) {
      const tag = child.tagName.toLowerCase();
      if (markupInText(child)) continue;
      if (child.namespaceURI === HTML_NS && KEPT_TAGS.has(tag)) {
        if (tag === 'img') {
          // DOMPurify trims a value before the hook sees it; the hook drops an image without a source.
          const src = child.attrs.find((a) => a.name === 'src' && !a.namespace);
          if (!src || !imageSourceAllowed(src.value.trim())) continue;
        }
        child.attrs = child.attrs.filter((a) => !a.namespace && !a.prefix && KEPT_ATTRS.has(a.name));
        child.childNodes = keptChildren(child, depth + 1);
        for (const grandchild of child.childNodes) grandchild.parentNode = child;
        // The parser drops a newline right after <pre>, and the serialiser does not write it back:
        // a <pre> whose text starts with a newline needs one more to keep it when parsed again.
        const first = child.childNodes[0];
        if (tag === 'pre' && first?.nodeName === '#text' && (first as P5.TextNode).value.startsWith('\n')) {
          (first as P5.TextNode).value = `\n${(first as P5.TextNode).value}`;
        }
        kept.push(child);
      } else if (!DROPPED.has(tag) && child.namespaceURI === HTML_NS) {
        // Unwrapped: its content takes its place (DOMPurify's KEEP_CONTENT).
        for (const grandchild of keptChildren(child, depth + 1)) kept.push(grandchild);
      }
      // Anything else goes with its content: the dropped elements, and SVG or MathML (only found
      // inside <svg> or <math>, which are dropped).
    }
    // Comments go; a document type or a processing instruction never reaches the body.
  }
  return kept;
}

/** The HTML to give DOMPurify: the same result, for (almost) no removals. Throws `Refused`. */
function prepare(parse5: typeof Parse5, html: string): string {
  const document = parse5.parse(html, { treeAdapter: limitedTreeAdapter(parse5), scriptingEnabled: false });
  // Only the body is kept (DOMPurify returns body.innerHTML); a frameset document has none.
  const root = document.childNodes.find((n) => isElement(n) && n.tagName === 'html') as P5.Element | undefined;
  const body = root?.childNodes.find((n) => isElement(n) && n.tagName === 'body') as P5.Element | undefined;
  if (!body) return '';
  body.childNodes = keptChildren(body, 1);
  return (LEADING_WHITESPACE.exec(html)?.[0] ?? '') + parse5.serialize(body);
}

/** The pre-pass alone: what DOMPurify is given (exported for its tests), or why it is refused. */
export function prepareHere(html: string): SanitizeOutcome {
  const { parse5 } = loadSanitizer();
  try {
    return { html: prepare(parse5, html) };
  } catch (err) {
    if (err instanceof Refused) return { refused: err.reason };
    throw err;
  }
}

/** Sanitised HTML, or why it is refused. Linear in the input (see the top of this file). */
export function sanitizeHere(html: string): SanitizeOutcome {
  const { sanitize } = loadSanitizer();
  // No markup at all: DOMPurify returns such text as it is.
  if (!html.includes('<')) return { html: sanitize(html) };
  const prepared = prepareHere(html);
  return 'html' in prepared ? { html: sanitize(prepared.html) } : prepared;
}
