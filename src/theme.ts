import { zhCN } from '@mui/material/locale';
import { defaultTheme, type RaThemeOptions } from 'react-admin';

/**
 * Latin text in the system's UI font, Chinese in the usual Chinese system fonts (macOS, Windows,
 * Linux), named because a Latin-only stack leaves Chinese to the browser's fallback, which may
 * be no Chinese font at all (boxes). index.html's shell uses the same stack.
 */
export const FONT_FAMILY = [
  '-apple-system',
  'BlinkMacSystemFont',
  '"Segoe UI"',
  'Roboto',
  '"PingFang SC"',
  '"Hiragino Sans GB"',
  '"Microsoft YaHei"',
  '"Noto Sans CJK SC"',
  '"Source Han Sans SC"',
  '"WenQuanYi Micro Hei"',
  '"Helvetica Neue"',
  'Arial',
  'sans-serif',
].join(', ');

/** The window a page rendered by the server is laid out for: an office PC's. */
export const SERVER_WINDOW_WIDTH = 1366;

/** The pointer of an office PC: a mouse (MUI X's pickers ask `(pointer: fine)` for their desktop form). */
const SERVER_POINTER = new Set(['(pointer: fine)', '(hover: hover)']);

/**
 * What a media query of MUI's breakpoints (`(min-width:600px)`, `(max-width:899.95px)`, the two
 * joined by `and`) or of a pointer answers in that window, with a mouse; any other query answers false.
 */
export function serverMatchMedia(query: string): { matches: boolean } {
  const matches = query.split(/\s+and\s+/).every((condition) => {
    if (SERVER_POINTER.has(condition.trim())) return true;
    const width = /^\((min|max)-width:\s*(\d+(?:\.\d+)?)px\)$/.exec(condition.trim());
    if (!width) return false;
    const px = Number(width[2]);
    return width[1] === 'min' ? SERVER_WINDOW_WIDTH >= px : SERVER_WINDOW_WIDTH <= px;
  });
  return { matches };
}

/** The accessible name of a progress indicator that says nothing more specific. */
export const LOADING_LABEL = '加载中';

/**
 * react-admin's theme with MUI's Chinese texts (pagination, autocomplete, alerts…), Chinese fonts, and darker
 * blues: the defaults give white on the app bar 3.1:1 and blue text on the page 4.4:1, under the
 * 4.5:1 that WCAG AA (and axe) ask for; these give 5.5:1 and more.
 */
export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: { ...defaultTheme.palette, primary: { main: '#1565c0' }, secondary: { main: '#0d47a1' } },
  typography: { ...defaultTheme.typography, fontFamily: FONT_FAMILY },
  components: {
    ...defaultTheme.components,
    ...zhCN.components,
    // Media queries (the app bar's user menu, the sidebar) answer the window's real width from a
    // page's first render in the browser; a page rendered by the server is laid out for an office
    // PC's window, and the browser takes it over with the same answers (a phone's then follow).
    MuiUseMediaQuery: { defaultProps: { ssrMatchMedia: serverMatchMedia } },
    // Every spinner and bar has a name for screen readers (axe: aria-progressbar-name), including
    // react-admin's own: the app bar's indicator while anything loads, and its page-loading screen.
    // A component that says more (上传进度) gives its own label.
    MuiCircularProgress: { defaultProps: { 'aria-label': LOADING_LABEL } },
    MuiLinearProgress: { defaultProps: { 'aria-label': LOADING_LABEL } },
    // A dialog scrolls its content only (scroll="paper"), its title and buttons staying in view.
    // A form dialog wraps DialogContent and DialogActions in react-admin's <form>: the form is the
    // paper's flex column then, shrinking to the paper, or the whole paper scrolls.
    MuiDialog: {
      defaultProps: { scroll: 'paper' },
      styleOverrides: {
        paper: { '& > form': { display: 'flex', flexDirection: 'column', flex: '1 1 auto', minHeight: 0 } },
      },
    },
    // react-admin's loading and error pages set 'Roboto, sans-serif' on their texts: the stack above instead.
    RaLoading: { styleOverrides: { root: { '& .RaLoading-message': { fontFamily: 'inherit' } } } },
    RaError: { styleOverrides: { root: { fontFamily: 'inherit' } } },
    RaAuthError: { styleOverrides: { root: { '& .RaAuthError-message': { fontFamily: 'inherit' } } } },
  },
};
