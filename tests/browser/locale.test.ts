// The product speaks Chinese whatever the browser's language and fonts: dates are YYYY-MM-DD with
// Chinese month and day names in an English browser, messages use Chinese punctuation, rich-text
// editors open at an article's height, and Chinese text is drawn with a Chinese font.
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { halfWidthPunctuation } from '../../src/i18n/punctuation';
import { ADMIN_PASSWORD, formDialog, login, rowOf, seriousA11yViolations, UI_TIMEOUT, useBrowserSuite } from './helpers';

const s = useBrowserSuite();

beforeAll(async () => {
  await login(s.page, 'admin', ADMIN_PASSWORD);
});

/** What a date field shows: its text, or a note that the browser draws it (a native date input). */
async function shownDate(scope: Locator, label: string): Promise<string> {
  const fields = scope.getByRole('group', { name: label, exact: true });
  // The field, once its code has arrived: a picker's group of sections, or a native date input.
  await fields.or(scope.locator('input[type="date"]')).first().waitFor();
  if ((await fields.count()) === 0) {
    // A native <input type="date"> draws its text in the browser's own format, out of the page's reach.
    const native = scope.getByLabel(label, { exact: true });
    const type = await native.getAttribute('type');
    return `<input type="${type ?? ''}"> drawn by the browser in its own format (value ${await native.inputValue()})`;
  }
  // The field's sections are isolated with invisible direction marks.
  return (await fields.innerText()).replace(/[\u2066-\u2069\u200e\u200f\s]/g, '');
}

describe('dates in an English browser (locale en-US)', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await s.browser.newContext({ baseURL: s.server.url, locale: 'en-US', viewport: { width: 1366, height: 900 } });
    context.setDefaultTimeout(UI_TIMEOUT);
    page = await context.newPage();
    await login(page, 'admin', ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await context?.close();
  });

  it('视频时间 of the 添加 dialog reads YYYY-MM-DD and takes a date typed from the keyboard', async () => {
    await page.goto('/video');
    await page.getByRole('button', { name: '添加', exact: true }).click();
    const dialog = formDialog(page, '详情');
    await dialog.getByRole('textbox', { name: '视频主讲人' }).waitFor();
    await expect(shownDate(dialog, '视频时间')).resolves.toMatch(/^(\d{4}-\d{2}-\d{2}|YYYY-MM-DD)?$/);
    await expect(seriousA11yViolations(page)).resolves.toBe('');

    // From the field before it, Tab reaches the date; the digits fill year, month and day in turn.
    await dialog.getByRole('textbox', { name: '视频主讲人' }).focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('20260315');
    await expect(shownDate(dialog, '视频时间')).resolves.toBe('2026-03-15');
    await dialog.getByRole('button', { name: '取消', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('the picker names months and week days in Chinese, and the chosen day is sent as YYYY-MM-DD', async () => {
    await page.goto('/video');
    const row = rowOf(page, '结算审核常见问题');
    await row.getByRole('button', { name: '编辑', exact: true }).click();
    const dialog = formDialog(page, '详情');
    await dialog.getByRole('textbox', { name: '视频名称' }).waitFor();
    const before = await shownDate(dialog, '视频时间');
    expect(before).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    await dialog.getByRole('button', { name: /^选择日期/ }).click();
    const calendar = page.getByRole('dialog').filter({ has: page.getByRole('grid') });
    await calendar.waitFor();
    const [year, month] = before.split('-').map(Number) as [number, number];
    const monthName = ['一月', '二月', '三月', '四月', '五月', '六月', '七月', '八月', '九月', '十月', '十一月', '十二月'][month - 1]!;
    await expect(calendar.innerText()).resolves.toContain(monthName);
    await expect(calendar.innerText()).resolves.toContain(String(year));
    const weekDays = await calendar.getByRole('columnheader').allInnerTexts();
    expect([...weekDays].sort()).toEqual(['一', '三', '二', '五', '六', '四', '日'].sort());
    await expect(seriousA11yViolations(page)).resolves.toBe('');

    // Another day of the month shown: the 28th, or the 27th when the date is already the 28th.
    const day = before.endsWith('-28') ? 27 : 28;
    await calendar.getByRole('gridcell', { name: String(day), exact: true }).click();
    await calendar.waitFor({ state: 'hidden' });
    const chosen = `${before.slice(0, 8)}${day}`;
    await expect(shownDate(dialog, '视频时间')).resolves.toBe(chosen);

    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('/Ajax/UpdateVideo')),
      dialog.getByRole('button', { name: '保存', exact: true }).click(),
    ]);
    expect((request.postDataJSON() as Record<string, unknown>).VdTime).toBe(chosen);
    await dialog.waitFor({ state: 'hidden' });
    await row.getByRole('cell', { name: chosen, exact: true }).waitFor();
  });
});

