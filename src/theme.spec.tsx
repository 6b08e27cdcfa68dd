import fs from 'node:fs';
import { CircularProgress, LinearProgress, ThemeProvider, createTheme } from '@mui/material';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FONT_FAMILY, LOADING_LABEL, theme } from './theme';

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
});
