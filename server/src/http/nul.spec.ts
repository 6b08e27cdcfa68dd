import { describe, expect, it } from 'vitest';
import { fieldWithNul } from './nul';

describe('fieldWithNul', () => {
  it('names the top-level field holding a NUL, at any depth', () => {
    expect(fieldWithNul({ VdName: 'a\u0000b' })).toBe('VdName');
    expect(fieldWithNul({ Parts: [{ PartNumber: 1, ETag: 'x\u0000' }] })).toBe('Parts');
    expect(fieldWithNul({ Modules: { ['vid\u0000eo']: '1' } })).toBe('Modules');
    expect(fieldWithNul(['\u0000'])).toBe('body');
    expect(fieldWithNul('\u0000')).toBe('body');
  });

  it('passes everything else, however deep', () => {
    expect(fieldWithNul({ VdName: '中文 \\0 %00 \u2400', n: 1, b: null })).toBeUndefined();
    let deep: unknown = 'x';
    for (let i = 0; i < 200000; i++) deep = [deep];
    expect(fieldWithNul({ a: deep })).toBeUndefined();
    expect(fieldWithNul(undefined)).toBeUndefined();
  });
});
