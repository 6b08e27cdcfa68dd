// A new user's first visit and a hand-over between members in one browser: the login page shows
// quietly (no error toast, no uncaught or console error before anyone acts), a deep link opened
// without a session is where login goes, the next member who logs in after a 登出 lands on home,
// never on the page the previous member left, and the browser's tab names the screen.
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { APP_TITLE } from '../../src/navigation';
import { ADMIN_PASSWORD, createMember, login, logout, rowOf, UI_TIMEOUT, useBrowserSuite, type MemberLogin } from './helpers';

const s = useBrowserSuite();

/** The notifications (react-admin's snackbar) the page showed since it loaded, however briefly. */
declare global {
  interface Window {
    shownNotifications?: string[];
  }
}

/** Records every notification the context's pages show, from before their first script runs. */
async function recordNotifications(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const shown: string[] = [];
    window.shownNotifications = shown;
    new MutationObserver(() => {
      for (const note of document.querySelectorAll('.MuiSnackbar-root')) {
        const text = note.textContent?.trim() ?? '';
        if (!shown.includes(text)) shown.push(text);
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

/** Uncaught errors and console errors of `page`, from now on. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()} (${message.location().url})`);
  });
  return errors;
}

const loginForm = (page: Page) => page.getByRole('textbox', { name: '用户名', exact: true });

/** Types a member's name and password into the login page shown now and presses 登录: how a person logs in. */
async function submitLogin(page: Page, user: string, password: string): Promise<void> {
  await loginForm(page).fill(user);
  await page.getByRole('textbox', { name: '密码', exact: true }).fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await page.getByRole('button', { name: '设置' }).waitFor();
  await page.waitForURL((url) => url.pathname !== '/login');
}

const path = (page: Page) => new URL(page.url()).pathname;

/** A while for a late toast or error to show: what is asserted is that none did, not how fast. */
const QUIET_WHILE_MS = 2_000;

describe('a first visit without a session', () => {
  let errors: string[];

  beforeAll(async () => {
    await recordNotifications(s.context);
    errors = collectErrors(s.page);
  });

  it.each([['/'], ['/videoType']])('%s shows the login page quietly: no notification, no error', async (address) => {
    const { page } = s;
    errors.length = 0;
    await page.goto(address);
    await loginForm(page).waitFor();
    await page.waitForLoadState('networkidle', { timeout: UI_TIMEOUT });
    await page.waitForTimeout(QUIET_WHILE_MS);
    expect(path(page)).toBe('/login');
    await expect(page.evaluate(() => window.shownNotifications)).resolves.toEqual([]);
    expect(errors).toEqual([]);
    await expect(page.title()).resolves.toBe(`登录 - ${APP_TITLE}`);
  });

  it('goes, once logged in, to the deep link first opened', async () => {
    const { page } = s;
    // The login page of /videoType, as the previous test left it.
    expect(path(page)).toBe('/login');
    await submitLogin(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL('**/videoType');
    await page.locator('#react-admin-title').getByText('视频分类', { exact: true }).waitFor();
    await expect(page.title()).resolves.toBe(`视频分类 - ${APP_TITLE}`);
    await expect(page.evaluate(() => window.shownNotifications)).resolves.toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('a hand-over between members in one browser', () => {
  let member: MemberLogin;

  beforeAll(async () => {
    member = await createMember(s.server, { videoType: '2', useweb: '2' });
  });

  /** A new page load logged in as `user`: each case starts from it. */
  async function loggedInAs(page: Page, user: string, password: string): Promise<void> {
    await s.context.clearCookies();
    await login(page, user, password);
  }

  /** Opens a menu entry as the member logged in now and waits for its screen's rows (`row`: a cell of one). */
  async function openEntry(page: Page, entry: string, address: string, row: string): Promise<void> {
    await page.getByRole('menuitem', { name: entry, exact: true }).click();
    await page.waitForURL(`**${address}`);
    await page.locator('#react-admin-title').getByText(entry, { exact: true }).waitFor();
    await rowOf(page, row).first().waitFor();
  }

  const homeOf = (page: Page, name: string) => page.getByRole('heading', { name: `欢迎使用知识学习后台，${name}` });

  it("after 登出, Back to the administrator's page and the next member's login: home", async () => {
    const { page } = s;
    await loggedInAs(page, 'admin', ADMIN_PASSWORD);
    await openEntry(page, '成员管理', '/member', '管理员');
    await logout(page);
    // Back, as a person does after logging out: the login page again, for that page.
    await page.goBack();
    await loginForm(page).waitFor();
    expect(path(page)).toBe('/login');
    await submitLogin(page, member.userName, member.password);
    expect(path(page)).toBe('/');
    await homeOf(page, member.auName).waitFor();
  });

  it("a session ended elsewhere (登出 in another tab), then the next member's login in the tab left open: home", async () => {
    const { page } = s;
    await loggedInAs(page, 'admin', ADMIN_PASSWORD);
    await openEntry(page, '视频分类', '/videoType', '造价业务培训');
    // The same browser's cookie, logged out from elsewhere.
    await s.context.request.post('/Ajax/Logout');
    // The next click on the page left open finds the session gone: the login page.
    await page.getByRole('menuitem', { name: '常用网站管理', exact: true }).click();
    await loginForm(page).waitFor();
    await submitLogin(page, member.userName, member.password);
    expect(path(page)).toBe('/');
    await homeOf(page, member.auName).waitFor();
  });

  it('a member whose own session ended comes back, once logged in again, to the page they were on', async () => {
    const { page } = s;
    await loggedInAs(page, member.userName, member.password);
    await openEntry(page, '视频分类', '/videoType', '造价业务培训');
    await s.context.request.post('/Ajax/Logout');
    await page.getByRole('menuitem', { name: '常用网站管理', exact: true }).click();
    await loginForm(page).waitFor();
    await submitLogin(page, member.userName, member.password);
    expect(path(page)).toBe('/useweb');
    await page.locator('#react-admin-title').getByText('常用网站管理', { exact: true }).waitFor();
  });
});

describe("the browser tab's title", () => {
  beforeAll(async () => {
    await s.context.clearCookies();
    await login(s.page, 'admin', ADMIN_PASSWORD);
  });

  it('names the screen opened from the menu, and the video details page', async () => {
    const { page } = s;
    for (const entry of ['视频学习编辑', '法律法规', '常用网站管理', '在线视频']) {
      await page.getByRole('menuitem', { name: entry, exact: true }).click();
      await page.locator('#react-admin-title').getByText(entry, { exact: true }).waitFor();
      await expect.poll(() => page.title(), { message: entry }).toBe(`${entry} - ${APP_TITLE}`);
    }
    // A video's details: reached from 在线视频.
    await page.locator('#main-content a[href^="/Knowledge/VideoView/Details"]').first().click();
    await page.locator('#react-admin-title').getByText('视频详情', { exact: true }).waitFor();
    await expect.poll(() => page.title()).toBe(`视频详情 - ${APP_TITLE}`);
    await page.getByRole('menuitem', { name: '首页', exact: true }).click();
    await expect.poll(() => page.title()).toBe(`首页 - ${APP_TITLE}`);
  });

  it('comes in the HTML of a page the server renders, and stays after the takeover', async () => {
    const { page } = s;
    const response = await page.goto('/Knowledge/Article/Catalogue?type=2');
    const html = (await response?.text()) ?? '';
    expect(/<title>([^<]*)<\/title>/.exec(html)?.[1]).toBe(`造价刊物 - ${APP_TITLE}`);
    await page.locator('#react-admin-title').getByText('造价刊物', { exact: true }).waitFor();
    await page.waitForLoadState('networkidle', { timeout: UI_TIMEOUT });
    await expect(page.title()).resolves.toBe(`造价刊物 - ${APP_TITLE}`);
  });
});
