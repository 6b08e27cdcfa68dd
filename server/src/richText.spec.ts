import { describe, expect, it } from 'vitest';
import { richTextIsEmpty, sanitizeRichText } from './richText';

// Hostile inputs modelled on stored-XSS reports against rich-text admin panels.
const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  '<a href="java\tscript:alert(1)">x</a>',
  '<a href="data:text/html,<script>alert(1)</script>">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<svg><script>alert(1)</script></svg>',
  '<svg onload=alert(1)>',
  '<iframe src="https://evil.example"></iframe>',
  '<form action="https://evil.example"><input name=a><button>go</button></form>',
  '<meta http-equiv="refresh" content="0;url=https://evil.example">',
  '<style>body{display:none}</style>',
  '<p style="position:fixed;top:0;background:url(https://evil.example/x)">x</p>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<object data="x.swf"></object><embed src="x.swf">',
  '<base href="https://evil.example/">',
  '<div onclick="alert(1)" onmouseover="alert(2)">x</div>',
  '<img src="javascript:alert(1)">',
  '<img src="data:image/svg+xml;base64,PHN2Zz4=">',
  '<a href="https://ok.example" onclick="alert(1)">ok</a>',
  '<details open ontoggle=alert(1)>',
];

describe('sanitizeRichText', () => {
  it.each(HOSTILE)('leaves nothing executable in %s', (html) => {
    const out = sanitizeRichText(html);
    expect(out).not.toMatch(/<(script|style|iframe|form|input|button|meta|svg|math|object|embed|base|details)\b/i);
    expect(out).not.toMatch(/\son\w+\s*=/i);
    expect(out).not.toMatch(/javascript:|vbscript:|data:/i);
    expect(out).not.toMatch(/position\s*:|url\(/i);
  });

  it('is idempotent over the whole corpus and good content', () => {
    for (const html of [...HOSTILE, GOOD]) {
      const once = sanitizeRichText(html);
      expect(sanitizeRichText(once)).toBe(once);
    }
  });

  const GOOD =
    '<h2>总则</h2><p style="text-align: center">第一条 <strong>加粗</strong><em>斜体</em><u>下划线</u></p>' +
    '<ul><li>一</li><li>二</li></ul><ol><li>甲</li></ol>' +
    '<table><tbody><tr><th>项目</th><td colspan="2">金额</td></tr></tbody></table>' +
    '<p><a href="https://www.gov.cn/">政府网</a> <img src="https://cdn.example.com/a.png" alt="图"> <img src="/files/image/2026/01/a.png"></p>';

  it('keeps Chinese text, formatting, lists, tables, alignment, links and images', () => {
    const out = sanitizeRichText(GOOD);
    for (const kept of ['<h2>总则</h2>', '<strong>加粗</strong>', '<em>斜体</em>', '<u>下划线</u>', '<li>一</li>', '<ol>', 'colspan="2"', 'style="text-align: center"', 'src="/files/image/2026/01/a.png"', 'alt="图"']) {
      expect(out).toContain(kept);
    }
    expect(out).toMatch(/<a href="https:\/\/www\.gov\.cn\/"[^>]*target="_blank"/);
    expect(out).toContain('rel="noopener noreferrer"');
  });

  it('keeps only http(s), mailto and stored-file links', () => {
    expect(sanitizeRichText('<a href="/Ajax/Logout">x</a>')).toBe('<a>x</a>');
    expect(sanitizeRichText('<a href="relative/page">x</a>')).toBe('<a>x</a>');
    expect(sanitizeRichText('<a href="mailto:a@b.cn">x</a>')).toContain('href="mailto:a@b.cn"');
    expect(sanitizeRichText('<a href="/files/handout/2026/01/a.pdf">x</a>')).toContain('href="/files/handout/2026/01/a.pdf"');
  });

  it('drops a link target the author chose and keeps only alignment from styles', () => {
    expect(sanitizeRichText('<p style="color:red; text-align:right">x</p>')).toBe('<p style="text-align: right">x</p>');
    expect(sanitizeRichText('<span target="_top">x</span>')).toBe('<span>x</span>');
  });
});

describe('richTextIsEmpty', () => {
  it.each(['', '<p></p>', '<p><br></p>', '<p>&nbsp; </p>', '<script>alert(1)</script>', '<img src=x onerror=alert(1)>'])(
    'treats %s as empty',
    (html) => expect(richTextIsEmpty(html)).toBe(true),
  );
  it.each(['<p>好</p>', '<p><img src="https://e.com/a.png"></p>'])('treats %s as content', (html) =>
    expect(richTextIsEmpty(html)).toBe(false),
  );
});
