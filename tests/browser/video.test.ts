// 视频学习编辑, 在线视频 and 视频详情: a video checked in the browser
// (HEVC refused before a byte is sent), uploaded in parts with its progress, cancelled without a
// trace, then played; likes, comments, handouts, the same-category list with the play count, and
// the ownership rule for a member's 编辑 / 删除.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../helpers/server';
import { BROWSER_TIME_ZONE,
  ADMIN_PASSWORD,
  a11yAudit,
  createMember,
  expectUnclosableDialog,
  formDialog,
  login,
  REPO,
  rowOf,
  seeNotification,
  UI_TIMEOUT,
  uniqueName,
  holdParts,
  uploadsInProgress,
  useBrowserSuite,
} from './helpers';

const s = useBrowserSuite();
const audit = a11yAudit();
const LIST = '视频学习编辑 list';
const ADD_DIALOG = '视频学习编辑 详情 dialog (add, uploading)';
const GRID = '在线视频 grid';
const DETAILS = '视频详情 page';
const COMMENT_DIALOG = '发表评论 dialog';
const HANDOUT_DIALOG = '讲义下载 dialog';

const DEMO_MP4 = path.join(REPO, 'server/demo/demo.mp4');
const HANDOUT = path.join(REPO, 'server/demo/handout.pdf');
const REQUIREMENT = '视频须为H.264编码、音频须为AAC编码的MP4文件，且小于500MB';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'video-test-'));
/** The demo video whose sample entry says hvc1 (HEVC): a file a browser may not play. */
const HEVC_MP4 = path.join(tmp, 'hevc.mp4');
/** Over two parts of 10 MiB (the server's default part size). */
const BIG_MP4 = path.join(tmp, 'big.mp4');

/**
 * The demo video with its media data box grown to `size` bytes: still a valid, playable H.264/AAC
 * MP4 (faststart: the sample offsets before the padding do not move).
 */
function grownDemo(size: number): Buffer {
  const demo = fs.readFileSync(DEMO_MP4);
  const mdatAt = demo.indexOf('mdat', 0, 'latin1') - 4;
  const grown = Buffer.alloc(size);
  demo.copy(grown);
  grown.writeUInt32BE(size - mdatAt, mdatAt);
  return grown;
}

