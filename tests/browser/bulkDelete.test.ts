// 批量删除 on the lists (src/components/BulkDelete.tsx): rows ticked on a page, or every row matching
// the list, go after one 提示 naming how many; the result says how many went, and lists the rows
// kept with why. An administrator meets a category still in use; a member with partial codes
// (add, view, delete; no edit) meets a video of someone else's. Checkboxes only with the delete code.
import { beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../helpers/server';
import { ADMIN_PASSWORD, createMember, login, logout, rowOf, seeNotification, uniqueName, useBrowserSuite, type MemberLogin } from './helpers';

const s = useBrowserSuite();

let admin: Client;

async function addCategory(VdtName: string): Promise<string> {
  const res = await admin.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName, VdtSort: 0 });
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data.VdtCode;
}

async function addVideo(client: Client, VdtCode: string, VdName: string): Promise<void> {
  const res = await client.call('/Ajax/AddVideo', { VdtCode, VdName, VdUrl: 'https://example.com/v.mp4' });
  expect(res.status, res.body.msg).toBe(200);
}

/** Confirms the 提示 with its question, and waits for it to close. */
async function confirmPrompt(question: string): Promise<void> {
  const prompt = s.page.getByRole('dialog', { name: '提示' });
  await prompt.getByText(question, { exact: true }).waitFor();
  await prompt.getByRole('button', { name: '确定', exact: true }).click();
  await prompt.waitFor({ state: 'hidden' });
}

