// 视频详情 with more comments than one list answer holds: under a small LIST_MAX_BYTES the page
// shows its comments 15 at a time, each answer within the limit, and 加载更多 brings every one of
// them, with its floor; a comment deleted far down leaves every other one shown.
import type { Response } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { a11yAudit, ADMIN_PASSWORD, login, seeNotification, useBrowserSuite } from './helpers';

/** Small enough that a page of 15 comments takes several answers: the data stays near 300 KB. */
const BUDGET = 32 * 1024;
const ADDED = 45;

const s = useBrowserSuite({ LIST_MAX_BYTES: String(BUDGET) });
const audit = a11yAudit();
const DETAILS = '视频详情 with 加载更多';

let video: { Id: number; VdCode: string; VdtCode: string };
let total = 0;
/** Bytes of every comment-list answer the page received. */
const answers: number[] = [];

/** About 6 KB each, with a marker to find it by. */
const bodyOf = (i: number) => `<p>长评论${i}号：${'这一段评论写得很长，'.repeat(200)}</p>`;

beforeAll(async () => {
  const admin = await s.server.admin();
  const listed = await admin.call<(typeof video)[]>('/Ajax/GetVideoListInAdmin', { pageIndex: 1, pageSize: 1 });
  video = listed.body.data[0]!;
  for (let i = 1; i <= ADDED; i++) {
    const res = await admin.call('/Ajax/AddVideoMessage', { VdCode: video.VdCode, VmDes: bodyOf(i) });
    if (res.status !== 200) throw new Error(`AddVideoMessage: ${res.status} ${res.body.msg}`);
  }
  total = (await admin.call('/Ajax/GetVideoMessageListInAdmin', { VdCode: video.VdCode, pageIndex: 1, pageSize: 1 })).body.total!;
  s.page.on('response', (response: Response) => {
    if (!response.url().includes('/Ajax/GetVideoMessageListInAdmin')) return;
    response.body().then(
      (body) => answers.push(body.length),
      () => undefined,
    );
  });
  await login(s.page, 'admin', ADMIN_PASSWORD);
});

const comments = () => s.page.getByTestId('comment');
const floors = async () => (await comments().locator('.MuiChip-label').allTextContents()).map((t) => Number(t.replace('楼', '')));

describe('视频详情 with more comments than one answer holds', () => {
  it('shows the first 15 with floors from the total, each answer within LIST_MAX_BYTES', async () => {
    const { page } = s;
    await page.goto(`/Knowledge/VideoView/Details?Id=${video.Id}&VdtCode=${video.VdtCode}`);
    await page.getByRole('heading', { name: `评论（${total}）`, level: 2 }).waitFor();
    await expect.poll(() => comments().count()).toBe(15);
    expect(await floors()).toEqual(Array.from({ length: 15 }, (_, i) => total - i));
    await page.getByText(`已显示 15 / ${total} 条`).waitFor();
    await audit.check(page, DETAILS);
    // A page of 15 took more than one answer: each within the limit.
    expect(answers.length).toBeGreaterThan(1);
    expect(Math.max(...answers)).toBeLessThanOrEqual(BUDGET);
  });

  it('brings every comment with 加载更多, once each, newest first', async () => {
    const { page } = s;
    const more = page.getByRole('button', { name: '加载更多' });
    for (let shown = 15; shown < total; shown = Math.min(total, shown + 15)) {
      await more.click();
      await expect.poll(() => comments().count()).toBe(Math.min(total, shown + 15));
    }
    await more.waitFor({ state: 'detached' });
    expect(await floors()).toEqual(Array.from({ length: total }, (_, i) => total - i));
    const text = (await comments().allTextContents()).join('\n');
    for (let i = 1; i <= ADDED; i++) expect(text).toContain(`长评论${i}号`);
    expect(Math.max(...answers)).toBeLessThanOrEqual(BUDGET);
  });

  it('keeps every other comment shown when one far down is deleted', async () => {
    const { page } = s;
    const oldestAdded = comments().filter({ hasText: '长评论1号：' });
    await oldestAdded.getByRole('button', { name: '删除' }).click();
    const confirm = page.getByRole('dialog', { name: '提示' });
    await confirm.getByRole('button', { name: '确定' }).click();
    await seeNotification(page, '操作成功!');
    await oldestAdded.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: `评论（${total - 1}）`, level: 2 }).waitFor();
    await expect.poll(() => comments().count()).toBe(total - 1);
    expect(await floors()).toEqual(Array.from({ length: total - 1 }, (_, i) => total - 1 - i));
    await expect(page.getByRole('button', { name: '加载更多' }).count()).resolves.toBe(0);
    expect(Math.max(...answers)).toBeLessThanOrEqual(BUDGET);
  });
});

audit.tests([DETAILS]);