beforeAll(async () => {
  const bytes = fs.readFileSync(DEMO_MP4);
  let at = bytes.indexOf('avc1', 40, 'latin1');
  while (at !== -1) {
    bytes.write('hvc1', at, 'latin1');
    at = bytes.indexOf('avc1', at + 4, 'latin1');
  }
  fs.writeFileSync(HEVC_MP4, bytes);
  fs.writeFileSync(BIG_MP4, grownDemo(22 * 1024 * 1024));
  await login(s.page, 'admin', ADMIN_PASSWORD);
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const videoInput = (page: Page) => formDialog(page, '详情').locator('input[type="file"][accept="video/mp4,.mp4"]');
const handoutInput = (page: Page) => formDialog(page, '详情').locator('input[type="file"][accept^=".pdf"]');
const uploadStatus = (page: Page) => formDialog(page, '详情').getByRole('status');

async function playCount(page: Page): Promise<number> {
  const text = (await page.getByTestId('play-count').textContent()) ?? '';
  return Number(/\d+/.exec(text)?.[0]);
}

describe('视频学习编辑: adding a video', () => {
  const name = uniqueName('浏览器视频');

  it('shows a tab per category and the first category’s videos, pinned first, 15 a page with the total', async () => {
    const { page } = s;
    await page.getByRole('menuitem', { name: '视频学习编辑' }).click();
    await page.waitForURL('**/video');
    const tabs = page.getByRole('tablist', { name: '视频分类' }).getByRole('tab');
    await tabs.first().waitFor();
    await expect(tabs.allInnerTexts()).resolves.toEqual(['造价业务培训', '软件操作教程', '政策法规解读']);
    await expect(tabs.first().getAttribute('aria-selected')).resolves.toBe('true');
    for (const header of ['视频名称', '视频主讲人', '视频时间', '是否置顶', '点击量', '操作']) {
      await page.getByRole('columnheader', { name: header, exact: true }).waitFor();
    }
    await page.getByText('共 3 条').waitFor();
    const first = page.getByRole('row').nth(1);
    // Cells after the checkbox of 批量删除.
    await expect(first.getByRole('cell').nth(1).textContent()).resolves.toBe('建设工程工程量清单计价规范要点');
    await expect(first.getByText('置顶', { exact: true }).count()).resolves.toBe(1);
    await expect(rowOf(page, '全过程造价咨询实务').getByText('不置顶', { exact: true }).count()).resolves.toBe(1);
    // Dates only.
    await expect(first.getByRole('cell').nth(3).textContent()).resolves.toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await audit.check(page, LIST);

    await tabs.nth(1).click();
    await rowOf(page, '计价软件入门').waitFor();
    await page.getByText('共 2 条').waitFor();
    await tabs.first().click();
    await rowOf(page, '结算审核常见问题').waitFor();
  });

  it('opens the 600px 详情 dialog, which Escape and a click outside do not close, and refuses to add without a video', async () => {
    const { page } = s;
    await page.getByRole('button', { name: '添加', exact: true }).click();
    const dialog = formDialog(page, '详情');
    await expectUnclosableDialog(page, dialog, 600);

    await dialog.getByRole('textbox', { name: '视频名称' }).fill(name);
    await dialog.getByRole('textbox', { name: '视频主讲人' }).fill('浏览器讲师');
    await dialog.getByRole('button', { name: '添加', exact: true }).click();
    await dialog.getByText('请上传视频!', { exact: true }).waitFor();
    await expect(dialog.isVisible()).resolves.toBe(true);
  });

  it('refuses an HEVC file before sending a byte, naming the requirement', async () => {
    const { page } = s;
    const calls: string[] = [];
    const track = (request: Request) => calls.push(new URL(request.url()).pathname);
    page.on('request', track);
    await videoInput(page).setInputFiles(HEVC_MP4);
    await page.getByText(/H\.265\(HEVC\)/).waitFor();
    await expect(page.getByText(REQUIREMENT).count()).resolves.toBeGreaterThan(0);
    page.off('request', track);
    expect(calls.filter((p) => /Multipart|upload-part|SignUpload/.test(p))).toEqual([]);
  });

  it('uploads the demo MP4 in parts with name, size, speed and percentage; handouts wait (请等待上传完成)', async () => {
    const { page } = s;
    const restore = await holdParts(page);
    await videoInput(page).setInputFiles(DEMO_MP4);
    const status = uploadStatus(page);
    await status.getByText('demo.mp4（441.6 KB）').waitFor();
    await status.getByRole('progressbar', { name: '上传进度' }).waitFor();
    await status.getByText(/B\/s · \d+%/).waitFor();
    await expect(formDialog(page, '详情').getByRole('button', { name: '添加', exact: true }).isDisabled()).resolves.toBe(true);
    await audit.check(page, ADD_DIALOG);

    // One upload at a time: the handout waits for the video.
    await formDialog(page, '详情').getByText('添加文件', { exact: true }).click();
    await seeNotification(page, '请等待上传完成');
    await restore();

    await page.getByText('视频上传成功').waitFor();
    await formDialog(page, '详情').getByTestId('video-file-name').getByText('demo.mp4').waitFor();
    expect(uploadsInProgress(s.server)).toEqual([]);

    await handoutInput(page).setInputFiles(HANDOUT);
    await formDialog(page, '详情').getByText('handout.pdf', { exact: true }).waitFor();
  });

  it('adds the video with 操作成功!, and the table shows it', async () => {
    const { page } = s;
    const dialog = formDialog(page, '详情');
    await dialog.getByRole('button', { name: '添加', exact: true }).click();
    await seeNotification(page, '操作成功!');
    await dialog.waitFor({ state: 'hidden' });
    await rowOf(page, name).waitFor();
    await page.getByText('共 4 条').waitFor();
    await expect(rowOf(page, name).getByRole('cell').nth(2).textContent()).resolves.toBe('浏览器讲师');
  });

  it('cancels an upload in progress with 取消, leaving nothing behind', async () => {
    const { page } = s;
    await page.getByRole('button', { name: '添加', exact: true }).click();
    await formDialog(page, '详情').waitFor();
    const restore = await holdParts(page);
    await videoInput(page).setInputFiles(DEMO_MP4);
    await uploadStatus(page).getByRole('progressbar', { name: '上传进度' }).waitFor();
    await expect.poll(() => uploadsInProgress(s.server).length, { timeout: 10_000 }).toBe(1);
    await uploadStatus(page).getByRole('button', { name: '取消', exact: true }).click();
    await expect.poll(() => uploadsInProgress(s.server), { timeout: 10_000 }).toEqual([]);
    await expect(uploadStatus(page).count()).resolves.toBe(0);
    const remembered = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('zhishi.videoUpload:')));
    expect(remembered).toEqual([]);
    await restore();
    await formDialog(page, '详情').getByRole('button', { name: '关闭' }).click();
    await formDialog(page, '详情').waitFor({ state: 'hidden' });
  });

  it('retries a failing part, then waits for 重试 with the storage’s message, and continues', async () => {
    const { page } = s;
    await page.getByRole('button', { name: '添加', exact: true }).click();
    await formDialog(page, '详情').waitFor();
    let failing = true;
    let attempts = 0;
    const pattern = '**/upload-part/**';
    await page.route(pattern, async (route) => {
      attempts++;
      if (failing) await route.fulfill({ status: 503, contentType: 'application/json', body: '{"code":503,"msg":"存储暂时不可用"}' });
      else await route.continue();
    });
    try {
      await videoInput(page).setInputFiles(DEMO_MP4);
      const alert = formDialog(page, '详情').getByRole('alert');
      await alert.getByText('存储暂时不可用').waitFor({ timeout: 30_000 });
      // The first try and Uppy's four retries (retryDelays 0, 1, 3, 5 s).
      expect(attempts).toBe(5);
      failing = false;
      await alert.getByRole('button', { name: '重试' }).click();
      await page.getByText('视频上传成功').waitFor();
      expect(attempts).toBe(6);
      expect(uploadsInProgress(s.server)).toEqual([]);
    } finally {
      await page.unroute(pattern);
    }
    await formDialog(page, '详情').getByRole('button', { name: '关闭' }).click();
    await formDialog(page, '详情').waitFor({ state: 'hidden' });
  });

  it('resumes an upload after a page reload, sending only the parts not yet stored', async () => {
    const { page } = s;
    const sent: string[] = [];
    const pattern = '**/upload-part/**';
    // The first part goes through; the others are held until the page is gone, so that the old page
    // cannot finish the upload while the reload is under way (it keeps running until the new page
    // arrives), whatever the host's speed.
    const held: Route[] = [];
    let passing = 1;
    await page.route(pattern, async (route) => {
      sent.push(new URL(route.request().url()).pathname);
      if (passing > 0) {
        passing -= 1;
        await route.continue().catch(() => undefined);
      } else held.push(route);
    });
    try {
      await page.getByRole('button', { name: '添加', exact: true }).click();
      await formDialog(page, '详情').waitFor();
      await videoInput(page).setInputFiles(BIG_MP4);
      const dir = path.join(s.server.config.dataDir, 'uploads', '.tmp', 'mp');
      const storedParts = () => uploadsInProgress(s.server).flatMap((id) => fs.readdirSync(path.join(dir, id)).filter((n) => /^\d+$/.test(n)));
      await expect.poll(() => storedParts().length, { timeout: 20_000 }).toBe(1);
      await page.reload();
      await Promise.all(held.splice(0).map((route) => route.abort().catch(() => undefined)));
      passing = Infinity;
      const stored = storedParts();
      expect(stored).toHaveLength(1);

      sent.length = 0;
      await page.getByRole('button', { name: '添加', exact: true }).click();
      await formDialog(page, '详情').waitFor();
      await videoInput(page).setInputFiles(BIG_MP4);
      await uploadStatus(page).getByText(/继续上次的上传（已上传 [\d.]+ MB）/).waitFor();
      await page.getByText('视频上传成功').waitFor({ timeout: 30_000 });
      const partsSent = sent.map((p) => p.split('/').pop());
      expect(partsSent.length).toBe(3 - stored.length);
      for (const part of stored) expect(partsSent).not.toContain(part);
      expect(uploadsInProgress(s.server)).toEqual([]);
    } finally {
      await page.unroute(pattern);
    }
    await formDialog(page, '详情').getByRole('button', { name: '关闭' }).click();
  });

  describe('在线视频 and 视频详情', () => {
    it('shows the category’s videos as cards with cover, speaker, likes, 点击量 and a 讲义 link', async () => {
      const { page } = s;
      await page.getByRole('menuitem', { name: '在线视频' }).click();
      await page.waitForURL('**/Knowledge/VideoView');
      const card = page.getByRole('listitem').filter({ hasText: name });
      await card.waitFor();
      await card.getByText('主讲人：浏览器讲师').waitFor();
      await card.getByText('点赞 0').waitFor();
      await card.getByText('点击量 0').waitFor();
      await card.getByRole('button', { name: '讲义' }).waitFor();
      // The cover: the poster made on the server, or the browser's frame at 1 s.
      await expect
        .poll(() =>
          card.evaluate((el) => {
            const img = el.querySelector('img');
            const video = el.querySelector('video');
            return (img?.complete && img.naturalWidth > 0) || (video?.getAttribute('src')?.endsWith('#t=1') ?? false);
          }),
        )
        .toBe(true);
      await page.getByText('共 4 条').waitFor();
      await audit.check(page, GRID);
    });

    it('plays a card in the 播放 dialog, which Escape does not close, and pauses it when closed', async () => {
      const { page } = s;
      await page.getByRole('listitem').filter({ hasText: name }).getByRole('button', { name: `播放 ${name}` }).click();
      const dialog = page.getByRole('dialog', { name });
      await dialog.waitFor();
      await dialog.locator('.vjs-big-play-button').click();
      await page.waitForFunction(() => ((document.querySelector('[role=dialog] video') as HTMLVideoElement | null)?.currentTime ?? 0) > 0.3, undefined, {
        timeout: UI_TIMEOUT,
      });
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.isVisible()).toBe(true);
      // Click 关闭 and read the video's state in the same task: the dialog pauses it at once, not
      // only when its player is later disposed.
      const states = await dialog.evaluate((el) => {
        const video = el.querySelector('video') as HTMLVideoElement;
        const before = video.paused;
        (el.querySelector('button[aria-label="关闭"]') as HTMLButtonElement).click();
        return { before, after: video.paused };
      });
      expect(states).toEqual({ before: false, after: true });
      await dialog.waitFor({ state: 'hidden' });
    });

    it('opens the details, counts the play, and plays the video', async () => {
      const { page } = s;
      await page.getByRole('listitem').filter({ hasText: name }).getByRole('link').click();
      await page.waitForURL(/\/Knowledge\/VideoView\/Details\?Id=\d+&VdtCode=/);
      await page.getByRole('heading', { name, level: 1 }).waitFor();
      await expect.poll(() => playCount(page)).toBe(1);
      const side = page.getByRole('navigation', { name: '同类视频' });
      await side.getByRole('button', { name: new RegExp(name) }).getByText(/点击量 1$/).waitFor();

      await page.locator('.vjs-big-play-button').click();
      await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.5, undefined, { timeout: UI_TIMEOUT });
      await audit.check(page, DETAILS);
      await page.locator('video').evaluate((v: HTMLVideoElement) => v.pause());
    });

    it('likes: the count goes up by one', async () => {
      const { page } = s;
      const like = page.getByRole('button', { name: /^点赞 \d+$/ });
      await expect(like.textContent()).resolves.toBe('点赞 0');
      await like.click();
      await expect.poll(() => like.textContent()).toBe('点赞 1');
    });

    it('comments (not when empty), shows 1楼 with the author, and deletes it after 提示', async () => {
      const { page } = s;
      await page.getByRole('button', { name: '评论', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: '发表评论' });
      await dialog.locator('.tiptap').waitFor();
      await dialog.locator('[data-placeholder="请遵守互联网相关法律法规，严禁发布色情、暴力、反动等内容"]').waitFor();
      await audit.check(page, COMMENT_DIALOG);
      await dialog.getByRole('button', { name: '发布' }).click();
      await seeNotification(page, '请输入评论内容');
      await expect(dialog.isVisible()).resolves.toBe(true);

      await dialog.locator('.tiptap').click();
      await page.keyboard.type('浏览器评论：讲得清楚');
      await dialog.getByRole('button', { name: '发布' }).click();
      await seeNotification(page, '发布成功!');
      await dialog.waitFor({ state: 'hidden' });
      const comment = page.getByTestId('comment').filter({ hasText: '浏览器评论：讲得清楚' });
      await comment.getByText('1楼').waitFor();
      await comment.getByText('管理员').waitFor();
      await expect(comment.locator('time').textContent()).resolves.toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);

      await comment.getByRole('button', { name: '删除' }).click();
      const confirm = page.getByRole('dialog', { name: '提示' });
      await confirm.getByText('此操作将永久删除该记录, 是否继续?').waitFor();
      await confirm.getByRole('button', { name: '确定' }).click();
      await seeNotification(page, '操作成功!');
      await comment.waitFor({ state: 'detached' });
      await page.getByText('暂无评论').waitFor();
    });

    it('downloads a handout: 下载 opens the file in a new window', async () => {
      const { page, context } = s;
      await page.getByRole('button', { name: '讲义下载' }).click();
      const dialog = page.getByRole('dialog', { name: '讲义下载' });
      await dialog.getByText('handout.pdf', { exact: true }).waitFor();
      await audit.check(page, HANDOUT_DIALOG);
      const [popup] = await Promise.all([context.waitForEvent('page'), dialog.getByRole('button', { name: /下载/ }).click()]);
      await popup.waitForLoadState('domcontentloaded').catch(() => undefined);
      expect(new URL(popup.url()).pathname).toMatch(/^\/files\/handout\/.+\.pdf$/);
      // noopener: the opened page cannot reach the admin.
      await expect(popup.evaluate(() => window.opener === null)).resolves.toBe(true);
      await popup.close();
      await dialog.getByRole('button', { name: '关闭' }).first().click();
      await dialog.waitFor({ state: 'hidden' });
    });

    it('moves to another video of the list in place, and its play count rises', async () => {
      const { page } = s;
      const side = page.getByRole('navigation', { name: '同类视频' });
      const other = side.getByRole('button', { name: /全过程造价咨询实务/ });
      const before = Number(/点击量 (\d+)/.exec((await other.textContent()) ?? '')?.[1]);
      const url = page.url();
      await other.click();
      await page.waitForURL((u) => u.toString() !== url && u.searchParams.has('Id'));
      await page.getByRole('heading', { name: '全过程造价咨询实务', level: 1 }).waitFor();
      await expect.poll(() => playCount(page)).toBe(before + 1);
      await other.getByText(`点击量 ${before + 1}`).waitFor();
      await expect(other.getAttribute('aria-current')).resolves.toBe('page');
      // The route was replaced: back leaves the details.
      await page.goBack();
      await page.waitForURL('**/Knowledge/VideoView');
    });
  });
});

