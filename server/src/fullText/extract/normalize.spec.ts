import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeText } from './index';

describe('normalizeText: radicals', () => {
  it('maps a Kangxi radical to its ideograph (⼯ U+2F2F → 工)', () => {
    expect(normalizeText('建设\u2f2f程')).toBe('建设工程');
  });

  it('maps a CJK Radicals Supplement character, which NFKC leaves alone (⻚ U+2EDA → 页)', () => {
    expect('\u2eda'.normalize('NFKC')).toBe('\u2eda');
    expect(normalizeText('第3\u2eda')).toBe('第3页');
  });

  it('maps every radical of both blocks to a unified ideograph', () => {
    const radicals = [
      ...Array.from({ length: 0x2fd5 - 0x2f00 + 1 }, (_, i) => 0x2f00 + i),
      // U+2E80 has no ideograph, U+2E9A is unassigned.
      ...Array.from({ length: 0x2ef3 - 0x2e81 + 1 }, (_, i) => 0x2e81 + i).filter((cp) => cp !== 0x2e9a),
    ];
    const unmapped = radicals.filter((cp) => !/^\p{Unified_Ideograph}$/u.test(normalizeText(String.fromCodePoint(cp))));
    expect(unmapped.map((cp) => cp.toString(16))).toEqual([]);
    expect(normalizeText('\u2ec5\u2ed3\u2ed4\u2ecb\u2f64\u2f08')).toBe('见长门车用人');
  });

  it('maps compatibility ideographs to the unified ones (U+F967 → 不) and leaves other characters as written', () => {
    expect(normalizeText('\uf967得')).toBe('不得');
    // NFKC would make these ASCII; the snippets show them as the document has them.
    expect(normalizeText('（ＧＢ５０５００）〔2013〕')).toBe('（ＧＢ５０５００）〔2013〕');
  });
});

describe('normalizeText: lines and white space', () => {
  it('joins a word cut at a line end between Han characters', () => {
    expect(normalizeText('建设工程造\n价咨询')).toBe('建设工程造价咨询');
    expect(normalizeText('建设工程造 \r\n 价咨询')).toBe('建设工程造价咨询');
  });

  it('joins without a space when a wide character is on either side', () => {
    expect(normalizeText('建标〔2013〕\n44号')).toBe('建标〔2013〕44号');
    expect(normalizeText('规范（GB\n50500）')).toBe('规范（GB 50500）');
    expect(normalizeText('执行《建设工程工程量清单计价规范》\nGB 50500')).toBe('执行《建设工程工程量清单计价规范》GB 50500');
  });

  it('joins a hyphenated Latin word, keeps a hyphen between digits, and puts a space between Latin lines', () => {
    expect(normalizeText('inter-\nnational')).toBe('international');
    expect(normalizeText('GB 50500-\n2013')).toBe('GB 50500-2013');
    expect(normalizeText('cost -\nestimate')).toBe('cost - estimate');
    expect(normalizeText('construction\ncost')).toBe('construction cost');
  });

  it('keeps a paragraph break (an empty line) as "\\n\\n"', () => {
    expect(normalizeText('第一段\n\n\n  \n第二段\u2029第三段')).toBe('第一段\n\n第二段\n\n第三段');
  });

  it('collapses white space and drops it between Han characters (letter-spaced headings)', () => {
    expect(normalizeText('  总\u3000\u3000则 \t ')).toBe('总则');
    expect(normalizeText('第 1 章  总 则')).toBe('第 1 章总则');
    expect(normalizeText('a\u00a0\u00a0b')).toBe('a b');
  });

  it('drops invisible and control characters', () => {
    expect(normalizeText('工\u200b程\u00ad造\ufeff价\u0000')).toBe('工程造价');
  });

  it('is idempotent, leaves no single line break, no double space and no radical', () => {
    const char = fc.constantFrom('工', '程', '造', '价', 'a', 'b', '1', '-', ' ', '\n', '\r', '\t', '\u3000', '\u2f2f', '\u2eda', '〔', '》', '\u200b', '\u2029');
    fc.assert(
      fc.property(fc.string({ unit: char, maxLength: 40 }), (text) => {
        const once = normalizeText(text);
        expect(normalizeText(once)).toBe(once);
        expect(once).not.toMatch(/(^|[^\n])\n([^\n]|$)|\n{3}| {2}|^\s|\s$|[\u2e80-\u2fdf]/);
      }),
      { numRuns: 2000 },
    );
  });
});
