import { describe, expect, it } from 'vitest';
import { phraseHits, queryTokens, snippetOf, spacedText, tokenize, tsqueryLiteral, tsvectorLiteral } from './tokens';

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
    expect(tsvectorLiteral(tokenize("造价造 it's"))).toBe("'造':1,3 '价':2 'it':4 'p22':5 's':6");
    expect(tsqueryLiteral(queryTokens('造价'))).toBe("'造' <-> '价'");
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
