import { describe, expect, it } from 'vitest';
import { toggleCode } from './ModulePermissionsInput';

describe('toggleCode', () => {
  it('keeps the comma string in the order 1,2,3,4,a without duplicates', () => {
    expect(toggleCode(undefined, '2', true)).toBe('2');
    expect(toggleCode('a,2', '1', true)).toBe('1,2,a');
    expect(toggleCode('1,2,2', '2', true)).toBe('1,2');
    expect(toggleCode('1,2,3', '2', false)).toBe('1,3');
    expect(toggleCode('4', '4', false)).toBe('');
  });
});
