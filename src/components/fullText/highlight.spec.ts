import { describe, expect, it } from 'vitest';
import { fileHitUrl, highlightSegments, totalText } from './highlight';

const marked = (snippet: string, highlights: unknown) =>
  highlightSegments(snippet, highlights)
    .map((s) => (s.mark ? `[${s.text}]` : s.text))
    .join('');

describe('highlightSegments', () => {
  it('cuts the snippet at its highlights, in order, keeping every character', () => {
    expect(marked('建设工程工程量清单计价规范', [[4, 3], [0, 2]])).toBe('[建设]工程[工程量]清单计价规范');
    expect(highlightSegments('造价', [[0, 2]])).toEqual([{ text: '造价', mark: true }]);
    expect(highlightSegments('造价', [])).toEqual([{ text: '造价', mark: false }]);
  });

  it('joins overlapping and touching highlights', () => {
    expect(marked('计价规范的计价', [[0, 3], [1, 3], [4, 1]])).toBe('[计价规范的]计价');
  });

  it('clamps to the text and ignores empty, negative-length and malformed ones', () => {
    expect(marked('工程造价', [[2, 10], [-3, 4], [1, 0], [3, -1], ['a', 1], [1], null, 'x'])).toBe('[工]程[造价]');
    expect(marked('工程造价', [[9, 2]])).toBe('工程造价');
    expect(marked('工程造价', undefined)).toBe('工程造价');
  });

  it('counts in UTF-16 code units, as the server does (a character outside the BMP is two)', () => {
    expect(marked('𠀀造价', [[2, 2]])).toBe('𠀀[造价]');
  });

  it('keeps markup as text: the snippet is never HTML', () => {
    const segments = highlightSegments('<b>造价</b>', [[3, 2]]);
    expect(segments).toEqual([
      { text: '<b>', mark: false },
      { text: '造价', mark: true },
      { text: '</b>', mark: false },
    ]);
  });
});

describe('fileHitUrl', () => {
  it('opens a PDF at its page', () => {
    expect(fileHitUrl('/files/handout/a.pdf', '规范.pdf', 2)).toBe('/files/handout/a.pdf#page=2');
    expect(fileHitUrl('/files/handout/abc', '规范.PDF', 7)).toBe('/files/handout/abc#page=7');
    expect(fileHitUrl('https://cdn.example.com/x.pdf?sig=1', undefined, 3)).toBe('https://cdn.example.com/x.pdf?sig=1#page=3');
  });

  it('leaves other files, and a PDF without a page, at their address', () => {
    expect(fileHitUrl('/files/handout/a.docx', '制度.docx', 1)).toBe('/files/handout/a.docx');
    expect(fileHitUrl('/files/handout/a.pdf', 'a.pdf', undefined)).toBe('/files/handout/a.pdf');
    expect(fileHitUrl('/files/handout/a.pdf#page=9', 'a.pdf', 0)).toBe('/files/handout/a.pdf');
  });
});

describe('totalText', () => {
  it('says 1000+ when the server stopped counting', () => {
    expect(totalText(37, false)).toBe('37');
    expect(totalText(1000, true)).toBe('1000+');
  });
});
