import { describe, expect, it } from 'vitest';
import { unstorableValue } from './unstorable';

describe('unstorableValue', () => {
  it('names the top-level field holding a NUL, at any depth', () => {
    expect(unstorableValue({ VdName: 'a\u0000b' })).toEqual({ field: 'VdName', msg: '不能包含空字符' });
    expect(unstorableValue({ Parts: [{ PartNumber: 1, ETag: 'x\u0000' }] })?.field).toBe('Parts');
    expect(unstorableValue({ Modules: { ['vid\u0000eo']: '1' } })?.field).toBe('Modules');
    expect(unstorableValue(['\u0000'])?.field).toBe('body');
    expect(unstorableValue('\u0000')?.field).toBe('body');
  });

  it('names a non-finite number', () => {
    expect(unstorableValue({ Id: Infinity })).toEqual({ field: 'Id', msg: '须为有效数字' });
    expect(unstorableValue({ modelList: [{ Id: 1, UwSort: -Infinity }] })?.field).toBe('modelList');
    expect(unstorableValue({ n: NaN })?.field).toBe('n');
  });

  it('passes everything else, however deep', () => {
    expect(unstorableValue({ VdName: '中文 \\0 %00 \u2400', n: 1e308, m: -0, b: null, t: true })).toBeUndefined();
    let deep: unknown = 'x';
    for (let i = 0; i < 200000; i++) deep = [deep];
    expect(unstorableValue({ a: deep })).toBeUndefined();
    expect(unstorableValue(undefined)).toBeUndefined();
  });
});
