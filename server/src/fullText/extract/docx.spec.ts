// DOCX files made by tests/fixtures/documents/makeDocx.ts (a zip written without jszip), read as the
// server reads them.
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { makeDocx, makeDocxFromBody } from '../../../../tests/fixtures/documents/makeDocx';
import { docxLimits } from './docx';
import { EXTRACT_FAILURE, extractDocument } from './index';

const extractDocx = (bytes: Uint8Array) => extractDocument({ bytes, name: '公司文件.docx' });
const run = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
const paragraph = (text: string, properties = '') => `<w:p>${properties ? `<w:pPr>${properties}</w:pPr>` : ''}${run(text)}</w:p>`;

describe('extractDocument: DOCX', () => {
  it('reads the paragraphs as one page when there is no page break', async () => {
    const result = await extractDocx(makeDocx(['第一条 为规范建设工程造价计价行为，', '制定本规范。', '第二条\t适用范围']));
    expect(result).toEqual({ ok: true, pages: ['第一条为规范建设工程造价计价行为，\n\n制定本规范。\n\n第二条适用范围'] });
  });

  it('splits the pages at explicit page breaks', async () => {
    const result = await extractDocx(makeDocx(['封面：计价规范', '目录\f第一章 总则', '1.0.1 工程造价\f', '第二章 术语']));
    expect(result).toEqual({ ok: true, pages: ['封面：计价规范\n\n目录', '第一章总则\n\n1.0.1 工程造价', '第二章术语'] });
  });

  it('joins a line break inside a paragraph as any line end', async () => {
    expect(await extractDocx(makeDocx(['工程造\n价', 'Word\nbreak']))).toEqual({ ok: true, pages: ['工程造价\n\nWord break'] });
  });

  it('breaks pages before a "page break before" paragraph and after a section that ends a page', async () => {
    const body =
      paragraph('第一页', '<w:pageBreakBefore/>') + // at the document's start: no empty page
      paragraph('第二页', '<w:pageBreakBefore/>') +
      paragraph('第二页续', '<w:pageBreakBefore w:val="0"/>') +
      paragraph('第二节末', '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr>') +
      paragraph('第三页', '<w:sectPr><w:type w:val="continuous"/></w:sectPr>') +
      paragraph('仍是第三页');
    expect(await extractDocx(makeDocxFromBody(body))).toEqual({ ok: true, pages: ['第一页', '第二页\n\n第二页续\n\n第二节末', '第三页\n\n仍是第三页'] });
  });

  it('leaves out deleted text, field codes, tab stops, ruby annotations and the legacy copy of a text box', async () => {
    const body =
      '<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="420"/></w:tabs></w:pPr>' +
      run('保留') +
      '<w:del w:id="1" w:author="a"><w:r><w:delText>删除的字</w:delText></w:r></w:del>' +
      '<w:ins w:id="2" w:author="a">' + run('插入的字') + '</w:ins>' +
      '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE \\* MERGEFORMAT </w:instrText></w:r>' +
      '<w:r><w:fldChar w:fldCharType="separate"/></w:r>' + run('3') + '<w:r><w:fldChar w:fldCharType="end"/></w:r>' +
      '<w:r><w:ruby><w:rt>' + run('zào') + '</w:rt><w:rubyBase>' + run('造') + '</w:rubyBase></w:ruby></w:r>' +
      '</w:p>' +
      '<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><w:txbxContent>' +
      paragraph('文本框里的字') +
      '</w:txbxContent></w:drawing></mc:Choice><mc:Fallback><w:pict><v:textbox><w:txbxContent>' +
      paragraph('文本框里的字') +
      '</w:txbxContent></v:textbox></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>';
    expect(await extractDocx(makeDocxFromBody(body))).toEqual({ ok: true, pages: ['保留插入的字3造\n\n文本框里的字'] });
  });

  it('reads entities and characters outside the BMP', async () => {
    expect(await extractDocx(makeDocx(['<GB> & "50500" 𠮷']))).toEqual({ ok: true, pages: ['<GB> & "50500" 𠮷'] });
  });

  it('marks a document without text', async () => {
    expect(await extractDocx(makeDocx(['', '\f', '  ']))).toEqual({ ok: false, reason: EXTRACT_FAILURE.noText });
  });

  it('marks a broken file: not a zip, a zip without word/document.xml, XML cut short', async () => {
    const broken = { ok: false, reason: '文件已损坏' };
    expect(await extractDocx(new TextEncoder().encode('PK\u0003\u0004这不是zip'))).toEqual(broken);
    const other = await new JSZip().file('content.xml', '<x/>').generateAsync({ type: 'uint8array' });
    expect(await extractDocx(other)).toEqual(broken);
    expect(await extractDocx(makeDocxFromBody('<w:p><w:r><w:t>未闭合'))).toEqual(broken);
  });

  it('refuses a document.xml that inflates past the limit (a zip bomb), without reading it all', async () => {
    const limit = docxLimits.xmlBytes;
    docxLimits.xmlBytes = 64 * 1024;
    try {
      // 200 KB of XML that deflates to almost nothing.
      expect(await extractDocx(makeDocx(['工'.repeat(70_000)]))).toEqual({ ok: false, reason: '文件过大' });
      expect(await extractDocx(makeDocx(['工'.repeat(20_000)]))).toEqual({ ok: true, pages: ['工'.repeat(20_000)] });
    } finally {
      docxLimits.xmlBytes = limit;
    }
  });

  it('marks an encrypted DOCX (an OLE file holding EncryptedPackage) and calls a legacy .doc unsupported', async () => {
    const ole = (content: Uint8Array) => new Uint8Array(Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(504), content]));
    expect(await extractDocx(ole(Buffer.from('\u0000EncryptedPackage\u0000', 'utf16le')))).toEqual({ ok: false, reason: '文件已加密' });
    expect(await extractDocx(ole(Buffer.from('WordDocument', 'utf16le')))).toEqual({ ok: false, reason: '不支持的文件类型' });
  });
});
