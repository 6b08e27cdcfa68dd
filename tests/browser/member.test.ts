// 成员管理: an administrator adds a member, ticking module permissions; the member then logs in
// and gets exactly those screens and buttons.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  a11yAudit,
  ADMIN_PASSWORD,
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
const LIST = '成员管理 list';
const DIALOG = '成员管理 成员详情 dialog';

beforeAll(async () => {
  await login(s.page, 'admin', ADMIN_PASSWORD);
});

describe('成员管理', () => {
  const userName = `bt_${uniqueName('u')}`;
  const auName = uniqueName('新成员');
  const password = 'secret-4567';

  it('lists the members for an administrator', async () => {
    const { page } = s;
    await page.getByRole('menuitem', { name: '成员管理' }).click();
    await page.waitForURL('**/member');
    await rowOf(page, 'admin').waitFor();
    for (const header of ['登录名', '姓名', '单位', '管理员']) {
      await page.getByRole('columnheader', { name: header, exact: true }).waitFor();
    }
    await audit.check(page, LIST);
  });

  it('adds a member with 视频分类 查看 and 新增 ticked', async () => {
    const { page } = s;
    await page.getByRole('button', { name: '新增', exact: true }).click();
    const dialog = formDialog(page, '成员详情');
    await dialog.waitFor();
    await dialog.getByRole('textbox', { name: '登录名' }).fill(userName);
    await dialog.getByRole('textbox', { name: '姓名' }).fill(auName);
    await dialog.getByRole('textbox', { name: '单位' }).fill('造价二部');
    await dialog.getByRole('textbox', { name: '密码', exact: true }).fill(password);
    const table = dialog.getByRole('table', { name: '模块权限' });
    await table.getByRole('checkbox', { name: '视频分类 查看' }).check();
    await table.getByRole('checkbox', { name: '视频分类 新增' }).check();
    await expect(table.getByRole('checkbox', { checked: true }).count()).resolves.toBe(2);
    await audit.check(page, DIALOG);
    await dialog.getByRole('button', { name: '添加', exact: true }).click();
    await seeNotification(page, '操作成功!');
    await dialog.waitFor({ state: 'hidden' });
    const row = rowOf(page, userName);
    await row.waitFor();
    await row.getByRole('cell', { name: auName }).waitFor();
    await row.getByRole('cell', { name: '造价二部' }).waitFor();
    // 管理员 否 and 停用 否.
    await expect(row.getByRole('cell', { name: '否', exact: true }).count()).resolves.toBe(2);
  });

  it('shows the ticked permissions again when the member is edited', async () => {
    const { page } = s;
    await rowOf(page, userName).getByRole('button', { name: '编辑', exact: true }).click();
    const dialog = formDialog(page, '成员详情');
    const table = dialog.getByRole('table', { name: '模块权限' });
    await table.getByRole('checkbox', { name: '视频分类 查看' }).waitFor();
    await expect(table.getByRole('checkbox', { name: '视频分类 查看' }).isChecked()).resolves.toBe(true);
    await expect(table.getByRole('checkbox', { name: '视频分类 新增' }).isChecked()).resolves.toBe(true);
    await expect(table.getByRole('checkbox', { checked: true }).count()).resolves.toBe(2);
    await dialog.getByRole('button', { name: '取消', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('lets the new member in with only 视频分类, where they may add but not edit or delete', async () => {
    const { page } = s;
    await logout(page);
    await login(page, userName, password);
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: '视频分类' }).waitFor();
    const entries = (await menu.getByRole('menuitem').allInnerTexts()).map((t) => t.trim());
    expect(entries).toEqual(['首页', '视频分类']);
    await menu.getByRole('menuitem', { name: '视频分类' }).click();
    await rowOf(page, '造价业务培训').waitFor();
    await page.getByRole('button', { name: '添加', exact: true }).waitFor();
    await expect(page.getByRole('button', { name: '编辑', exact: true }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: '删除', exact: true }).count()).resolves.toBe(0);
  });
});

audit.tests([LIST, DIALOG]);
