import { describe, expect, it } from 'vitest';
import { toModelList } from './UsewebSort';

describe('toModelList', () => {
  it('numbers the shown order from 1', () => {
    expect(toModelList([{ Id: 5 }, { Id: 1 }, { Id: 3 }] as never)).toEqual([
      { Id: 5, UwSort: 1 },
      { Id: 1, UwSort: 2 },
      { Id: 3, UwSort: 3 },
    ]);
  });
});
