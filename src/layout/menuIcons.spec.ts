import { describe, expect, it } from 'vitest';
import { SCREENS } from '../../schemas/index';
import { MENU_ICONS } from './menuIcons';

describe('menu icons', () => {
  it('has every icon a descriptor names', () => {
    const named = SCREENS.flatMap((s) => (s.menu ?? []).map((m) => m.icon));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((icon) => !(icon in MENU_ICONS))).toEqual([]);
  });
});
