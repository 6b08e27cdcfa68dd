// 视频分类: add and edit through the 500px 详情 dialog, which neither Escape nor
// a click outside closes; delete after the 提示 confirmation; a category that still has videos
// is refused with the server's 409 message.
import type { Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  a11yAudit,
  animationsSettled,
  clickOutside,
  deleteRow,
  formDialog,
  login,
  rowOf,
  seeNotification,
  uniqueName,
  useBrowserSuite,
} from './helpers';

const s = useBrowserSuite();
const audit = a11yAudit();
const LIST = '视频分类 list';
const ADD_DIALOG = '视频分类 详情 dialog (add)';
const EDIT_DIALOG = '视频分类 详情 dialog (edit)';
const CONFIRM = '视频分类 delete confirmation 提示';

beforeAll(async () => {
  await login(s.page, 'admin', ADMIN_PASSWORD);
});

describe('视频分类', () => {
  const name = uniqueName('浏览器分类');
  const renamed = `${name}改`;

  it('opens from the menu with the demo categories, 15 a page with the total', async () => {
    const { page } = s;
    await page.getByRole('menuitem', { name: '视频分类' }).click();
    await page.waitForURL('**/videoType');
    await rowOf(page, '造价业务培训').waitFor();
    for (const header of ['名称', '排序', '操作']) {
      await page.getByRole('columnheader', { name: header, exact: true }).waitFor();
    }
    await page.getByText('共 3 条').waitFor();
    await audit.check(page, LIST);
  });

  it('adds a category through the 500px 详情 dialog, which Escape and a click outside do not close', async () => {
    const { page } = s;
    await page.getByRole('button', { name: '添加', exact: true }).click();
    const dialog = formDialog(page, '详情');
    await dialog.waitFor();
    const box = await dialog.boundingBox();
    expect(box?.width).toBe(500);
    await expect(dialog.getByRole('textbox', { name: '名称' }).isVisible()).resolves.toBe(true);
    await expect(dialog.getByRole('spinbutton', { name: '排序' }).isVisible()).resolves.toBe(true);
    await audit.check(page, ADD_DIALOG);

    await page.keyboard.press('Escape');
    await clickOutside(page, dialog);
    await animationsSettled(page);
    await expect(dialog.isVisible()).resolves.toBe(true);

    await dialog.getByRole('textbox', { name: '名称' }).fill(name);
    await dialog.getByRole('spinbutton', { name: '排序' }).fill('9');
    await dialog.getByRole('button', { name: '添加', exact: true }).click();
    await seeNotification(page, '操作成功!');
    await dialog.waitFor({ state: 'hidden' });
    await rowOf(page, name).waitFor();
    await expect(rowOf(page, name).getByRole('cell').nth(2).textContent()).resolves.toBe('9');
    await page.getByText('共 4 条').waitFor();
  });

  it('edits it with 保存, and the row shows the new name', async () => {
    const { page } = s;
    await rowOf(page, name).getByRole('button', { name: '编辑', exact: true }).click();
    const dialog = formDialog(page, '详情');
    await dialog.waitFor();
    const input = dialog.getByRole('textbox', { name: '名称' });
    await expect(input.inputValue()).resolves.toBe(name);
    await expect(dialog.getByRole('button', { name: '添加', exact: true }).count()).resolves.toBe(0);
    await audit.check(page, EDIT_DIALOG);

    await page.keyboard.press('Escape');
    await clickOutside(page, dialog);
    await animationsSettled(page);
    await expect(dialog.isVisible()).resolves.toBe(true);

    await input.fill(renamed);
    await dialog.getByRole('button', { name: '保存', exact: true }).click();
    await seeNotification(page, '操作成功!');
    await dialog.waitFor({ state: 'hidden' });
    await rowOf(page, renamed).waitFor();
    await expect(rowOf(page, name).count()).resolves.toBe(0);
  });

  it('asks 提示 before deleting: 取消 keeps the row, 确定 deletes it with 删除成功!', async () => {
    const { page } = s;
    await deleteRow(page, renamed, '取消');
    await expect(rowOf(page, renamed).isVisible()).resolves.toBe(true);

    await rowOf(page, renamed).getByRole('button', { name: '删除', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: '提示' });
    await confirm.waitFor();
    await audit.check(page, CONFIRM);
    await confirm.getByRole('button', { name: '确定', exact: true }).click();
    await seeNotification(page, '删除成功!');
    await rowOf(page, renamed).waitFor({ state: 'detached' });
    await page.getByText('共 3 条').waitFor();
  });

  it('refuses to delete a category that still has videos, with the server message', async () => {
    const { page } = s;
    await deleteRow(page, '造价业务培训', '确定');
    await page.getByText('该视频分类下还有视频，请先删除或移走视频').waitFor();
    await expect(page.getByText('删除成功!').count()).resolves.toBe(0);
    await expect(rowOf(page, '造价业务培训').isVisible()).resolves.toBe(true);
  });
});

describe('视频分类 loading', () => {
  it('asks for neither the session nor the first page on a reload: the page comes with them', async () => {
    const { page } = s;
    await page.goto('/videoType');
    await rowOf(page, '造价业务培训').waitFor();
    const calls: string[] = [];
    let firstPages = 0;
    const track = (request: Request) => {
      calls.push(new URL(request.url()).pathname);
      if (request.url().includes('/Ajax/GetVideoTypeListInAdmin') && (JSON.parse(request.postData() ?? '{}') as { pageIndex?: number }).pageIndex === 1) firstPages++;
    };
    page.on('request', track);
    await page.reload();
    await rowOf(page, '造价业务培训').waitFor();
    await page.getByText(/^共 \d+ 条$/).waitFor();
    await page.waitForLoadState('networkidle');
    page.off('request', track);
    // Rendered by the server with both (the second page may follow, fetched ahead: see below).
    expect(calls.filter((p) => p === '/Ajax/GetCurrentMember')).toHaveLength(0);
    expect(firstPages).toBe(0);
  });
});

describe('视频分类 pages', () => {
  it('fetches the next page ahead, so that 下一页 shows it even with the network held', async () => {
    const { page } = s;
    const admin = await s.server.admin();
    // 20 more categories: two pages of 15, sorted after the demo ones (VDT_SORT ASC).
    for (let i = 0; i < 20; i++) {
      const added = await admin.call('/Ajax/AddVideoType', { VdtName: `翻页分类${String(i).padStart(2, '0')}`, VdtSort: 900 + i });
      expect(added.status).toBe(200);
    }
    const isList = (url: URL | string) => String(url).includes('/Ajax/GetVideoTypeListInAdmin');
    const pageOf = (body: string | null) => (JSON.parse(body ?? '{}') as { pageIndex?: number }).pageIndex;
    const prefetched = page.waitForResponse((r) => isList(r.url()) && pageOf(r.request().postData()) === 2);
    await page.goto('/videoType');
    await rowOf(page, '翻页分类00').waitFor();
    await prefetched;

    // From now on every list request is held: only what is already cached can be shown.
    const held: (() => Promise<void>)[] = [];
    await page.route(isList, (route) => void held.push(() => route.continue()));
    await page.getByRole('button', { name: '下一页' }).click();
    await rowOf(page, '翻页分类19').waitFor();
    await expect(rowOf(page, '翻页分类00').count()).resolves.toBe(0);
    await Promise.all(held.map((release) => release()));
    await page.unroute(isList);
  });
});

audit.tests([LIST, ADD_DIALOG, EDIT_DIALOG, CONFIRM]);
