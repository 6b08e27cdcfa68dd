/** Height of the article screens' panes: the page minus the app bar and margins. */
export const PANE_HEIGHT = 'calc(100vh - 120px)';

/** Tabs whose selected label keeps 4.5:1 contrast (primary.main on the page background does not). */
export const SELECTED_TAB_SX = {
  borderBottom: 1,
  borderColor: 'divider',
  '& .MuiTab-root.Mui-selected': { color: 'primary.dark' },
} as const;
