// Browser-side defences in Chromium (Hardening 4 and 5): the Content-Security-Policy lets every
// screen work (video.js playing, the rich-text editor, MUI styles, the API docs) without a single
// violation report; after login only a path of this app is followed, whatever the remembered
// target says; a member disabled (停用) in 成员管理 is out at their next step and cannot log in.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createMember, formDialog, login, logout, rowOf, seeNotification, UI_TIMEOUT, useBrowserSuite } from './helpers';

const s = useBrowserSuite();
const violations: string[] = [];
const dialogs: string[] = [];
const hits: string[] = [];

beforeAll(async () => {
  await s.context.exposeFunction('__cspViolation', (what: unknown) => {
    violations.push(String(what));
  });
  await s.context.exposeFunction('__xss', (id: unknown) => {
    hits.push(String(id));
  });
  await s.context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __cspViolation(s: string): void }).__cspViolation(`${e.effectiveDirective} ${e.blockedURI} ${e.sample}`);
    });
  });
  s.page.on('console', (msg) => {
    if (/Content[- ]Security[- ]Policy/i.test(msg.text())) violations.push(msg.text());
  });
  s.page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
});

async function noViolationsOn(page: Page, where: string) {
  // Give late loads (fonts, posters, lazy chunks) the time to report.
  await page.waitForTimeout(500);
  expect(violations, `CSP violations on ${where}`).toEqual([]);
}