/** The result of a bulk delete that kept rows: its summary, and each row kept with its reason. */
async function expectOutcome(summary: string, kept: [string, string][]): Promise<void> {
  const dialog = s.page.getByRole('dialog', { name: '删除结果' });
  await dialog.getByText(summary, { exact: true }).waitFor();
  const items = dialog.getByRole('list', { name: '未删除的记录' }).getByRole('listitem');
  await expect(items.allInnerTexts().then((texts) => texts.map((t) => t.split('\n').map((line) => line.trim()).filter(Boolean)))).resolves.toEqual(kept);
  await dialog.getByRole('button', { name: '确定', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

beforeAll(async () => {
  admin = await s.server.admin();
});

describe('批量删除 as an administrator', () => {
  it('deletes the ticked categories and reports the one still holding videos', async () => {
    const { page } = s;
    const [free1, free2, used] = [uniqueName('空分类'), uniqueName('空分类'), uniqueName('有视频')];
    await addCategory(free1);
    await addCategory(free2);
    await addVideo(admin, await addCategory(used), uniqueName('占用'));
    await login(page, 'admin', ADMIN_PASSWORD);
    await page.goto('/videoType');
    for (const name of [free1, used, free2]) await rowOf(page, name).getByRole('checkbox').check();
    await page.getByText('已选择 3 项', { exact: true }).waitFor();
    await page.getByRole('button', { name: '批量删除', exact: true }).click();
    await confirmPrompt('此操作将永久删除选中的 3 条记录, 是否继续?');
    await expectOutcome('已删除 2 条，1 条未删除：', [[used, '该视频分类下还有视频，请先删除或移走视频']]);
    await rowOf(page, used).waitFor();
    await rowOf(page, free1).waitFor({ state: 'detached' });
    await expect(rowOf(page, free2).count()).resolves.toBe(0);
  });

  it('deletes every video matching the list, past its first page, sending the filter', async () => {
    const { page } = s;
    const category = uniqueName('全部删除');
    const VdtCode = await addCategory(category);
    for (let i = 1; i <= 17; i++) await addVideo(admin, VdtCode, `${category}视频${i}`);
    await page.goto('/video');
    await page.getByRole('tab', { name: category, exact: true }).click();
    await page.getByText('共 17 条').waitFor();
    const sent: unknown[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/Ajax/DelVideoBatch')) sent.push(request.postDataJSON());
    });
    await page.getByRole('checkbox', { name: '全选' }).check();
    await page.getByText('已选择 15 项', { exact: true }).waitFor();
    await page.getByRole('button', { name: '选择全部符合条件的 17 项', exact: true }).click();
    await page.getByText('已选择全部符合条件的 17 项', { exact: true }).waitFor();
    await page.getByRole('button', { name: '批量删除', exact: true }).click();
    await confirmPrompt('此操作将永久删除符合条件的全部 17 条记录, 是否继续?');
    await seeNotification(page, '已删除 17 条');
    await page.getByText('暂无数据').waitFor();
    expect(sent).toEqual([{ All: 1, VdtCode }]);
    await logout(page);
  });
});

describe('批量删除 as a member who may add, view and delete videos, not edit them', () => {
  let member: MemberLogin;
  let category: string;
  let others: string;

  beforeAll(async () => {
    member = await createMember(s.server, { video: '1,2,4', videoType: '2' });
    const client = new Client(s.server.url);
    await client.login(member.userName, member.password);
    category = uniqueName('成员分类');
    const VdtCode = await addCategory(category);
    await addVideo(client, VdtCode, `${category}自己1`);
    await addVideo(client, VdtCode, `${category}自己2`);
    others = `${category}别人的`;
    await addVideo(admin, VdtCode, others);
  });

  it('deletes their own videos of the page and reports the other one as not theirs', async () => {
    const { page } = s;
    await login(page, member.userName, member.password);
    await page.goto('/video');
    await page.getByRole('tab', { name: category, exact: true }).click();
    await rowOf(page, others).waitFor();
    // No 编辑 (no code 3), and 删除 only on their own rows.
    await expect(page.getByRole('button', { name: '编辑', exact: true }).count()).resolves.toBe(0);
    await expect(rowOf(page, others).getByRole('button', { name: '删除', exact: true }).count()).resolves.toBe(0);
    await page.getByRole('checkbox', { name: '全选' }).check();
    await page.getByText('已选择 3 项', { exact: true }).waitFor();
    await page.getByRole('button', { name: '批量删除', exact: true }).click();
    await confirmPrompt('此操作将永久删除选中的 3 条记录, 是否继续?');
    await expectOutcome('已删除 2 条，1 条未删除：', [[others, '只能修改或删除自己创建的记录']]);
    await page.getByText('共 1 条').waitFor();
    await rowOf(page, others).waitFor();
    await logout(page);
  });

  it('has no checkboxes without the delete code', async () => {
    const { page } = s;
    const viewer = await createMember(s.server, { video: '1,2', videoType: '2' });
    await login(page, viewer.userName, viewer.password);
    await page.goto('/video');
    await page.getByRole('tab', { name: category, exact: true }).click();
    await rowOf(page, others).waitFor();
    await expect(page.getByRole('checkbox').count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: '批量删除' }).count()).resolves.toBe(0);
    await logout(page);
  });
});

describe('批量删除 on a catalogue', () => {
  it('deletes ticked articles of a category from the toolbar above its table', async () => {
    const { page } = s;
    const classify = await admin.call<{ ScCode: string; ScName: string }>('/Xcx1/CreateStandardClassifyInAdmin', { ScName: uniqueName('批删目录'), type: 1 });
    expect(classify.status, classify.body.msg).toBe(200);
    const names = [uniqueName('文件'), uniqueName('文件')];
    for (const SaName of names) {
      const res = await admin.call('/Xcx1/AddStandardArticleInAdmin', { ScCode: classify.body.data.ScCode, SaName });
      expect(res.status, res.body.msg).toBe(200);
    }
    await login(page, 'admin', ADMIN_PASSWORD);
    await page.goto('/Knowledge/Article/Manage?type=1');
    await page.getByRole('treeitem', { name: classify.body.data.ScName }).click();
    for (const name of names) await rowOf(page, name).getByRole('checkbox').check();
    const bulkDelete = page.getByRole('button', { name: '批量删除', exact: true });
    await bulkDelete.click();
    await confirmPrompt('此操作将永久删除选中的 2 条记录, 是否继续?');
    await seeNotification(page, '已删除 2 条');
    await page.getByText('暂无数据').waitFor();
  });
});
