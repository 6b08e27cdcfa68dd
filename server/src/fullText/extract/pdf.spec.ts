// PDFs made by tests/fixtures/documents/makePdf.ts, read by pdf.js as the server reads them.
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { BROKEN_LINE_CHARS, ENCRYPTED_PDF_PASSWORD, makePdf } from '../../../../tests/fixtures/documents/makePdf';
import { EXTRACT_FAILURE, extractDocument } from './index';
import { openPdfDocuments, readPdf } from './pdf';

const extractPdf = (bytes: Uint8Array) => extractDocument({ bytes, name: '计价规范.pdf' });

let consoleCalls: MockInstance[];
beforeEach(() => {
  consoleCalls = (['log', 'info', 'warn', 'error'] as const).map((method) => vi.spyOn(console, method));
});
afterEach(() => {
  // pdf.js says nothing (no fake-worker or font warnings), and no document stays open.
  for (const spy of consoleCalls) expect(spy).not.toHaveBeenCalled();
  vi.restoreAllMocks();
  expect(openPdfDocuments()).toBe(0);
});

describe('extractDocument: PDF', () => {
  it('reads the text of each page, page 1 first', async () => {
    const pages = ['第一章 总则\n建设工程工程量清单计价规范', '第二章 术语\n建标〔2013〕44号', 'GB 50500-2013 第三页'];
    const result = await extractPdf(makePdf(pages));
    expect(result).toEqual({ ok: true, pages: ['第一章总则建设工程工程量清单计价规范', '第二章术语建标〔2013〕44号', 'GB 50500-2013 第三页'] });
  });

  it('numbers the pages of a longer document in order', async () => {
    const pages = Array.from({ length: 20 }, (_, i) => `第${i + 1}页：标准图集说明，第${i + 1}条。`);
    const result = await extractPdf(makePdf(pages));
    if (!result.ok) throw new Error(result.reason);
    expect(result.pages).toHaveLength(20);
    result.pages.forEach((text, i) => expect(text).toBe(`第${i + 1}页：标准图集说明，第${i + 1}条。`));
  });

  it('keeps the place of a page without text, so the page numbers stay right', async () => {
    expect(await extractPdf(makePdf(['第一页', '', '第三页']))).toEqual({ ok: true, pages: ['第一页', '', '第三页'] });
  });

  it('gives the ideographs where the font maps them to radicals (⼯ U+2F2F, ⻚ U+2EDA)', async () => {
    const bytes = makePdf(['工程造价，第3页，用人单位'], { radicals: true });
    // The trap is real: pdf.js itself returns the radicals.
    const raw = await readPdf(bytes);
    expect(raw).toEqual({ pages: ['\u2f2f程造价，第3\u2eda，\u2f64\u2f08单位'] });

    expect(await extractPdf(bytes)).toEqual({ ok: true, pages: ['工程造价，第3页，用人单位'] });
  });

  it('joins a word cut at a line end', async () => {
    // 造 ends the first line, 价 starts the second.
    const text = '甲'.repeat(BROKEN_LINE_CHARS - 3) + '工程造价咨询服务';
    const bytes = makePdf([text], { brokenLines: true });
    const raw = await readPdf(bytes);
    expect(raw).toEqual({ pages: ['甲'.repeat(BROKEN_LINE_CHARS - 3) + '工程造\n价咨询服务'] });

    const result = await extractPdf(bytes);
    expect(result).toEqual({ ok: true, pages: [text] });
    if (result.ok) expect(result.pages[0]).toContain('造价');
  });

  it('reads a font without a ToUnicode map through its predefined CMap (UniGB-UCS2-H), loaded from pdf.js’s cmaps', async () => {
    expect(await extractPdf(makePdf(['宋体：工程量清单计价'], { predefinedCMap: true }))).toEqual({ ok: true, pages: ['宋体：工程量清单计价'] });
  });

  it('marks a scan without a text layer', async () => {
    expect(await extractPdf(makePdf(['扫描的第一页', '扫描的第二页'], { noText: true }))).toEqual({ ok: false, reason: EXTRACT_FAILURE.noTextLayer });
  });

  it('marks an encrypted file, which opens with its password only', async () => {
    const bytes = makePdf(['保密文件：工程造价'], { encrypted: true });
    expect(await extractPdf(bytes)).toEqual({ ok: false, reason: '文件已加密' });

    // Really encrypted: with the password pdf.js decrypts the text.
    const task = getDocument({ data: new Uint8Array(bytes), password: ENCRYPTED_PDF_PASSWORD, verbosity: 0 });
    try {
      const page = await (await task.promise).getPage(1);
      const { items } = await page.getTextContent();
      expect(items.map((item) => ('str' in item ? item.str : '')).join('')).toBe('保密文件：工程造价');
    } finally {
      await task.destroy();
    }
  });

  it('reads a file encrypted only to restrict copying and printing (no password to open it)', async () => {
    const bytes = makePdf(['中华人民共和国建筑法', '第二页'], { restricted: true });
    expect(new TextDecoder('latin1').decode(bytes)).toContain('/Encrypt');
    expect(await extractPdf(bytes)).toEqual({ ok: true, pages: ['中华人民共和国建筑法', '第二页'] });
  });

  it('marks a broken file', async () => {
    const garbage = new TextEncoder().encode('这不是PDF文件'.repeat(100));
    expect(await extractPdf(garbage)).toEqual({ ok: false, reason: '文件已损坏' });
    const header = new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<< /Type /Catalog');
    expect(await extractPdf(header)).toEqual({ ok: false, reason: '文件已损坏' });
  });

  it('leaves the caller’s bytes as they were (pdf.js takes the buffer it is given)', async () => {
    const bytes = makePdf(['工程造价']);
    const copy = bytes.slice();
    await extractPdf(bytes);
    expect(bytes).toEqual(copy);
  });
});
