import { describe, expect, it } from 'vitest';
import { ftsMatch, normText, pairLexemes, phraseHits, queryTokens, snippetOf, spacedText, tokenize, tsqueryAll, tsqueryLiteral, tsvectorLiteral } from './tokens';

describe('the full-text tokens', () => {
  it('makes each Han character and each digit a token, letters words, punctuation tokens of its own', () => {
    expect(tokenize('工程造价 GB50500-2013').map((t) => t.text)).toEqual(['工', '程', '造', '价', 'gb', '5', '0', '5', '0', '0', 'p2d', '2', '0', '1', '3']);
    expect(spacedText(tokenize('建标〔2013〕44号'))).toBe('建 标 p28 2 0 1 3 p29 4 4 号');
  });

  it('reads brackets of every width alike, full-width letters and digits as ASCII, and radicals as ideographs', () => {
    expect(queryTokens('建标[2013]44号')).toEqual(queryTokens('建标〔2013〕44号'));
    expect(queryTokens('ＧＢ５０')).toEqual(queryTokens('gb50'));
    expect(queryTokens('\u2F2F程')).toEqual(queryTokens('工程'));
  });

  it('knows where each token stands, surrogate pairs included', () => {
    const text = '𠀀造价 a';
    expect(tokenize(text).map((t) => text.slice(t.start, t.end))).toEqual(['𠀀', '造', '价', 'a']);
  });

  it('finds a phrase over spaces and line breaks, never over punctuation', () => {
    expect(phraseHits('工程\n造 价，工程，造价', queryTokens('程造价'))).toEqual([[1, 6]]);
  });

  it('writes PostgreSQL literals without its parser', () => {
    expect(tsvectorLiteral(tokenize("造价造 it's"))).toBe("'造':1,3 '价':2 'it':4 'p22':5 's':6 '~造价' '~价造' '~造it' '~itp22' '~p22s'");
    expect(tsqueryLiteral(queryTokens('造价'))).toBe("'造' <-> '价'");
    expect(tsqueryLiteral(queryTokens('44号'))).toBe("'~44' & '~4号' & ('4' <-> '4' <-> '号')");
    expect(tsqueryLiteral(queryTokens('造'))).toBe("'造'");
  });

  it('writes NORM so that a phrase is a substring of it exactly where the index matches it, and counts alike', () => {
    const norm = (text: string) => normText(tokenize(text));
    const count = (text: string, query: string) => norm(text).split(normText(queryTokens(query))).length - 1;
    expect(norm('建标〔2013〕44号')).toBe('建标 p28  2  0  1  3  p29  4  4 号');
    // Whitespace between tokens is no token; a phrase never reaches over punctuation.
    expect(count('工程\n造 价，工程，造价造价', '程造价')).toBe(1);
    expect(count('工程\n造 价，工程，造价造价', '造价')).toBe(3);
    // Whole tokens only: a word, a digit of a mark's code, a Han character inside a word.
    expect(count('gbt 50500', 'gb')).toBe(0);
    expect(count('gb t', 'gb t')).toBe(1);
    expect(count('〔2013〕', '28')).toBe(0);
    expect(count('\u337f', '株式')).toBe(0);
    expect(count('16G101-1', 'g101')).toBe(1);
  });

  it('matches a phrase of characters by its pairs alone, and anything else by its tokens too', () => {
    expect(ftsMatch(queryTokens('程造价'))).toBe('PAIRS : "程造 造价"');
    expect(ftsMatch(queryTokens('44号'), { all: ['t0'] })).toBe('PAIRS : "44 4号" AND TAG : t0');
    expect(ftsMatch(queryTokens('造'))).toBe('BODY : "造"');
    // A word's pair, or the pair of a mark written in letters (« is pab), can be read two ways.
    expect(ftsMatch(queryTokens('GB 50'))).toBe('BODY : "gb 5 0" AND PAIRS : ("gb5" AND "50")');
    expect(ftsMatch(queryTokens('«中'))).toBe('BODY : "pab 中" AND PAIRS : ("pab中")');
    expect(tsqueryAll(pairLexemes(queryTokens('44号')))).toBe("'~44' & '~4号'");
    expect(tsqueryAll(pairLexemes(queryTokens('价')))).toBe("'价'");
  });

  it('cuts a snippet around the first hit with the hits as [start, length]', () => {
    const text = `${'前'.repeat(100)}工程造价${'后'.repeat(100)}`;
    const s = snippetOf(text, phraseHits(text, queryTokens('造价')));
    expect(s.Snippet.startsWith('…')).toBe(true);
    expect(s.Snippet.endsWith('…')).toBe(true);
    const [[start, length]] = s.Highlights as [[number, number]];
    expect(s.Snippet.slice(start, start + length)).toBe('造价');
  });
});
