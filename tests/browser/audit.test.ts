// 操作日志: an administrator renames a video category, opens 操作日志 from the menu, finds the
// entry (time, who, 修改, 视频分类, the new name), filters down to it and reads its details (名称
// before → after). A member who is not an administrator has no such menu entry and gets 无权限
// on a deep link.
import { beforeAll, describe, expect, it } from 'vitest';
import { dayIn, DEFAULT_TIME_ZONE } from '../../schemas/businessTime';
import {
  a11yAudit,
  ADMIN_PASSWORD,
  createMember,
  fillDate,
  formDialog,
  login,
  logout,
  rowOf,
  seeNotification,
  uniqueName,
  useBrowserSuite,
} from './helpers';

const s = useBrowserSuite();
const audit = a11yAudit();
const LIST = '操作日志 list';
const DETAILS = '操作日志 操作详情 dialog';
const DENIED = '操作日志 无权限 (member)';

beforeAll(async () => {
  await login(s.page, 'admin', ADMIN_PASSWORD);
});

describe('操作日志', () => {
  const renamed = uniqueName('审计分类');

  it('records the administrator renaming a video category', async () => {
    const { page } = s;
    await page.getByRole('menuitem', { name: '视频分类' }).click();
    await page.waitForURL('**/videoType');
    await rowOf(page, '软件操作教程').getByRole('button', { name: '编辑', exact: true }).click();
    const dialog = formDialog(page, '详情');
    await dialog.getByRole('textbox', { name: '名称' }).fill(renamed);
    await dialog.getByRole('button', { name: '保存', exact: true }).click();
    await seeNotification(page, '操作成功!');
    await rowOf(page, renamed).waitFor();
  });

  it('lists the entry newest first: time, 操作人, 操作, 对象, 名称', async () => {
    const { page } = s;
    const started = Date.now();
    await page.getByRole('menuitem', { name: '操作日志' }).click();
    await page.waitForURL('**/auditLog');
    for (const header of ['时间', '操作人', '操作', '对象', '名称', '详情']) {
      await page.getByRole('columnheader', { name: header, exact: true }).waitFor();
    }
    const row = rowOf(page, renamed);
    await row.waitFor();
    // The newest entry is the rename (the demo data is loaded without entries).
    await expect(page.getByRole('row').nth(1).getByRole('cell').nth(4).textContent()).resolves.toBe(renamed);
    const cells = (await row.getByRole('cell').allInnerTexts()).map((t) => t.trim());
    expect(cells.slice(1, 5)).toEqual(['管理员', '修改', '视频分类', renamed]);
    expect(cells[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // Shown in the business time zone (Asia/Shanghai, UTC+8, the browser being elsewhere): within a few minutes of now.
    const shown = new Date(`${cells[0]!.replace(' ', 'T')}+08:00`).getTime();
    expect(Math.abs(shown - started)).toBeLessThan(10 * 60_000);
    // Read only.
    for (const name of ['新增', '添加', '编辑', '删除']) {
      await expect(page.getByRole('button', { name, exact: true }).count(), name).resolves.toBe(0);
    }
    await audit.check(page, LIST);
  });

  it('filters by 对象 and 操作', async () => {
    const { page } = s;
    await page.getByRole('combobox', { name: /^对象/ }).click();
    await page.getByRole('option', { name: '常用网站', exact: true }).click();
    await page.getByText('暂无数据').waitFor();
    await expect(rowOf(page, renamed).count()).resolves.toBe(0);
    await page.getByRole('combobox', { name: /^对象/ }).click();
    await page.getByRole('option', { name: '视频分类', exact: true }).click();
    await page.getByRole('combobox', { name: /^操作(?!人)/ }).click();
    await page.getByRole('option', { name: '修改', exact: true }).click();
    await rowOf(page, renamed).waitFor();
    await page.getByText('共 1 条').waitFor();
  });

  it('filters by 操作人 and by the business time zone’s days, and says why a range is refused', async () => {
    const { page } = s;
    await page.getByRole('combobox', { name: /^操作人/ }).click();
    await page.getByRole('option', { name: '管理员 (admin)', exact: true }).click();
    await page.getByText('共 1 条').waitFor();
    // YYYY-MM-DD of today and tomorrow in the business time zone (not the browser's).
    const today = dayIn(DEFAULT_TIME_ZONE);
    const tomorrow = new Date(Date.parse(`${today}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const from = (day: string) => fillDate(page, '开始日期', day);
    const to = (day: string) => fillDate(page, '结束日期', day);
    await to(today);
    await from(today);
    await rowOf(page, renamed).waitFor();
    await page.getByText('共 1 条').waitFor();
    // A range that ends before it starts is refused by the server: the list says why.
    await from(tomorrow);
    await page.getByRole('alert').filter({ hasText: '操作日志加载失败：开始时间不能晚于结束时间' }).waitFor();
    await to(tomorrow);
    await page.getByText('暂无数据').waitFor();
    await from(today);
    await rowOf(page, renamed).waitFor();
  });

  it('shows the changed field with its Chinese title, before → after', async () => {
    const { page } = s;
    await rowOf(page, renamed).getByRole('button', { name: '查看', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: '操作详情' });
    await dialog.waitFor();
    const changes = dialog.getByRole('table', { name: '变更内容' });
    const line = changes.getByRole('row').filter({ has: page.getByRole('rowheader', { name: '名称', exact: true }) });
    await expect(line.getByRole('cell').allInnerTexts()).resolves.toEqual(['软件操作教程', renamed]);
    await audit.check(page, DETAILS);
    await dialog.getByRole('button', { name: '关闭', exact: true }).last().click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('is not offered to a member who is not an administrator, and a deep link shows 无权限', async () => {
    const { page } = s;
    const member = await createMember(s.server, { videoType: '1,2,3,4', useweb: '2' });
    await logout(page);
    await login(page, member.userName, member.password);
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: '视频分类' }).waitFor();
    const entries = (await menu.getByRole('menuitem').allInnerTexts()).map((t) => t.trim());
    expect(entries).not.toContain('操作日志');
    await page.goto('/auditLog');
    await page.getByRole('heading', { name: '无权限', level: 1 }).waitFor();
    await expect(page.getByRole('table').count()).resolves.toBe(0);
    await audit.check(page, DENIED);
  });
});

audit.tests([LIST, DETAILS, DENIED]);