describe('a member may edit and delete only the videos they created', () => {
  it('shows 编辑 / 删除 on the member’s own video, none on the administrator’s', async () => {
    const member = await createMember(s.server, { video: '1,2,3,4', videoView: '2' });
    const api = new Client(s.server.url);
    await api.login(member.userName, member.password);
    const types = await api.call<{ VdtCode: string }[]>('/Ajax/GetVideoTypeListInAdmin', { All: 1, OrderName: 'VDT_SORT ASC' });
    const own = uniqueName('成员视频');
    const added = await api.call('/Ajax/AddVideo', {
      VdtCode: types.body.data[0]!.VdtCode,
      VdName: own,
      VdPer: '成员',
      VdTime: '2026-01-01',
      VdUrl: '/files/demo/demo.mp4',
      VdEnclosure: '[]',
      IsTop: 0,
    });
    expect(added.status, added.body.msg).toBe(200);

    const context = await s.browser.newContext({ baseURL: s.server.url, locale: 'zh-CN', timezoneId: BROWSER_TIME_ZONE, viewport: { width: 1366, height: 900 } });
    try {
      const page = await context.newPage();
      await login(page, member.userName, member.password);
      await page.goto('/video');
      await rowOf(page, own).waitFor();
      await rowOf(page, own).getByRole('button', { name: '编辑', exact: true }).waitFor();
      await rowOf(page, own).getByRole('button', { name: '删除', exact: true }).waitFor();
      await page.getByRole('button', { name: '添加', exact: true }).waitFor();
      for (const other of ['建设工程工程量清单计价规范要点', '全过程造价咨询实务']) {
        await expect(rowOf(page, other).getByRole('button', { name: '编辑', exact: true }).count(), other).resolves.toBe(0);
        await expect(rowOf(page, other).getByRole('button', { name: '删除', exact: true }).count(), other).resolves.toBe(0);
      }
    } finally {
      await context.close();
    }
  });
});

audit.tests([LIST, ADD_DIALOG, GRID, DETAILS, COMMENT_DIALOG, HANDOUT_DIALOG]);
