// Logging in and out as a person does: the login page, a refused password, the administrator's
// menu with its groups, and 登出.
import { describe, expect, it } from 'vitest';
import { a11yAudit, ADMIN_PASSWORD, login, logout, useBrowserSuite } from './helpers';

const s = useBrowserSuite();
const audit = a11yAudit();
const LOGIN = 'login page';
const HOME = 'home with the administrator menu';

/**
 * The administrator's menu: each group heading followed by its entries (other entries may be added
 * as screens arrive; these must be there, under their group, in this order).
 */
const GROUPS = [
  ['视频', ['视频学习编辑', '在线视频', '视频分类']],
  ['文章', ['标准图集', '法律法规', '造价刊物', '公司通用文档', '文章目录管理', '分类管理']],
  ['常用网站', ['常用网站管理']],
  ['系统管理', ['成员管理', '操作日志']],
] as const;

describe('login, menu and logout', () => {
  it('sends a visitor to the login page', async () => {
    const { page } = s;
    await page.goto('/videoType');
    await page.waitForURL('**/login');
    await page.getByRole('heading', { name: '知识学习后台' }).waitFor();
    await page.getByRole('textbox', { name: '用户名', exact: true }).waitFor();
    await page.getByRole('textbox', { name: '密码', exact: true }).waitFor();
    await audit.check(page, LOGIN);
  });

  it('refuses a wrong password with the server message and stays on the login page', async () => {
    const { page } = s;
    await page.getByRole('textbox', { name: '用户名', exact: true }).fill('admin');
    await page.getByRole('textbox', { name: '密码', exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.getByText('用户名或密码错误').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('logs the administrator in: the home greets them and the menu shows every group and entry', async () => {
    const { page } = s;
    await login(page, 'admin', ADMIN_PASSWORD);
    await page.getByRole('menuitem', { name: '首页' }).click();
    await page.getByRole('heading', { name: '欢迎使用知识学习后台，管理员' }).waitFor();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: '首页' }).waitFor();
    await menu.getByRole('menuitem', { name: '统一口径', exact: true }).waitFor();
    // The menu's lines in order: group headings and entries.
    const lines = (await menu.locator(':scope > *').allInnerTexts()).map((t) => t.trim());
    expect(lines[0]).toBe('首页');
    const headings = GROUPS.map(([group]) => lines.indexOf(group));
    expect(headings.every((h) => h > 0), `group headings in ${lines.join(' | ')}`).toBe(true);
    GROUPS.forEach(([group, items], g) => {
      const end = headings[g + 1] ?? lines.length;
      const at = items.map((item) => lines.indexOf(item));
      expect(at.every((i) => i > headings[g]! && i < end), `${group}: ${items.join(', ')} in ${lines.join(' | ')}`).toBe(true);
      expect([...at].sort((a, b) => a - b)).toEqual(at);
    });
    await expect(page.getByRole('button', { name: '设置' }).innerText()).resolves.toContain('管理员');
    // The name it shows is in its accessible name (label in name, WCAG 2.5.3).
    await page.getByRole('button', { name: '管理员，设置', exact: true }).waitFor({ timeout: 2000 });
    await audit.check(page, HOME);
  });

  it('opens a screen from the menu and marks it as the current entry', async () => {
    const { page } = s;
    await page.getByRole('menuitem', { name: '常用网站管理' }).click();
    await page.waitForURL('**/useweb');
    await page.getByRole('cell', { name: '中国政府网', exact: true }).waitFor();
    await expect(page.getByRole('menuitem', { name: '常用网站管理' }).getAttribute('aria-current')).resolves.toBe('page');
  });

  it('logs out with 登出: the login page comes back and screens need a new login', async () => {
    const { page } = s;
    await logout(page);
    await page.waitForURL('**/login');
    await page.goto('/useweb');
    await page.waitForURL('**/login');
    await page.getByRole('button', { name: '登录', exact: true }).waitFor();
    await expect(page.getByRole('menu').count()).resolves.toBe(0);
  });
});

audit.tests([LOGIN, HOME]);
