// Every screen the declarations name (SCREENS, MENU_ENTRIES of schemas/index.ts), opened the way a
// bookmark or a shared link opens it: a deep link loads its screen, a reload keeps it, an unknown
// path shows the 404 page inside the app, and a member sees exactly what its modules allow.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { MENU_ENTRIES, SCREENS, type Screen } from '../../schemas/index';
import { APP_TITLE, screenAt } from '../../src/navigation';
import { ADMIN_PASSWORD, createMember, login, logout, UI_TIMEOUT, useBrowserSuite, type MemberLogin } from './helpers';

const s = useBrowserSuite();

/** The title react-admin's app bar shows (the page's Title). */
const appBarTitle = (page: Page) => page.locator('#react-admin-title').innerText();

const screenAtUrl = (url: string): Screen | undefined => screenAt(new URL(url, 'http://app').pathname);

/**
 * Opens `url` as a new page load and waits for its screen: a title of its own in the app bar, not
 * the 404 page, not 无权限, no error page. Answers that title.
 */
async function openScreen(page: Page, url: string): Promise<string> {
  await page.goto(url);
  await expect.poll(() => appBarTitle(page), { timeout: UI_TIMEOUT, message: `${url}: the app bar shows the screen's title` }).not.toMatch(new RegExp(`^(|${APP_TITLE}|无权限)$`));
  await page.waitForLoadState('networkidle', { timeout: UI_TIMEOUT });
  await expect(page.getByRole('heading', { name: '页面不存在' }).count(), `${url}: not the 404 page`).resolves.toBe(0);
  await expect(page.getByText('出现错误').count(), `${url}: not the error page`).resolves.toBe(0);
  return appBarTitle(page);
}

/** The browser tab's title a screen titled `screen` has: the screen, then the app. */
const tabTitle = (screen: string) => `${screen} - ${APP_TITLE}`;

/** The <title> of the HTML the server sends for `url` with the context's cookie (a rendered page). */
async function servedTitle(url: string): Promise<string | undefined> {
  const html = await (await s.context.request.get(url)).text();
  expect(html, `${url}: rendered by the server`).toContain('id="page-state"');
  return /<title>([^<]*)<\/title>/.exec(html)?.[1];
}

/** The menu entries marked current. */
const currentEntries = (page: Page) => page.getByRole('menu').locator('[aria-current="page"]').allInnerTexts();

