import { JSDOM } from 'jsdom';
import { afterAll, describe, expect, it } from 'vitest';
import { GOOD_RICH_TEXT, XSS_PAYLOADS } from '../../tests/helpers/xssCorpus';
import { RICH_TEXT_MAX_DEPTH } from '../../schemas/richText';
import {
  MSG_TOO_COMPLEX,
  MSG_TOO_DEEP,
  MSG_TOO_MANY_NODES,
  RichTextRefused,
  richTextWorkerLimits,
  richTextIsEmpty,
  richTextPlainText,
  sanitizeRichText,
  stopRichTextWorker,
} from './richText';

afterAll(() => stopRichTextWorker());

// The allow-list itself is tested in schemas/richText.spec.ts, the sanitising pipeline in
// richTextSanitizer.spec.ts; here, the server's use of them through the worker thread.
describe('sanitizeRichText (in the worker)', () => {
  it('applies the shared allow-list on the server', async () => {
    expect(await sanitizeRichText('<p style="text-align: center" onclick="x()">好<script>alert(1)</script></p>')).toBe(
      '<p style="text-align: center">好</p>',
    );
    expect(await sanitizeRichText('<a href="https://www.gov.cn/">政府网</a>')).toBe(
      '<a href="https://www.gov.cn/" target="_blank" rel="noopener noreferrer">政府网</a>',
    );
    expect(await sanitizeRichText('<a href="JaVaScRiPt:alert(1)">x</a><img src=x onerror=alert(1)>')).toBe('<a>x</a>');
  });

  it('answers texts asked at once, each with its own result, in order', async () => {
    const texts = Array.from({ length: 20 }, (_, i) => `<p>第${i}段<script>x()</script></p>`);
    expect(await Promise.all(texts.map((t) => sanitizeRichText(t)))).toEqual(texts.map((_, i) => `<p>第${i}段</p>`));
  });

  it('refuses deep nesting and too many nodes with a Chinese reason, and goes on working', async () => {
    const nested = (n: number) => '<b>'.repeat(n) + 'x' + '</b>'.repeat(n);
    await expect(sanitizeRichText(nested(RICH_TEXT_MAX_DEPTH))).resolves.toBe(nested(RICH_TEXT_MAX_DEPTH));
    await expect(sanitizeRichText(nested(5000))).rejects.toEqual(new RichTextRefused(MSG_TOO_DEEP));
    // Misnested formatting the parser reopens in every paragraph: 40 elements for each <p>x</p>.
    const reopened = '<div>' + Array.from({ length: 40 }, (_, i) => `<b title="${i}">`).join('') + '</div>' + '<p>x</p>'.repeat(2000);
    const refused = sanitizeRichText(reopened);
    await expect(refused).rejects.toBeInstanceOf(RichTextRefused);
    await expect(refused).rejects.toThrow(MSG_TOO_MANY_NODES);
    expect(await sanitizeRichText('<p>好</p>')).toBe('<p>好</p>');
  });

  it('starts again after being stopped', async () => {
    await stopRichTextWorker();
    expect(await sanitizeRichText('<p>再来</p>')).toBe('<p>再来</p>');
  });

  it('refuses a text past its time limit, stopping the worker, and answers the next in a new one', async () => {
    const long = '<p><strong>第1条</strong> 为了加强管理，<a href="https://www.gov.cn/">依法</a>制定本条例。</p>'.repeat(1500);
    expect(await sanitizeRichText('<p>热身</p>')).toBe('<p>热身</p>');
    const { jobMs } = richTextWorkerLimits;
    richTextWorkerLimits.jobMs = 1;
    try {
      const [late, queued] = [sanitizeRichText(long), sanitizeRichText('<p>排队</p>')];
      await expect(late).rejects.toEqual(new RichTextRefused(MSG_TOO_COMPLEX));
      richTextWorkerLimits.jobMs = jobMs;
      expect(await queued).toBe('<p>排队</p>');
    } finally {
      richTextWorkerLimits.jobMs = jobMs;
    }
  });
});

describe('richTextIsEmpty (of sanitised HTML)', () => {
  it.each([
    '',
    '<p></p>',
    '<p><br></p>',
    '<p>   </p>',
    '<p>&nbsp; </p>',
    '<p>\u200b</p>',
    '<p><strong> </strong></p><p><br></p>',
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<style>p{}</style>',
  ])('treats %j as empty once sanitised', async (html) => expect(richTextIsEmpty(await sanitizeRichText(html))).toBe(true));

  it.each(['<p>好</p>', '<p>0</p>', '<p><img src="https://e.com/a.png"></p>', '<p><img src="/files/image/a.png"></p>', '<p>&lt;</p>', '<p>&amp;</p>'])(
    'treats %j as content',
    async (html) => expect(richTextIsEmpty(await sanitizeRichText(html))).toBe(false),
  );
});

// The reading before the worker (jsdom on the event loop), kept here as the reference.
const { window } = new JSDOM('');
function domPlainText(html: string): string {
  const template = window.document.createElement('template');
  template.innerHTML = html;
  for (const el of template.content.querySelectorAll('p, div, li, br, tr, td, th, h1, h2, h3, h4, h5, h6, blockquote, pre')) {
    el.append(window.document.createTextNode(' '));
  }
  return (template.content.textContent ?? '').replace(/[\s\u200b-\u200d\u2060]+/g, ' ').trim();
}
function domIsEmpty(html: string): boolean {
  const template = window.document.createElement('template');
  template.innerHTML = html;
  if (template.content.querySelector('img')) return false;
  return (template.content.textContent ?? '').replace(/[\s\u200b-\u200d\u2060]/g, '') === '';
}

describe('richTextPlainText and richTextIsEmpty: a linear scan, read as the DOM reads', () => {
  const corpus = [GOOD_RICH_TEXT, ...XSS_PAYLOADS.map((p) => `<p>正文</p>${p.html}`)];

  it('agree with the DOM on every sanitised text of the XSS corpus', async () => {
    for (const raw of corpus) {
      const html = await sanitizeRichText(raw);
      expect(richTextPlainText(html), html).toBe(domPlainText(html));
      expect(richTextIsEmpty(html), html).toBe(domIsEmpty(html));
    }
  });

  it('read entities, quoted ">" and blocks', () => {
    const html = '<h2>标题</h2><p title="a>b">甲&amp;乙&lt;丙&gt;&nbsp;丁<br>戊</p><ul><li><p>一</p></li><li><p>二</p></li></ul><table><tbody><tr><td>1</td><td>2</td></tr></tbody></table>';
    expect(richTextPlainText(html)).toBe(domPlainText(html));
    expect(richTextPlainText(html)).toBe('标题 甲&乙<丙> 丁 戊 一 二 1 2');
  });

  it('leave out what is not shown in unsanitised text too (scripts, styles, comments)', () => {
    expect(richTextPlainText('<p>一</p><p>二<script>x("</p>")</script></p><!-- 注释 --><style>p{}</style>')).toBe('一 二');
  });

  it('read the longest text allowed in a few milliseconds', () => {
    const html = '<p><strong>第1条</strong> 为了加强管理，<a href="https://www.gov.cn/">依法</a>制定本条例。</p>'.repeat(1500);
    const started = performance.now();
    expect(richTextPlainText(html).length).toBeGreaterThan(20000);
    expect(richTextIsEmpty(html)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
