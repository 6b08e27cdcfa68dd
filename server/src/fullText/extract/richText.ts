// The plain text of stored rich text (the editor's HTML, sanitised on the way in), parsed by parse5
// as the browser would (the parser jsdom uses, resolved through jsdom as
// server/src/richTextSanitizer.ts does), without a DOM: linear and quick enough to run anywhere.
import { createRequire } from 'node:module';
import type * as Parse5 from 'parse5';
import type { DefaultTreeAdapterTypes as P5 } from 'parse5';
import { normalizeText } from './normalize';

/** Elements that end a line of text: blocks, cells and list items (separate paragraphs here), and <br>. */
const BREAKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'caption', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure',
  'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section',
  'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul',
]);
/** Elements whose content is not shown as text (the sanitiser drops most of them anyway). */
const HIDDEN = new Set(['script', 'style', 'template', 'noscript', 'title', 'head', 'svg', 'math', 'iframe', 'object', 'audio', 'video', 'textarea', 'select']);

let parse5: typeof Parse5 | undefined;
function loadParse5(): typeof Parse5 {
  if (!parse5) {
    const require = createRequire(import.meta.url);
    // jsdom's own parse5 (an ES module, which Node ≥ 20.19 loads with require).
    parse5 = createRequire(require.resolve('jsdom'))('parse5') as typeof Parse5;
  }
  return parse5;
}

/**
 * The text a reader sees in a rich-text body, normalised (normalizeText): each block, cell, list
 * item and line break (<br>) is a paragraph of its own ("\n\n" between), so words of two
 * paragraphs never run together.
 */
export function richTextToText(html: string): string {
  if (!html) return '';
  const parts: string[] = [];
  // Depth-first with a stack of its own (no recursion, however deep the nesting); null marks the
  // end of a block.
  const stack: (P5.ChildNode | null)[] = loadParse5().parseFragment(html).childNodes.slice().reverse();
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null) {
      parts.push('\n\n');
    } else if (node?.nodeName === '#text') {
      parts.push((node as P5.TextNode).value);
    } else if (node && 'tagName' in node && !HIDDEN.has(node.tagName)) {
      if (BREAKS.has(node.tagName)) {
        parts.push('\n\n');
        stack.push(null);
      }
      for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]!);
    }
  }
  return normalizeText(parts.join(''));
}
