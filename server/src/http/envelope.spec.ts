import { describe, expect, it } from 'vitest';
import { listAnswer, ok } from './envelope';

const rows = [{ Id: 1, VmDes: '<p>一</p>' }, { Id: 2, VmDes: '<p>二二</p>' }, { Id: 3, VmDes: '"引号"\n' }];

describe('listAnswer', () => {
  it('is the list envelope, byte for byte, when every row fits', () => {
    expect(listAnswer(rows, 9, Infinity)).toBe(JSON.stringify(ok(rows, undefined, 9)));
    expect(listAnswer([], 0, 10)).toBe(JSON.stringify(ok([], undefined, 0)));
  });

  it('stops before the row that would pass the limit, keeping the total', () => {
    const two = JSON.stringify(ok(rows.slice(0, 2), undefined, 9));
    const limit = Buffer.byteLength(two);
    expect(listAnswer(rows, 9, limit)).toBe(two);
    expect(listAnswer(rows, 9, limit - 1)).toBe(JSON.stringify(ok(rows.slice(0, 1), undefined, 9)));
  });

  it('always holds the first row, however small the limit', () => {
    expect(JSON.parse(listAnswer(rows, 3, 1))).toEqual(ok(rows.slice(0, 1), undefined, 3));
  });
});
