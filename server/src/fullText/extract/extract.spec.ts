import { describe, expect, it } from 'vitest';
import { makeDocx } from '../../../../tests/fixtures/documents/makeDocx';
import { makePdf } from '../../../../tests/fixtures/documents/makePdf';
import { EXTRACT_FAILURE, MAX_DOCUMENT_BYTES, extractDocument } from './index';

const TEXT = '建设工程工程量清单计价规范（GB 50500—2013）第3.1.1条：使用国有资金投资的建设工程发承包，必须采用工程量清单计价。𠮷';
/** TEXT in GB18030 (iconv -f UTF-8 -t GB18030): two bytes a Han character, four for 𠮷 (U+20BB7). */
const TEXT_GB18030 =
  'bda8c9e8b9a4b3ccb9a4b3ccc1bfc7e5b5a5bcc6bcdbb9e6b7b6a3a84742203530353030a1aa32303133a3a9b5da332e312e31ccf5a3bacab9d3c3' +
  'b9fad3d0d7cabdf0cdb6d7cab5c4bda8c9e8b9a4b3ccb7a2b3d0b0fca3acb1d8d0ebb2c9d3c3b9a4b3ccc1bfc7e5b5a5bcc6bcdba1a39534b235';

describe('extractDocument: plain text', () => {
  it('reads UTF-8, with or without a byte order mark, as one page', async () => {
    const bytes = new TextEncoder().encode(`${TEXT}\n第二行`);
    expect(await extractDocument({ bytes, name: 'a.txt' })).toEqual({ ok: true, pages: [`${TEXT}第二行`] });
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]);
    expect(await extractDocument({ bytes: withBom, name: 'a.txt' })).toEqual({ ok: true, pages: [`${TEXT}第二行`] });
  });

  it('reads GB18030 (and so GBK) when the bytes are not UTF-8', async () => {
    const bytes = new Uint8Array(Buffer.from(TEXT_GB18030, 'hex'));
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow();
    expect(await extractDocument({ bytes, name: '说明.TXT' })).toEqual({ ok: true, pages: [TEXT] });
  });

  it('reads UTF-16 with a byte order mark (Notepad’s “Unicode”)', async () => {
    const bytes = new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(TEXT, 'utf16le')]));
    expect(await extractDocument({ bytes, name: 'a.txt' })).toEqual({ ok: true, pages: [TEXT] });
  });

  it('marks an empty file', async () => {
    expect(await extractDocument({ bytes: new TextEncoder().encode(' \r\n\t'), name: 'a.txt' })).toEqual({ ok: false, reason: EXTRACT_FAILURE.noText });
  });
});

describe('extractDocument: what it reads', () => {
  it('refuses a file past the size limit, the default or the caller’s', async () => {
    const tooLarge = { ok: false, reason: '文件过大' };
    // Zero-filled: the pages are never touched, nothing is read.
    expect(await extractDocument({ bytes: new Uint8Array(MAX_DOCUMENT_BYTES + 1), name: 'big.txt' })).toEqual(tooLarge);
    const pdf = makePdf(['工程造价']);
    expect(await extractDocument({ bytes: pdf, name: 'a.pdf', maxBytes: pdf.byteLength - 1 })).toEqual(tooLarge);
    expect(await extractDocument({ bytes: pdf, name: 'a.pdf', maxBytes: pdf.byteLength })).toEqual({ ok: true, pages: ['工程造价'] });
  });

  it('calls other types unsupported, whatever their bytes', async () => {
    const unsupported = { ok: false, reason: '不支持的文件类型' };
    const docx = makeDocx(['工程造价']);
    for (const name of ['a.doc', 'a.xlsx', 'a.pptx', 'a.zip', 'a.png', 'docx', 'constructor', 'a.txt.exe']) {
      expect(await extractDocument({ bytes: docx, name })).toEqual(unsupported);
    }
  });

  it('goes by the extension in any case, of a path or a URL, and knows a PDF without one by its signature', async () => {
    const pdf = makePdf(['工程造价']);
    const read = { ok: true, pages: ['工程造价'] };
    expect(await extractDocument({ bytes: pdf, name: '规范.PDF' })).toEqual(read);
    expect(await extractDocument({ bytes: pdf, name: '/files/handout/2026/规范.pdf?v=2#page=3' })).toEqual(read);
    expect(await extractDocument({ bytes: pdf, name: 'C:\\资料\\规范.pdf' })).toEqual(read);
    expect(await extractDocument({ bytes: pdf, name: 'upload-7f3a' })).toEqual(read);
    expect(await extractDocument({ bytes: makeDocx(['工程造价']), name: '规范.Docx' })).toEqual(read);
  });

  it('calls a file that its extension does not describe broken', async () => {
    expect(await extractDocument({ bytes: makeDocx(['工程造价']), name: 'a.pdf' })).toEqual({ ok: false, reason: '文件已损坏' });
    expect(await extractDocument({ bytes: makePdf(['工程造价']), name: 'a.docx' })).toEqual({ ok: false, reason: '文件已损坏' });
  });
});
