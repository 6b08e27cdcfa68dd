import type { TabsProps } from '@mui/material';

/**
 * Props of a tab strip that scrolls however many tabs it holds. react-admin's layout is at least
 * as wide as its content's min-content (`min-width: fit-content`), and a strip's min-content is
 * every tab side by side: inline-size containment sizes the strip by its container alone, so the
 * page keeps the window's width. MUI's scroll buttons are always there, on touch screens too (disabled
 * while there is nothing to scroll to): with `auto` they came only once the browser had measured the
 * strip, and pushed every tab of a page the server rendered 40 px aside. Spread `sx` first when adding
 * styles of one's own.
 */
export const SCROLLING_TABS = {
  variant: 'scrollable',
  scrollButtons: true,
  allowScrollButtonsMobile: true,
  sx: { contain: 'inline-size' },
} as const satisfies Pick<TabsProps, 'variant' | 'scrollButtons' | 'allowScrollButtonsMobile' | 'sx'>;
