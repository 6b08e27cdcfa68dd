import { memoryStore } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { recordingStore, storeMatches } from './pageState';

describe('the store values a server render read', () => {
  it('are recorded as last read, null for nothing stored', () => {
    const { store, reads } = recordingStore(memoryStore({ locale: 'zh-CN' }));
    expect(store.getItem('locale')).toBe('zh-CN');
    expect(store.getItem('sidebar.open', true)).toBe(true);
    expect(Object.fromEntries(reads)).toEqual({ locale: 'zh-CN', 'sidebar.open': null });
  });

  it("match a browser's store that holds the same, and not one whose member changed one", () => {
    const reads = { locale: 'zh-CN', 'sidebar.open': null };
    const same = memoryStore({ locale: 'zh-CN' });
    const narrowed = memoryStore({ locale: 'zh-CN', 'sidebar.open': false });
    expect(storeMatches(same, reads)).toBe(true);
    expect(storeMatches(narrowed, reads)).toBe(false);
  });
});
