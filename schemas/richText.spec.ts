import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { GOOD_RICH_TEXT, inertnessProblems, TRANSFORMATION_PAYLOADS, XSS_PAYLOADS } from '../tests/helpers/xssCorpus';
import { createSanitizer, filterStyle } from './richText';

// The allow-list as the browser uses it: a DOMPurify instance over a window, passed in.
const { window } = new JSDOM('');
const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
const sanitize = createSanitizer(purify);

// The shared corpus (tests/helpers/xssCorpus.ts), plus a few inputs checked here by exact result.
const HOSTILE = [
  ...XSS_PAYLOADS.map((p) => p.html),
  '<a href="https://ok.example" onclick="alert(1)">ok</a>',
  '<p id="__proto__" name="body" class="MuiDialog-root">x</p>',
  '<p title="a/>b">x</p>',
];

const FORBIDDEN_TAG = /<\/?(script|style|iframe|object|embed|form|input|button|meta|link|base|svg|math|details|template|noscript)\b/i;

describe('createSanitizer: hostile input', () => {
  it.each(HOSTILE)('leaves nothing executable in %s', (html) => {
    const out = sanitize(html);
    expect(out).not.toMatch(FORBIDDEN_TAG);
    expect(out).not.toMatch(/\son\w+\s*=/i);
    // Attribute values only: a payload's words may survive as harmless text.
    expect(out).not.toMatch(/="[^"]*(javascript|vbscript|data:|expression)/i);
    expect(out).not.toMatch(/position\s*:|url\(|background-image/i);
    expect(out).not.toMatch(/\s(id|name|class|target="_self"|rel="opener")\b/i);
    // What leaves the server is parsed again by the browser (twice, for mutation XSS): just as clean.
    expect(inertnessProblems(out)).toEqual([]);
  });

  it('has a check that finds every raw payload dangerous (so its silence above means something)', () => {
    const missed = XSS_PAYLOADS.filter((p) => inertnessProblems(p.html).length === 0).map((p) => p.id);
    expect(missed).toEqual([...TRANSFORMATION_PAYLOADS]);
  });

  it('keeps Chinese text, bold and lists of the corpus good content', () => {
    expect(sanitize(GOOD_RICH_TEXT)).toBe(GOOD_RICH_TEXT);
  });

  it('gives exact results for the classic payloads', () => {
    expect(sanitize('<img src=x onerror=alert(1)>')).toBe('');
    expect(sanitize('<a href="JaVaScRiPt:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitize('<a href="&#106;avascript:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitize('<a href="data:text/html,<script>alert(1)</script>">x</a>')).toBe('<a>x</a>');
    expect(sanitize('<svg><script>alert(1)</script></svg>')).toBe('');
    expect(sanitize('<iframe src="https://evil.example"></iframe>')).toBe('');
    expect(sanitize('<meta http-equiv="refresh" content="0;url=https://evil.example">')).toBe('');
    expect(sanitize('<style>body{display:none}</style>')).toBe('');
    expect(sanitize('<p onclick="alert(1)">文本</p>')).toBe('<p>文本</p>');
  });
});

const GOOD =
  '<h2>总则</h2><p style="text-align: center">第一条 <strong>加粗</strong><em>斜体</em><u>下划线</u><s>删除</s>' +
  'H<sub>2</sub>O x<sup>2</sup><br><mark style="color: inherit; background-color: #ffc078">高亮</mark>' +
  '<span style="color: #958df1">彩色</span></p><hr><blockquote><p>引用</p></blockquote><pre><code>code()</code></pre>' +
  '<ul><li><p>一</p></li><li>二</li></ul><ol><li>甲</li></ol>' +
  '<table><caption>费用表</caption><colgroup><col></colgroup><thead><tr><th>项目</th><th>说明</th></tr></thead>' +
  '<tbody><tr><td colspan="2" rowspan="1">金额</td></tr></tbody></table>' +
  '<p><a href="https://www.gov.cn/">政府网</a> <a href="mailto:office@example.cn">邮件</a> ' +
  '<img src="https://cdn.example.com/a.png" alt="图" title="标题" width="300" height="200"> <img src="/files/image/2026/01/a.png"></p>' +
  '<h1>一</h1><h3>三</h3><h4>四</h4><h5>五</h5><h6>六</h6><div><b>粗</b><i>斜</i></div>';

describe('createSanitizer: editor content', () => {
  it('keeps Chinese text, formatting, lists, tables, alignment, colours and images as they are', () => {
    const out = sanitize(GOOD);
    // The only change to good content is on links: target and rel are added.
    const expected = GOOD.replace(
      /<a href="([^"]+)">/g,
      '<a href="$1" target="_blank" rel="noopener noreferrer">',
    );
    expect(out).toBe(expected);
  });

  it('adds target and rel to every kept link, and drops those the author chose', () => {
    expect(sanitize('<a href="https://e.com/" target="_top" rel="opener">x</a>')).toBe(
      '<a href="https://e.com/" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitize('<a href="/files/handout/2026/01/a.pdf">x</a>')).toContain('target="_blank"');
    expect(sanitize('<a target="_blank">x</a>')).toBe('<a>x</a>');
    expect(sanitize('<span target="_top" rel="x">x</span>')).toBe('<span>x</span>');
  });

  it('keeps only http(s), mailto and stored-file links', () => {
    expect(sanitize('<a href="/Ajax/Logout">x</a>')).toBe('<a>x</a>');
    expect(sanitize('<a href="/files/../Ajax/Logout">x</a>')).toBe('<a>x</a>');
    expect(sanitize('<a href="relative/page">x</a>')).toBe('<a>x</a>');
    expect(sanitize('<a href="//evil.example/">x</a>')).toBe('<a>x</a>');
    expect(sanitize('<a href="ftp://e.com/a">x</a>')).toBe('<a>x</a>');
    expect(sanitize('<a href="HTTPS://E.COM/">x</a>')).toContain('href="HTTPS://E.COM/"');
  });

  it('keeps images only from http(s) and stored files', () => {
    expect(sanitize('<img src="http://e.com/a.png">')).toBe('<img src="http://e.com/a.png">');
    expect(sanitize('<img src="/files/a.png">')).toBe('<img src="/files/a.png">');
    expect(sanitize('<img src="a.png">')).toBe('');
    expect(sanitize('<img src="//e.com/a.png">')).toBe('');
    expect(sanitize('<img src="https://e.com/a.png" width="100%">')).toBe('<img src="https://e.com/a.png">');
  });

  it('keeps alignment and colours from styles, and nothing else', () => {
    // TipTap's Highlight writes background first; the kept declarations come back in a fixed order.
    expect(sanitize('<mark style="background-color: #ffc078; color: inherit">x</mark>')).toBe(
      '<mark style="color: inherit; background-color: #ffc078">x</mark>',
    );
    expect(sanitize('<p style="color:RED; text-align:right; font-size: 80px">x</p>')).toBe(
      '<p style="text-align: right; color: red">x</p>',
    );
    expect(sanitize('<p style="text-align: start">x</p>')).toBe('<p>x</p>');
    expect(sanitize('<h3 style="TEXT-ALIGN: Justify">x</h3>')).toBe('<h3 style="text-align: justify">x</h3>');
  });

  it('is idempotent over the whole corpus and good content', () => {
    for (const html of [...HOSTILE, GOOD, GOOD_RICH_TEXT]) {
      const once = sanitize(html);
      expect(sanitize(once)).toBe(once);
    }
  });

  it('leaves the instance unchanged for other users of it', () => {
    // The browser's DOMPurify is shared: outside our sanitiser, its default behaviour is intact.
    expect(purify.sanitize('<p style="font-weight: bold" class="c">x</p>')).toBe('<p style="font-weight: bold" class="c">x</p>');
    expect(purify.sanitize('<a href="/Ajax/x">x</a>')).toBe('<a href="/Ajax/x">x</a>');
  });

  it('builds its hooks once per instance', () => {
    const again = createSanitizer(purify);
    expect(again('<a href="https://e.com/">x</a>')).toBe(sanitize('<a href="https://e.com/">x</a>'));
  });
});

describe('filterStyle', () => {
  it.each([
    ['text-align: center', 'text-align: center'],
    ['color: rgb(1, 2, 3); text-align: left', 'text-align: left; color: rgb(1, 2, 3)'],
    ['background-color: rgba(255,0,0,0.5)', 'background-color: rgba(255,0,0,0.5)'],
    ['color: #ABC', 'color: #abc'],
    ['color: red !important', ''],
    ['color: var(--x)', ''],
    ['text-align: center; text-align: right', 'text-align: right'],
    ['background: url(x)', ''],
    ['', ''],
  ])('turns %j into %j', (input, output) => expect(filterStyle(input)).toBe(output));
});
