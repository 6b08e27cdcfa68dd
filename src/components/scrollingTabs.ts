import type { TabsProps } from '@mui/material';

/**
 * Props of a tab strip that scrolls however many tabs it holds. react-admin's layout is at least
 * as wide as its content's min-content (`min-width: fit-content`), and a strip's min-content is
 * every tab side by side: inline-size containment sizes the strip by its container alone, so the
 * page keeps the window's width. MUI's scroll buttons show once the tabs overflow, on touch screens too.
 * Spread `sx` first when adding styles of one's own.
 */
export const SCROLLING_TABS = {
  variant: 'scrollable',
  scrollButtons: 'auto',
  allowScrollButtonsMobile: true,
  sx: { contain: 'inline-size' },
} as const satisfies Pick<TabsProps, 'variant' | 'scrollButtons' | 'allowScrollButtonsMobile' | 'sx'>;
