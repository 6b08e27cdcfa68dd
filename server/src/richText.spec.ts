import { JSDOM } from 'jsdom';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { GOOD_RICH_TEXT, XSS_PAYLOADS } from '../../tests/helpers/xssCorpus';
import { RICH_TEXT_MAX_DEPTH } from '../../schemas/richText';
import {
  MSG_MEMBER_BUSY,
  MSG_SERVER_BUSY,
  MSG_TOO_COMPLEX,
  MSG_TOO_DEEP,
  MSG_TOO_MANY_NODES,
  RICH_TEXT_TEXT_WEIGHT,
  RichTextRefused,
  richTextBacklog,
  richTextQueueLimits,
  richTextWorkerLimits,
  richTextIsEmpty,
  richTextPlainText,
  sanitizeRichText,
  sanitizeRichTexts,
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

describe('the queue: per member, in turn, capped, dropped when the client goes', () => {
  const defaults = { ...richTextQueueLimits };
  afterEach(() => Object.assign(richTextQueueLimits, defaults));

  async function until(check: () => boolean): Promise<void> {
    while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  it("admits a write whole up to the member's share (429) and the process's (503), nothing of a refused one", async () => {
    // Texts of 9 characters, each weighing 9 + RICH_TEXT_TEXT_WEIGHT: a share of two, a total of three.
    const weight = '<p>a1</p>'.length + RICH_TEXT_TEXT_WEIGHT;
    Object.assign(richTextQueueLimits, { perMember: 2 * weight, total: 3 * weight });
    const a = sanitizeRichTexts(['<p>a1</p>', '<p>a2</p>'], { member: 'a' });
    const aAgain = sanitizeRichTexts(['<p>a3</p>'], { member: 'a' });
    const b = sanitizeRichTexts(['<p>b1</p>', '<p>b2</p>'], { member: 'b' });
    const bLong = sanitizeRichTexts([`<p>${'长'.repeat(100)}</p>`], { member: 'b' });
    const b1 = sanitizeRichTexts(['<p>b1</p>'], { member: 'b' });
    const c = sanitizeRichTexts(['<p>c1</p>'], { member: 'c' });
    await expect(aAgain).rejects.toMatchObject({ status: 429, message: MSG_MEMBER_BUSY });
    await expect(b).rejects.toMatchObject({ status: 503, message: MSG_SERVER_BUSY });
    await expect(bLong).rejects.toMatchObject({ status: 503, message: MSG_SERVER_BUSY });
    await expect(c).rejects.toMatchObject({ status: 503, message: MSG_SERVER_BUSY });
    expect(await a).toEqual(['<p>a1</p>', '<p>a2</p>']);
    expect(await b1).toEqual(['<p>b1</p>']);
    // A long text weighs its characters: one waiting and a second of 100 more fill a share of two short ones.
    const d = sanitizeRichTexts(['<p>d1</p>'], { member: 'd' });
    await expect(sanitizeRichTexts([`<p>${'长'.repeat(100)}</p>`], { member: 'd' })).rejects.toMatchObject({ status: 429 });
    expect(await d).toEqual(['<p>d1</p>']);
    // With nothing waiting, a write heavier than a share is admitted (it could never be otherwise).
    expect(await sanitizeRichTexts(['<p>1</p>', '<p>2</p>', '<p>3</p>', '<p>4</p>'], { member: 'c' })).toHaveLength(4);
    expect(richTextBacklog()).toMatchObject({ queued: 0, running: 0 });
  });

  it('answers a refused text as a result beside the others of its write', async () => {
    const out = await sanitizeRichTexts(['<p>好</p>', '<b>'.repeat(5000)], { member: 'a' });
    expect(out).toEqual(['<p>好</p>', new RichTextRefused(MSG_TOO_DEEP)]);
  });

  it('takes members in turn: one text of another member waits for at most one of a flooding member', async () => {
    const heavy = '<p>x</p>'.repeat(2000);
    const order: string[] = [];
    const flood = Array.from({ length: 6 }, (_, i) => sanitizeRichTexts([heavy], { member: 'flood' }).then(() => order.push(`flood ${i}`)));
    await until(() => richTextBacklog().running === 1);
    await sanitizeRichTexts(['<p>插队</p>'], { member: 'quick' }).then(() => order.push('quick'));
    await Promise.all(flood);
    expect(order.indexOf('quick'), order.join(', ')).toBeLessThanOrEqual(1);
  });

  it('drops the waiting texts of a client gone, and answers none of its write', async () => {
    const gone = new AbortController();
    const heavy = '<p>x</p>'.repeat(2000);
    const first = sanitizeRichTexts([heavy], { member: 'a', signal: gone.signal });
    const second = sanitizeRichTexts(['<p>1</p>', '<p>2</p>'], { member: 'a', signal: gone.signal });
    await until(() => richTextBacklog().running === 1);
    const started = richTextBacklog().started;
    gone.abort();
    // At once, though the first text is still in the worker.
    expect(richTextBacklog()).toMatchObject({ queued: 0, running: 1 });
    await expect(first).rejects.toMatchObject({ status: 499 });
    await expect(second).rejects.toMatchObject({ status: 499 });
    await until(() => richTextBacklog().running === 0);
    expect(richTextBacklog().started).toBe(started);
    // Already gone: refused before queueing.
    await expect(sanitizeRichTexts(['<p>3</p>'], { member: 'a', signal: gone.signal })).rejects.toMatchObject({ status: 499 });
    expect(richTextBacklog().started).toBe(started);
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