describe('the Content-Security-Policy lets every screen work', () => {
  it('is sent with the app and refuses inline script', async () => {
    const { page } = s;
    const response = await page.goto('/login');
    const csp = (await response?.headerValue('content-security-policy')) ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(await response?.headerValue('x-frame-options')).toBe('DENY');
    await page.getByRole('button', { name: '登录', exact: true }).waitFor();
    await noViolationsOn(page, 'the login page');
  });

  it('shows every screen of the menu with no violation report', async () => {
    const { page } = s;
    await login(page, 'admin', ADMIN_PASSWORD);
    const entries = (await page.getByRole('menu').getByRole('menuitem').allInnerTexts()).map((t) => t.trim());
    expect(entries.length).toBeGreaterThanOrEqual(14);
    for (const entry of entries) {
      await page.getByRole('menu').getByRole('menuitem', { name: entry, exact: true }).click();
      await page.waitForLoadState('networkidle');
      await page.getByRole('progressbar').first().waitFor({ state: 'detached' }).catch(() => undefined);
      await noViolationsOn(page, entry);
    }
  }, 300_000);

  it('plays a video with video.js (media, poster, icon font) with no violation report', async () => {
    const { page } = s;
    await page.getByRole('menuitem', { name: '在线视频' }).click();
    await page.getByRole('listitem').first().getByRole('link').first().click();
    await page.waitForURL(/\/Knowledge\/VideoView\/Details/);
    await page.locator('.vjs-big-play-button').click();
    await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.3, undefined, { timeout: 30_000 });
    await page.locator('video').evaluate((v: HTMLVideoElement) => v.pause());
    await noViolationsOn(page, 'the video details');
  });

  it('edits rich text with the TipTap editor and its styles with no violation report', async () => {
    const { page } = s;
    await page.getByRole('menuitem', { name: '文章目录管理' }).click();
    await page.getByRole('treeitem', { name: '建筑专业' }).click();
    await page.getByRole('button', { name: '新增文件' }).click();
    const dialog = formDialog(page, '文章目录详情');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: '在线编辑' }).click();
    // The rich text, not the date field (its year, month and day are editable sections too).
    const editor = dialog.locator('[contenteditable="true"]:not([role="spinbutton"])');
    await editor.click();
    await page.keyboard.type('内容安全策略下的编辑器');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+B');
    await expect.poll(() => editor.locator('strong').count()).toBeGreaterThan(0);
    await noViolationsOn(page, 'the rich-text editor');
    await dialog.getByRole('button', { name: '取消', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('serves the API docs with their own policy, working', async () => {
    const { page } = s;
    await page.goto('/docs');
    await page.getByText('知识学习后台 API').first().waitFor({ timeout: 30_000 });
    await noViolationsOn(page, '/docs');
    // Back in the app, still logged in.
    await page.goto('/');
    await page.getByRole('button', { name: '设置' }).waitFor();
  });

  it('reports an injected inline handler as a violation (the check above can fail)', async () => {
    const { page } = s;
    await page.goto('/');
    await page.getByRole('button', { name: '设置' }).waitFor();
    await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', `<img id="probe" src="x" onerror="window.__xss('probe')">`));
    await expect.poll(() => violations.length).toBeGreaterThan(0);
    expect(hits).toEqual([]);
    violations.length = 0;
  });
});

describe('after login, only a path of this app is followed', () => {
  /** The target react-admin remembers (router location state), set as a script of the page could. */
  async function loginWithRemembered(page: Page, nextPathname: string, nextSearch = '') {
    await page.goto('/login');
    await page.evaluate(
      ([p, q]) => window.history.replaceState({ usr: { nextPathname: p, nextSearch: q }, key: 'sec', idx: 0 }, '', '/login'),
      [nextPathname, nextSearch],
    );
    await page.reload();
    await page.getByRole('textbox', { name: '用户名', exact: true }).fill('admin');
    await page.getByRole('textbox', { name: '密码', exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.getByRole('button', { name: '设置' }).waitFor();
    await page.waitForURL((url) => url.pathname !== '/login');
  }

  it('returns to the page first asked for', async () => {
    const { page } = s;
    await s.context.clearCookies();
    await page.goto('/Knowledge/Article/Catalogue?type=1');
    await page.waitForURL('**/login');
    await page.getByRole('textbox', { name: '用户名', exact: true }).fill('admin');
    await page.getByRole('textbox', { name: '密码', exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/Knowledge/Article/Catalogue' && url.searchParams.get('type') === '1');
  });

  it.each([
    ['//evil.example', ''],
    ['//evil.example/Knowledge/VideoView', ''],
    ['https://evil.example', ''],
    ['https://evil.example/login', '?x=1'],
    ["javascript:window.__xss('redirect')", ''],
    ['/\\evil.example', ''],
    ['/', '//evil.example'],
  ])('goes home instead of %j %j', async (target, search) => {
    const { page } = s;
    await logout(page);
    await loginWithRemembered(page, target, search);
    await page.waitForTimeout(300);
    const url = new URL(page.url());
    expect(url.origin).toBe(s.server.url);
    expect(url.pathname).toBe('/');
    expect(hits).toEqual([]);
    expect(dialogs).toEqual([]);
  });
});

describe('停用 in 成员管理', () => {
  it('shows the column and the switch, ends the member’s session at their next step, and refuses their login', async () => {
    const { page } = s;
    const member = await createMember(s.server, { videoType: '2' });
    // The member works in a browser of their own.
    const theirs = await s.browser.newContext({ baseURL: s.server.url, locale: 'zh-CN' });
    theirs.setDefaultTimeout(UI_TIMEOUT);
    try {
      const memberPage = await theirs.newPage();
      await login(memberPage, member.userName, member.password);
      await memberPage.getByRole('menuitem', { name: '视频分类' }).click();
      await rowOf(memberPage, '造价业务培训').waitFor();

      await page.goto('/member');
      await page.getByRole('columnheader', { name: '停用', exact: true }).waitFor();
      await rowOf(page, member.userName).getByRole('button', { name: '编辑', exact: true }).click();
      const dialog = formDialog(page, '成员详情');
      await dialog.getByRole('switch', { name: '停用' }).check();
      await dialog.getByRole('button', { name: '保存', exact: true }).click();
      await seeNotification(page, '操作成功!');
      await expect(rowOf(page, member.userName).getByRole('cell', { name: '是', exact: true }).count()).resolves.toBe(1);

      // The member's next step: the server answers 401, the app shows the login page.
      await memberPage.reload();
      await memberPage.waitForURL('**/login');
      await memberPage.getByRole('textbox', { name: '用户名', exact: true }).fill(member.userName);
      await memberPage.getByRole('textbox', { name: '密码', exact: true }).fill(member.password);
      await memberPage.getByRole('button', { name: '登录', exact: true }).click();
      await memberPage.getByText('该账号已停用，请联系管理员').waitFor();
      expect(new URL(memberPage.url()).pathname).toBe('/login');
    } finally {
      await theirs.close();
    }
  });

  it('refuses to disable the built-in administrator with its message', async () => {
    const { page } = s;
    await rowOf(page, 'admin').getByRole('button', { name: '编辑', exact: true }).click();
    const dialog = formDialog(page, '成员详情');
    await dialog.getByRole('switch', { name: '停用' }).check();
    await dialog.getByRole('button', { name: '保存', exact: true }).click();
    await page.getByText('内置管理员不能停用').first().waitFor();
    await dialog.getByRole('button', { name: '取消', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect(page.getByRole('button', { name: '设置' }).isVisible()).resolves.toBe(true);
  });
});
