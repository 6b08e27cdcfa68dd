// Field rules of the generated dialogs, read from the schema: a blank name is 必填 (spaces count
// as blank), a name longer than its limit gets a Chinese message instead of being cut, 排序 keeps
// to its range, and a link without http:// or https:// gets a Chinese message, not the browser's
// own bubble. Nothing is sent while a rule fails.
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, formDialog, login, rowOf, seeNotification, uniqueName, useBrowserSuite } from './helpers';
import { videoTypeSchema } from '../../schemas/videoType';

const s = useBrowserSuite();

beforeAll(async () => {
  await login(s.page, 'admin', ADMIN_PASSWORD);
});

/** Counts the requests to a call from now on. */
function countCalls(page: Page, call: string): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === call) count += 1;
  });
  return () => count;
}

/** The message the browser itself would show for the input ('' when its own checks pass). */
const nativeMessage = (input: Locator) => input.evaluate((el) => (el as HTMLInputElement).validationMessage);

async function openAddDialog(page: Page, path: string, addLabel: string): Promise<Locator> {
  await page.goto(path);
  await page.getByRole('button', { name: addLabel, exact: true }).click();
  const dialog = formDialog(page, '详情');
  await dialog.waitFor();
  return dialog;
}

describe('视频分类 dialog rules', () => {
  it('refuses a name of three spaces with 必填 and sends nothing', async () => {
    const { page } = s;
    const sent = countCalls(page, '/Ajax/AddVideoType');
    const dialog = await openAddDialog(page, '/videoType', '添加');
    await dialog.getByRole('textbox', { name: '名称' }).fill('   ');
    await dialog.getByRole('spinbutton', { name: '排序' }).fill('3');
    await dialog.getByRole('button', { name: '添加', exact: true }).click();
    await dialog.getByText('必填', { exact: true }).waitFor();
    await expect(dialog.isVisible()).resolves.toBe(true);
    expect(sent()).toBe(0);
  });

  it('shows a Chinese length message for a 400-character name instead of cutting it', async () => {
    const { page } = s;
    const sent = countCalls(page, '/Ajax/AddVideoType');
    const dialog = await openAddDialog(page, '/videoType', '添加');
    const input = dialog.getByRole('textbox', { name: '名称' });
    const long = '长'.repeat(400);
    await input.fill(long);
    await expect(input.inputValue()).resolves.toBe(long);
    await dialog.getByRole('button', { name: '添加', exact: true }).click();
    const limit = videoTypeSchema.properties.VdtName.maxLength;
    await dialog.getByText(`不能超过${limit}个字符`, { exact: true }).waitFor();
    expect(sent()).toBe(0);
  });

  it('shows Chinese messages for 排序 -1 and 1000000000, then saves a trimmed name with a sort in range', async () => {
    const { page } = s;
    const sent = countCalls(page, '/Ajax/AddVideoType');
    const dialog = await openAddDialog(page, '/videoType', '添加');
    const name = uniqueName('规则分类');
    await dialog.getByRole('textbox', { name: '名称' }).fill(`  ${name}  `);
    const sort = dialog.getByRole('spinbutton', { name: '排序' });
    const { minimum, maximum } = videoTypeSchema.properties.VdtSort;

    await sort.fill('-1');
    await dialog.getByRole('button', { name: '添加', exact: true }).click();
    await dialog.getByText(`不能小于${minimum}`, { exact: true }).waitFor();
    await expect(nativeMessage(sort)).resolves.toBe('');

    await sort.fill('1000000000');
    await dialog.getByText(`不能大于${maximum}`, { exact: true }).waitFor();
    await expect(nativeMessage(sort)).resolves.toBe('');
    expect(sent()).toBe(0);

    await sort.fill('7');
    await dialog.getByRole('button', { name: '添加', exact: true }).click();
    await seeNotification(page, '操作成功!');
    // The server keeps the name without its spaces.
    await rowOf(page, name).waitFor();
    expect(sent()).toBe(1);
  });
});

describe('常用网站 dialog rules', () => {
  it('refuses a link without http:// with a Chinese message, not the browser bubble, and sends nothing', async () => {
    const { page } = s;
    const sent = countCalls(page, '/Ajax/AddUseweb');
    const dialog = await openAddDialog(page, '/useweb', '新增');
    await dialog.getByRole('textbox', { name: '网站名称' }).fill(uniqueName('规则网站'));
    const link = dialog.getByRole('textbox', { name: '网站链接' });
    await link.fill('www.example.com');
    await dialog.getByRole('button', { name: '添加', exact: true }).click();
    await dialog.getByText('请输入以 http:// 或 https:// 开头的链接', { exact: true }).waitFor();
    await expect(nativeMessage(link)).resolves.toBe('');
    expect(sent()).toBe(0);
  });
});