describe('every screen as the administrator', () => {
  const problems: string[] = [];
  /** Links found on the screens with a menu entry: how the others (a video's details) are reached. */
  const links = new Set<string>();

  beforeAll(async () => {
    s.page.on('pageerror', (error) => problems.push(error.message));
    s.page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await login(s.page, 'admin', ADMIN_PASSWORD);
  });

  it.each(MENU_ENTRIES.map((entry) => [entry.label, entry] as const))('%s: a deep link loads it, marked in the menu, and a reload keeps it', async (_label, entry) => {
    const { page } = s;
    problems.length = 0;
    const title = await openScreen(page, entry.to);
    // Titled as declared: the entry's label (a catalogue's names its document type).
    expect(title).toBe(entry.label);
    await expect(page.title()).resolves.toBe(tabTitle(entry.label));
    await expect(servedTitle(entry.to)).resolves.toBe(tabTitle(entry.label));
    await expect(currentEntries(page)).resolves.toEqual([entry.label]);
    for (const href of await page.locator('#main-content a[href^="/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!))) links.add(href);

    // A reload: the same screen.
    const sessionCalls: string[] = [];
    const onRequest = (request: { url: () => string }) => {
      if (request.url().includes('/Ajax/GetCurrentMember')) sessionCalls.push(request.url());
    };
    page.on('request', onRequest);
    const url = page.url();
    await page.reload();
    await expect.poll(() => appBarTitle(page), { timeout: UI_TIMEOUT }).toBe(title);
    await page.waitForLoadState('networkidle', { timeout: UI_TIMEOUT });
    page.off('request', onRequest);
    expect(page.url()).toBe(url);
    await expect(page.title()).resolves.toBe(tabTitle(entry.label));
    await expect(currentEntries(page)).resolves.toEqual([entry.label]);
    // The page comes with the session (rendered by the server): the browser does not ask for it.
    expect(sessionCalls).toHaveLength(0);
    expect(problems).toEqual([]);
  });

  it.each(SCREENS.filter((screen) => !screen.menu?.length).map((screen) => [screen.path, screen] as const))(
    '%s (no menu entry): reached by a link of another screen, a deep link to it loads it',
    async (_path, screen) => {
      problems.length = 0;
      const link = [...links].find((href) => screenAtUrl(href) === screen);
      expect(link, `a link to ${screen.path} among ${[...links].join(', ')}`).toBeDefined();
      const title = await openScreen(s.page, link!);
      expect(title).toBe(screen.label);
      await expect(s.page.title()).resolves.toBe(tabTitle(screen.label));
      await expect(servedTitle(link!)).resolves.toBe(tabTitle(screen.label));
      await s.page.reload();
      await expect.poll(() => appBarTitle(s.page), { timeout: UI_TIMEOUT }).toBe(title);
      await expect(s.page.title()).resolves.toBe(tabTitle(screen.label));
      expect(problems).toEqual([]);
    },
  );

  it('shows the 404 page inside the app for an unknown path, served as the app', async () => {
    const { page } = s;
    const served = await fetch(`${s.server.url}/Knowledge/NoSuchScreen`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^text\/html/);
    // Without a session (this fetch has no cookie) the page says so: never kept for another cookie.
    expect(served.headers.get('cache-control')).toBe('no-store');
    await page.goto('/Knowledge/NoSuchScreen');
    await page.getByRole('heading', { name: '页面不存在' }).waitFor();
    await expect(appBarTitle(page)).resolves.toBe(APP_TITLE);
    await expect(page.title()).resolves.toBe(APP_TITLE);
    // The menu is there: the way back.
    await page.getByRole('menuitem', { name: '首页' }).click();
    await page.getByRole('heading', { name: '欢迎使用知识学习后台，管理员' }).waitFor();
  });

  it('keeps the sidebar as the member left it across a reload', async () => {
    const { page } = s;
    await openScreen(page, MENU_ENTRIES[0]!.to);
    await page.getByRole('button', { name: '关闭菜单' }).click();
    await page.getByRole('button', { name: '打开菜单' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: '打开菜单' }).waitFor();
    await expect(page.locator('.RaSidebar-closed').count()).resolves.toBe(1);
    await page.getByRole('button', { name: '打开菜单' }).click();
    await page.getByRole('button', { name: '关闭菜单' }).waitFor();
    await logout(page);
  });
});

describe('a member limited to some modules', () => {
  /** Modules viewed (code 2) by the member: one of each group kind, a shared screen among them. */
  const MODULES = { videoView: '2', useweb: '2', classify: '2' };
  const allowed = (module: string) => module in MODULES;
  let member: MemberLogin;

  beforeAll(async () => {
    member = await createMember(s.server, MODULES);
    await login(s.page, member.userName, member.password);
  });

  it('has in the menu exactly the entries of its modules, and on the home page links to their screens only', async () => {
    const { page } = s;
    await page.getByRole('menuitem', { name: '首页' }).click();
    await page.getByRole('heading', { name: `欢迎使用知识学习后台，${member.auName}` }).waitFor();
    const expected = MENU_ENTRIES.filter((e) => allowed(e.module)).map((e) => e.label);
    expect(expected.length).toBeGreaterThan(0);
    const menu = (await page.getByRole('menu').getByRole('menuitem').allInnerTexts()).map((t) => t.trim());
    expect(menu).toEqual(['首页', ...expected]);
    // The dashboard's sections (their figures link to the screens they come from) once all arrived.
    await page.getByRole('main').getByRole('link').first().waitFor();
    await page.waitForLoadState('networkidle');
    const allowedPaths = SCREENS.filter((screen) => allowed(screen.module)).map((screen) => screen.path.replace(/\/:[A-Za-z]+\?$/, ''));
    const linked = await page
      .getByRole('main')
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
    expect(linked.length).toBeGreaterThan(0);
    for (const path of linked) expect(allowedPaths, path).toContain(decodeURI(path));
  });

  it.each(SCREENS.map((screen) => [screen.path, screen] as const))('%s: opens for its module, else 无权限', async (_path, screen) => {
    const { page } = s;
    const url = MENU_ENTRIES.find((e) => e.screen === screen)?.to ?? screen.path.replace(/\/:[A-Za-z]+\?$/, '');
    if (allowed(screen.module)) {
      await openScreen(page, url);
      await expect(page.getByRole('heading', { name: '无权限' }).count()).resolves.toBe(0);
    } else {
      await page.goto(url);
      await page.getByRole('heading', { name: '无权限', level: 1 }).waitFor();
      await expect(page.getByRole('table').count()).resolves.toBe(0);
      expect(new URL(page.url()).pathname).toBe(new URL(url, 'http://app').pathname);
    }
  });
});
