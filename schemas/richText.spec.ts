import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { createSanitizer, filterStyle } from './richText';

// The allow-list as the browser uses it: a DOMPurify instance over a window, passed in.
const { window } = new JSDOM('');
const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
const sanitize = createSanitizer(purify);

// Hostile inputs modelled on stored-XSS reports against rich-text admin panels and on DOMPurify's
// own mutation-XSS regressions.
const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  '<a href="&#x6A;&#x61;vascript&colon;alert(1)">x</a>',
  '<a href="java\tscript:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="data:text/html,<script>alert(1)</script>">x</a>',
  '<a href="DATA:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="VbScRiPt:msgbox(1)">x</a>',
  '<svg><script>alert(1)</script></svg>',
  '<svg onload=alert(1)>',
  '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
  '<iframe src="https://evil.example"></iframe>',
  '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>',
  '<form action="https://evil.example"><input name=a><button formaction="javascript:alert(1)">go</button></form>',
  '<meta http-equiv="refresh" content="0;url=https://evil.example">',
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '<style>body{display:none}</style>',
  '<p style="position:fixed;top:0;background:url(https://evil.example/x)">x</p>',
  '<p style="color: red; background-image: url(javascript:alert(1))">x</p>',
  '<p style="color: expression(alert(1))">x</p>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;img src=1 onerror=alert(1)&gt;">',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>',
  '<object data="x.swf"></object><embed src="x.swf">',
  '<base href="https://evil.example/">',
  '<div onclick="alert(1)" onmouseover="alert(2)">x</div>',
  '<img src="javascript:alert(1)">',
  '<img src="data:image/svg+xml;base64,PHN2Zz4=">',
  '<img src="/Ajax/Logout">',
  '<img src="/files/../Ajax/Logout">',
  '<a href="https://ok.example" onclick="alert(1)">ok</a>',
  '<a href="https://ok.example" target="_self" rel="opener">ok</a>',
  '<details open ontoggle=alert(1)>',
  '<template><img src=x onerror=alert(1)></template>',
  '<p id="__proto__" name="body" class="MuiDialog-root">x</p>',
  '<p title="a/>b">x</p>',
];

const FORBIDDEN_TAG = /<\/?(script|style|iframe|object|embed|form|input|button|meta|link|base|svg|math|details|template|noscript)\b/i;

describe('createSanitizer: hostile input', () => {
  it.each(HOSTILE)('leaves nothing executable in %s', (html) => {
    const out = sanitize(html);
    expect(out).not.toMatch(FORBIDDEN_TAG);
    expect(out).not.toMatch(/\son\w+\s*=/i);
    expect(out).not.toMatch(/javascript|vbscript|data:|expression/i);
    expect(out).not.toMatch(/position\s*:|url\(|background-image/i);
    expect(out).not.toMatch(/\s(id|name|class|target="_self"|rel="opener")\b/i);
    // What leaves the server is parsed again by the browser: that parse must be just as clean.
    const reparsed = new JSDOM(`<body>${out}</body>`).window.document.body;
    expect(reparsed.querySelector('script,style,iframe,svg,math,form,input,meta,link,base')).toBeNull();
    for (const el of reparsed.querySelectorAll('*')) {
      for (const attr of el.attributes) expect(attr.name).not.toMatch(/^on/i);
    }
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
    for (const html of [...HOSTILE, GOOD]) {
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
