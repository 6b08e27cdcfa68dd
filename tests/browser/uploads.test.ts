// Uploaded files keep the name they were uploaded with (a video, a handout, an article's file, a
// classification's image are shown by that name when their record is opened again), and leaving a
// dialog or the page while a file uploads asks first (提示 / the browser's own beforeunload dialog).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Dialog, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, formDialog, holdParts, login, REPO, rowOf, seeNotification, uniqueName, uploadsInProgress, useBrowserSuite } from './helpers';

const s = useBrowserSuite();

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'uploads-test-'));
const VIDEO = path.join(tmp, '真实上传测试视频.mp4');
const HANDOUT = path.join(tmp, '讲义一.pdf');
const ARTICLE_FILE = path.join(tmp, '文章附件一.pdf');
const IMAGE = path.join(tmp, '封面图一.png');

const LEAVE_QUESTION = '视频正在上传，关闭后上传将被取消，已上传的部分会被删除。确定关闭吗？';

beforeAll(async () => {
  fs.copyFileSync(path.join(REPO, 'server/demo/demo.mp4'), VIDEO);
  fs.copyFileSync(path.join(REPO, 'server/demo/handout.pdf'), HANDOUT);
  fs.copyFileSync(path.join(REPO, 'server/demo/handout.pdf'), ARTICLE_FILE);
  fs.copyFileSync(path.join(REPO, 'server/demo/cover.png'), IMAGE);
  await login(s.page, 'admin', ADMIN_PASSWORD);
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const videoDialog = (page: Page) => formDialog(page, '详情');
const videoInput = (page: Page) => videoDialog(page).locator('input[type="file"][accept="video/mp4,.mp4"]');
const handoutInput = (page: Page) => videoDialog(page).locator('input[type="file"][accept^=".pdf"]');
const uploadStatus = (page: Page) => videoDialog(page).getByRole('status');
/** The dialog's own 取消 (the upload's progress has a 取消 of its own). */
const dialogCancel = (page: Page) => videoDialog(page).locator('.MuiDialogActions-root').getByRole('button', { name: '取消', exact: true });
const leaveConfirm = (page: Page) => page.getByRole('dialog', { name: '提示' });

/** Each test starts on its own screen, whatever an earlier one left open. */
async function openVideoEditor(page: Page): Promise<void> {
  await page.goto('/video');
  await page.getByRole('button', { name: '添加', exact: true }).click();
  await videoDialog(page).waitFor();
}

/** Starts a video upload whose parts are held: it stays in progress until released. */
async function startHeldUpload(page: Page): Promise<() => Promise<void>> {
  const release = await holdParts(page);
  await videoInput(page).setInputFiles(VIDEO);
  await uploadStatus(page).getByRole('progressbar', { name: '上传进度' }).waitFor();
  await expect.poll(() => uploadsInProgress(s.server).length, { timeout: 10_000 }).toBe(1);
  return release;
}

describe('uploaded files keep their original names', () => {
  const video = uniqueName('原名视频');

  it('shows a saved video and its handout by the names they were uploaded with', async () => {
    const { page } = s;
    await openVideoEditor(page);
    const dialog = videoDialog(page);
    await dialog.getByRole('textbox', { name: '视频名称' }).fill(video);
    await dialog.getByRole('textbox', { name: '视频主讲人' }).fill('原名讲师');
    await videoInput(page).setInputFiles(VIDEO);
    await page.getByText('视频上传成功').waitFor();
    await handoutInput(page).setInputFiles(HANDOUT);
    await dialog.getByText('讲义一.pdf', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: '添加', exact: true }).click();
    await seeNotification(page, '操作成功!');
    await dialog.waitFor({ state: 'hidden' });

    // Reopened: the record holds only the stored file's URL, yet the name is the original one.
    await rowOf(page, video).getByRole('button', { name: '编辑', exact: true }).click();
    await dialog.waitFor();
    await expect(dialog.getByRole('textbox', { name: '视频名称' }).inputValue()).resolves.toBe(video);
    await dialog.getByTestId('video-file-name').getByText('真实上传测试视频.mp4', { exact: true }).waitFor();
    await dialog.getByText('讲义一.pdf', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: '关闭' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('names the handout 讲义一.pdf on 在线视频 and its details', async () => {
    const { page } = s;
    await page.goto('/Knowledge/VideoView');
    await page.getByRole('listitem').filter({ hasText: video }).getByRole('link').click();
    await page.getByRole('heading', { name: video, level: 1 }).waitFor();
    await page.getByRole('button', { name: '讲义下载' }).click();
    const handouts = page.getByRole('dialog', { name: '讲义下载' });
    await handouts.getByText('讲义一.pdf', { exact: true }).waitFor();
    await handouts.getByRole('button', { name: '关闭' }).first().click();
    await handouts.waitFor({ state: 'hidden' });
  });

  it('shows an article’s file by its original name when the article is opened again (文章目录)', async () => {
    const { page } = s;
    const article = uniqueName('原名文章');
    await page.goto('/Knowledge/Article/Manage?type=0');
    await page.getByRole('treeitem', { name: '建筑专业' }).click();
    await page.getByRole('button', { name: '新增文件' }).click();
    const dialog = formDialog(page, '文章目录详情');
    await dialog.waitFor();
    await dialog.getByRole('textbox', { name: '文章名称' }).fill(article);
    await dialog.locator('input[type="file"]').setInputFiles(ARTICLE_FILE);
    await dialog.getByText('文章附件一.pdf', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: '添加', exact: true }).click();
    await seeNotification(page, '操作成功!');
    await dialog.waitFor({ state: 'hidden' });

    await rowOf(page, article).getByRole('button', { name: '编辑', exact: true }).click();
    await dialog.waitFor();
    await dialog.getByText('文章附件一.pdf', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: '关闭' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('shows a classification’s image by its original name when it is opened again', async () => {
    const { page } = s;
    const classify = uniqueName('原名分类');
    await page.goto('/Knowledge/Article/ClassifyManage/0');
    await page.getByRole('button', { name: '新增', exact: true }).click();
    const dialog = formDialog(page, '分类详情');
    await dialog.waitFor();
    await dialog.getByRole('textbox', { name: '类型名称' }).fill(classify);
    await dialog.locator('.ra-input-ScImg input[type="file"]').setInputFiles(IMAGE);
    await dialog.locator('.ra-input-ScImg img').waitFor();
    await dialog.getByRole('button', { name: '添加', exact: true }).click();
    await seeNotification(page, '操作成功!');
    await dialog.waitFor({ state: 'hidden' });

    await rowOf(page, classify).getByRole('button', { name: '编辑', exact: true }).click();
    await dialog.waitFor();
    await dialog.locator('.ra-input-ScImg').getByText('封面图一.png', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: '关闭' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });
});

describe('leaving while a video uploads', () => {
  it('asks before the dialog closes: 取消 keeps the upload, 确定 cancels it and drops what was stored', async () => {
    const { page } = s;
    await openVideoEditor(page);
    const release = await startHeldUpload(page);
    try {
      // The close icon: 提示, and 取消 keeps everything going.
      await videoDialog(page).getByRole('button', { name: '关闭' }).click();
      await leaveConfirm(page).getByText(LEAVE_QUESTION, { exact: true }).waitFor();
      await leaveConfirm(page).getByRole('button', { name: '取消', exact: true }).click();
      await leaveConfirm(page).waitFor({ state: 'hidden' });
      await expect(videoDialog(page).isVisible()).resolves.toBe(true);
      await uploadStatus(page).getByRole('progressbar', { name: '上传进度' }).waitFor();
      expect(uploadsInProgress(s.server)).toHaveLength(1);

      // The dialog's 取消: 提示 again, and 确定 closes it and aborts the upload on the server.
      await dialogCancel(page).click();
      await leaveConfirm(page).getByText(LEAVE_QUESTION, { exact: true }).waitFor();
      await leaveConfirm(page).getByRole('button', { name: '确定', exact: true }).click();
      await videoDialog(page).waitFor({ state: 'hidden' });
      await expect.poll(() => uploadsInProgress(s.server), { timeout: 10_000 }).toEqual([]);
      const remembered = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('zhishi.videoUpload:')));
      expect(remembered).toEqual([]);
    } finally {
      await release();
    }
  });

  it('asks before the browser’s back button leaves the screen: 取消 stays, 确定 goes and cancels the upload', async () => {
    const { page } = s;
    // The dialog is modal (the menu cannot be reached): back is how a person leaves the screen.
    await page.goto('/Knowledge/VideoView');
    await page.getByRole('menuitem', { name: '视频学习编辑' }).click();
    await page.waitForURL('**/video');
    await page.getByRole('button', { name: '添加', exact: true }).click();
    await videoDialog(page).waitFor();
    const release = await startHeldUpload(page);
    try {
      await page.goBack();
      await leaveConfirm(page).getByText(LEAVE_QUESTION, { exact: true }).waitFor();
      await leaveConfirm(page).getByRole('button', { name: '取消', exact: true }).click();
      await leaveConfirm(page).waitFor({ state: 'hidden' });
      expect(new URL(page.url()).pathname).toBe('/video');
      await uploadStatus(page).getByRole('progressbar', { name: '上传进度' }).waitFor();
      expect(uploadsInProgress(s.server)).toHaveLength(1);

      await page.goBack();
      await leaveConfirm(page).getByRole('button', { name: '确定', exact: true }).click();
      await page.waitForURL('**/Knowledge/VideoView');
      await expect.poll(() => uploadsInProgress(s.server), { timeout: 10_000 }).toEqual([]);
    } finally {
      await release();
    }
  });

  it('asks the browser’s beforeunload question before a reload; staying keeps the upload going', async () => {
    const { page } = s;
    await openVideoEditor(page);
    const release = await startHeldUpload(page);
    const seen: string[] = [];
    let answer: 'stay' | 'leave' = 'stay';
    const onDialog = (dialog: Dialog) => {
      seen.push(dialog.type());
      void (answer === 'stay' ? dialog.dismiss() : dialog.accept());
    };
    page.on('dialog', onDialog);
    try {
      await page.evaluate(() => setTimeout(() => location.reload(), 0));
      await expect.poll(() => seen).toEqual(['beforeunload']);
      await uploadStatus(page).getByRole('progressbar', { name: '上传进度' }).waitFor();
      expect(uploadsInProgress(s.server)).toHaveLength(1);

      answer = 'leave';
      await Promise.all([page.waitForEvent('load'), page.reload()]);
      expect(seen).toEqual(['beforeunload', 'beforeunload']);
    } finally {
      page.off('dialog', onDialog);
      await release();
    }
    // Nothing uploads any more: the reloaded page leaves without a question.
    await page.getByRole('menuitem', { name: '视频学习编辑' }).waitFor();
  });
});
