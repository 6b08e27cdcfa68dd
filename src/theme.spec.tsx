import fs from 'node:fs';
import { CircularProgress, LinearProgress, ThemeProvider, createTheme } from '@mui/material';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FONT_FAMILY, LOADING_LABEL, SERVER_WINDOW_WIDTH, serverMatchMedia, theme } from './theme';

function markup(node: React.ReactNode): string {
  return renderToStaticMarkup(<ThemeProvider theme={createTheme(theme)}>{node}</ThemeProvider>);
}

describe('theme', () => {
  it('names every spinner and bar for screen readers, as react-admin renders them (no label of its own)', () => {
    expect(markup(<CircularProgress />)).toContain(`aria-label="${LOADING_LABEL}"`);
    expect(markup(<LinearProgress />)).toContain(`aria-label="${LOADING_LABEL}"`);
  });

  it('keeps the label a component gives', () => {
    const html = markup(<LinearProgress variant="determinate" value={40} aria-label="上传进度" />);
    expect(html).toContain('aria-label="上传进度"');
    expect(html).not.toContain(LOADING_LABEL);
  });

  it('names the common Chinese system fonts, and the HTML shell uses the same stack', () => {
    for (const font of ['PingFang SC', 'Microsoft YaHei', 'Noto Sans CJK SC']) expect(FONT_FAMILY).toContain(`"${font}"`);
    const shell = fs.readFileSync(new URL('../index.html', import.meta.url), 'utf8');
    expect(shell).toContain(`font-family: ${FONT_FAMILY.replaceAll('"', "'")};`);
  });

  it("answers MUI's breakpoint queries in the server's render as a desktop window would", () => {
    const { breakpoints } = createTheme(theme);
    const query = (q: string) => serverMatchMedia(q.replace(/^@media ?/, '')).matches;
    expect(SERVER_WINDOW_WIDTH).toBeGreaterThanOrEqual(breakpoints.values.lg);
    expect(query(breakpoints.up('sm'))).toBe(true);
    expect(query(breakpoints.down('sm'))).toBe(false);
    expect(query(breakpoints.between('md', 'xl'))).toBe(true);
    expect(query(breakpoints.only('xs'))).toBe(false);
    expect(query(breakpoints.up('xl'))).toBe(SERVER_WINDOW_WIDTH >= breakpoints.values.xl);
    expect(query('@media (pointer: fine)')).toBe(true);
    expect(query('print')).toBe(false);
  });
});