describe('wording', () => {
  it('the 404 page speaks with Chinese punctuation', async () => {
    const { page } = s;
    await page.goto('/no-such-page');
    const heading = page.getByRole('heading', { level: 1 });
    await heading.waitFor();
    const text = await page.getByRole('main').innerText();
    expect(text).toContain('页面不存在');
    expect(halfWidthPunctuation(text), text).toEqual([]);
  });

  it('the notification of a form with errors speaks with Chinese punctuation', async () => {
    const { page } = s;
    await page.goto('/videoType');
    await page.getByRole('button', { name: '添加', exact: true }).click();
    const dialog = formDialog(page, '详情');
    await dialog.getByRole('button', { name: '添加', exact: true }).click();
    await dialog.getByText('必填').first().waitFor();
    // The snackbar sits behind the modal dialog (aria-hidden to roles): found by its text.
    const note = page.getByText(/^表单/);
    const text = await note.innerText();
    expect(halfWidthPunctuation(text), text).toEqual([]);
    await dialog.getByRole('button', { name: '取消', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
  });
});

describe('rich-text editors open at an article’s height', () => {
  /** The editable areas of a dialog's rich text (a date field's sections are editable too), and their heights (px). */
  const editors = (dialog: Locator) => dialog.locator('[contenteditable="true"]:not([role="spinbutton"])');
  const editorHeights = (dialog: Locator) =>
    editors(dialog).evaluateAll((nodes) => nodes.map((n) => n.getBoundingClientRect().height));

  it('内容 of 文章目录详情 (在线编辑)', async () => {
    const { page } = s;
    await page.goto('/');
    await page.getByRole('menuitem', { name: '文章目录管理' }).click();
    await page.getByRole('treeitem', { name: '建筑专业' }).click();
    await page.getByRole('button', { name: '新增文件' }).click();
    const dialog = formDialog(page, '文章目录详情');
    await dialog.getByRole('button', { name: '在线编辑' }).click();
    await editors(dialog).waitFor();
    const heights = await editorHeights(dialog);
    expect(heights).toHaveLength(1);
    expect(heights[0]).toBeGreaterThanOrEqual(300);
    await dialog.getByRole('button', { name: '取消', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('问题 and 统一回答 of 统一口径管理', async () => {
    const { page } = s;
    await page.goto('/Knowledge/TYKJ/Manage');
    await page.getByRole('treeitem', { name: '计价规则' }).click();
    // 统一口径 adds answers, not files: 新增, and the dialog is its own.
    await page.getByRole('button', { name: '新增', exact: true }).click();
    const dialog = formDialog(page, '统一口径详情');
    await editors(dialog).nth(1).waitFor();
    const heights = await editorHeights(dialog);
    expect(heights).toHaveLength(2);
    for (const height of heights) expect(height).toBeGreaterThanOrEqual(300);
    await dialog.getByRole('button', { name: '取消', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
  });
});

describe('Chinese fonts', () => {
  const CHINESE_FONTS = ['PingFang SC', 'Microsoft YaHei', 'Noto Sans CJK SC'];

  it('the page and the app bar name the common Chinese system fonts', async () => {
    const { page } = s;
    await page.goto('/');
    const banner = page.getByRole('banner');
    await banner.waitFor();
    const bodyFont = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
    const barFont = await banner.evaluate((el) => getComputedStyle(el).fontFamily);
    for (const font of CHINESE_FONTS) {
      expect(bodyFont, 'body').toContain(font);
      expect(barFont, 'app bar').toContain(font);
    }
  });

  it('the menu’s Chinese text is drawn with a Chinese font, not boxes', async () => {
    const { page } = s;
    const item = page.getByRole('menuitem', { name: '视频学习编辑' });
    // The element whose own text node holds the words (the item also holds an icon).
    await item.evaluate((el) => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.textContent?.includes('视频学习编辑')) node.parentElement?.setAttribute('data-font-probe', '');
      }
    });
    // Chromium reports the fonts it really used for the node's text (after fallback).
    const cdp = await s.context.newCDPSession(page);
    try {
      await cdp.send('DOM.enable');
      await cdp.send('CSS.enable');
      const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
      const label = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '[data-font-probe]' });
      const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId: label.nodeId });
      const used = fonts.filter((f) => f.glyphCount > 0).map((f) => f.familyName);
      expect(used.length, 'fonts used').toBeGreaterThan(0);
      const notChinese = used.filter((name) => !/CJK|Han Sans|Hei|PingFang|Song|Ming|Kai/i.test(name));
      expect(notChinese, `fonts used for 视频学习编辑: ${used.join(', ')}`).toEqual([]);
    } finally {
      await cdp.detach();
    }
  });
});
