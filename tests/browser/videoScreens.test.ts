// 视频学习编辑, 在线视频 and 统一口径 at desktop widths: many categories scroll in their tab strip
// instead of widening the page; the card footer keeps each figure on one line; 在线视频 adds and
// edits videos in the 详情 dialog of 视频学习编辑, under the same permission rules.
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../helpers/server';
import { BROWSER_TIME_ZONE,
  ADMIN_PASSWORD,
  createMember,
  expectUnclosableDialog,
  formDialog,
  login,
  REPO,
  seeNotification,
  uniqueName,
  useBrowserSuite,
  type MemberLogin,
} from './helpers';

const s = useBrowserSuite();
const DEMO_MP4 = path.join(REPO, 'server/demo/demo.mp4');
const VIDEO_VIEW = '/Knowledge/VideoView';
const DEMO_VIDEO_URL = '/files/demo/demo.mp4';

interface VideoRow {
  Id: number;
  VdtCode: string;
  VdName: string;
  VdEnclosure: string;
  IsTop: number;
}

let admin: Client;
/** The first video category (the tab each screen opens on). */
let firstType: string;

async function call<T>(client: Client, pathName: string, body: unknown): Promise<T> {
  const res = await client.call<T>(pathName, body);
  if (res.status !== 200) throw new Error(`${pathName} failed: ${res.status} ${res.body.msg}`);
  return res.body.data;
}

async function addVideo(client: Client, values: Partial<VideoRow> & { VdName: string }): Promise<VideoRow> {
  return call<VideoRow>(client, '/Ajax/AddVideo', {
    VdtCode: firstType,
    VdPer: '测试讲师',
    VdTime: '2026-01-01',
    VdUrl: DEMO_VIDEO_URL,
    VdEnclosure: '[]',
    IsTop: 0,
    ...values,
  });
}

beforeAll(async () => {
  admin = await s.server.admin();
  const types = await call<{ VdtCode: string }[]>(admin, '/Ajax/GetVideoTypeListInAdmin', { All: 1, OrderName: 'VDT_SORT ASC' });
  firstType = types[0]!.VdtCode;
  await login(s.page, 'admin', ADMIN_PASSWORD);
});

/** The page's own width against the window's: the page never scrolls sideways. */
async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${what}: the page is ${scrollWidth}px wide in a ${innerWidth}px window`).toBeLessThanOrEqual(innerWidth);
}

/** The element lies inside the window from left to right (without scrolling sideways). */
async function expectInsideWindow(target: Locator, what: string): Promise<void> {
  const box = await target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, right: r.right, innerWidth: window.innerWidth };
  });
  expect(box.left, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box.right, `${what}: right edge ${box.right} in a ${box.innerWidth}px window`).toBeLessThanOrEqual(box.innerWidth);
}

/** The button is in the window and the topmost element at its centre (a click lands on it). */
async function expectClickable(button: Locator, what: string): Promise<void> {
  await expectInsideWindow(button, what);
  await button.scrollIntoViewIfNeeded();
  const onTop = await button.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!hit && el.contains(hit);
  });
  expect(onTop, `${what}: nothing covers it`).toBe(true);
}

/** The pager (分页) with its total and 下一页 fully in the window. */
async function expectPagerVisible(page: Page, what: string): Promise<void> {
  const pager = page.getByRole('navigation', { name: '分页' });
  await pager.getByText(/^共 \d+ 条$/).waitFor();
  await expectInsideWindow(pager, `${what}: the pager`);
  await expectInsideWindow(pager.getByRole('button', { name: '下一页' }), `${what}: 下一页`);
  await pager.scrollIntoViewIfNeeded();
  const box = await pager.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, innerHeight: window.innerHeight };
  });
  expect(box.top, `${what}: the pager's top`).toBeGreaterThanOrEqual(0);
  expect(box.bottom, `${what}: the pager's bottom`).toBeLessThanOrEqual(box.innerHeight);
}

/** Chooses the strip's last tab (reached by scrolling the strip) and sees it selected. */
async function chooseLastTab(page: Page, strip: string, what: string): Promise<void> {
  const last = page.getByRole('tablist', { name: strip }).getByRole('tab').last();
  await last.click();
  await expect.poll(() => last.getAttribute('aria-selected'), { message: `${what}: the last tab is selected` }).toBe('true');
  await expectInsideWindow(last, `${what}: the last tab`);
}

describe('在线视频 card footer', () => {
  const name = uniqueName('讲义点赞视频');

  beforeAll(async () => {
    const videos = await call<VideoRow[]>(admin, '/Ajax/GetVideoListInAdmin', { All: 1, OrderName: 'IS_TOP DESC, VD_TIME DESC' });
    const handouts = videos.find((v) => v.VdEnclosure !== '[]' && v.VdEnclosure !== '')?.VdEnclosure;
    if (!handouts) throw new Error('the demo data has no video with handouts');
    // Pinned: first on its page.
    const video = await addVideo(admin, { VdName: name, VdEnclosure: handouts, IsTop: 1 });
    for (let i = 0; i < 5; i++) await call(admin, '/Ajax/UpdateVideoFabulousAdd', { Id: video.Id });
    for (let i = 0; i < 20; i++) await call(admin, '/Ajax/UpdateVideoNumAdd', { Id: video.Id });
  });

  for (const width of [1280, 1440, 1920]) {
    it(`keeps 点赞 5 and 点击量 20 each on one line at ${width}px`, async () => {
      const { page } = s;
      await page.setViewportSize({ width, height: 900 });
      await page.goto(VIDEO_VIEW);
      const card = page.getByRole('listitem').filter({ hasText: name });
      await card.getByRole('button', { name: '讲义', exact: true }).waitFor();
      for (const text of ['点赞 5', '点击量 20']) {
        const figure = card.getByText(text, { exact: true });
        await figure.waitFor();
        const layout = await figure.evaluate((el) => {
          const range = document.createRange();
          range.selectNodeContents(el);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          const cardBox = el.closest('li')!.getBoundingClientRect();
          const box = el.getBoundingClientRect();
          return { lines: lines.size, inside: box.left >= cardBox.left && box.right <= cardBox.right };
        });
        expect(layout.lines, `${text} at ${width}px: lines of text`).toBe(1);
        expect(layout.inside, `${text} at ${width}px: inside its card`).toBe(true);
      }
    });
  }
});

describe('many categories: tabs scroll, the page stays as wide as the window', () => {
  beforeAll(async () => {
    for (let i = 1; i <= 16; i++) {
      await call(admin, '/Ajax/AddVideoType', { VdtName: `${i}号造价咨询专题培训分类${uniqueName('')}`, VdtSort: 100 + i });
      await call(admin, '/Xcx3/CreateStandardClassifyInAdmin', { ScName: `${i}号统一口径专题问答分类`, ScFatherCode: '0', ScSort: 100 + i, type: 0 });
    }
  });

  for (const width of [1280, 1920]) {
    describe(`at ${width}px`, () => {
      it('视频学习编辑: 添加 in the window and clickable, the table and pager whole', async () => {
        const { page } = s;
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/video');
        await page.getByRole('tablist', { name: '视频分类' }).getByRole('tab').nth(16).waitFor();
        await page.getByRole('columnheader', { name: '操作' }).waitFor();
        await expectNoSidewaysScroll(page, '视频学习编辑');
        await expectInsideWindow(page.getByRole('table'), '视频学习编辑: the table');
        await expectPagerVisible(page, '视频学习编辑');
        const add = page.getByRole('button', { name: '添加', exact: true });
        await expectClickable(add, '视频学习编辑: 添加');
        await add.click();
        const dialog = formDialog(page, '详情');
        await dialog.waitFor();
        await dialog.getByRole('button', { name: '取消' }).click();
        await dialog.waitFor({ state: 'hidden' });
        await chooseLastTab(page, '视频分类', '视频学习编辑');
        await expectNoSidewaysScroll(page, '视频学习编辑, last tab');
      });

      it('在线视频: 添加 in the window and clickable, the grid and pager whole', async () => {
        const { page } = s;
        await page.setViewportSize({ width, height: 900 });
        await page.goto(VIDEO_VIEW);
        await page.getByRole('tablist', { name: '视频分类' }).getByRole('tab').nth(16).waitFor();
        await page.getByRole('list', { name: '视频列表' }).waitFor();
        await expectNoSidewaysScroll(page, '在线视频');
        await expectInsideWindow(page.getByRole('list', { name: '视频列表' }), '在线视频: the grid');
        await expectPagerVisible(page, '在线视频');
        await expectClickable(page.getByRole('button', { name: '添加', exact: true }), '在线视频: 添加');
        await chooseLastTab(page, '视频分类', '在线视频');
        await expectNoSidewaysScroll(page, '在线视频, last tab');
      });

      it('统一口径: the tabs, list and pager whole', async () => {
        const { page } = s;
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/Knowledge/TYKJ');
        await page.getByRole('tablist', { name: '统一口径分类' }).getByRole('tab').nth(16).waitFor();
        await expectNoSidewaysScroll(page, '统一口径');
        await expectPagerVisible(page, '统一口径');
        await chooseLastTab(page, '统一口径分类', '统一口径');
        await expectNoSidewaysScroll(page, '统一口径, last tab');
      });
    });
  }
});

/** The card of a video on 在线视频. */
const cardOf = (page: Page, name: string) => page.getByRole('listitem').filter({ hasText: name });

/** Edits the video's name from its card's 编辑, in the 详情 dialog, and sees the card renamed. */
async function renameFromCard(page: Page, from: string, to: string): Promise<void> {
  await cardOf(page, from).getByRole('button', { name: `编辑 ${from}` }).click();
  const dialog = formDialog(page, '详情');
  const nameInput = dialog.getByRole('textbox', { name: '视频名称' });
  await expect.poll(() => nameInput.inputValue()).toBe(from);
  await nameInput.fill(to);
  await dialog.getByRole('button', { name: '保存', exact: true }).click();
  await seeNotification(page, '操作成功!');
  await dialog.waitFor({ state: 'hidden' });
  await cardOf(page, to).waitFor();
}

/** Adds a video from 添加 of 在线视频, uploading the demo MP4, and sees its card. */
async function addFromGrid(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: '添加', exact: true }).click();
  const dialog = formDialog(page, '详情');
  await dialog.waitFor();
  await dialog.getByRole('textbox', { name: '视频名称' }).fill(name);
  await dialog.getByRole('textbox', { name: '视频主讲人' }).fill('网格讲师');
  await dialog.locator('input[type="file"][accept="video/mp4,.mp4"]').setInputFiles(DEMO_MP4);
  await seeNotification(page, '视频上传成功');
  await dialog.getByTestId('video-file-name').getByText('demo.mp4').waitFor();
  await dialog.getByRole('button', { name: '添加', exact: true }).click();
  await seeNotification(page, '操作成功!');
  await dialog.waitFor({ state: 'hidden' });
  await cardOf(page, name).waitFor();
}

describe('在线视频: 添加 and 编辑 in the 详情 dialog', () => {
  it('the administrator adds a video in the 600px dialog that Escape and a click outside leave open', async () => {
    const { page } = s;
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(VIDEO_VIEW);
    await page.getByRole('list', { name: '视频列表' }).waitFor();
    await page.getByRole('button', { name: '添加', exact: true }).click();
    const dialog = formDialog(page, '详情');
    await expectUnclosableDialog(page, dialog, 600);
    await dialog.getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const name = uniqueName('网格添加视频');
    await addFromGrid(page, name);
    // In the category of the tab it was added on.
    const videos = await call<VideoRow[]>(admin, '/Ajax/GetVideoListInAdmin', { All: 1, VdtCode: firstType, OrderName: 'IS_TOP DESC, VD_TIME DESC' });
    expect(videos.map((v) => v.VdName)).toContain(name);
  });

  it('the administrator edits a video from its card', async () => {
    const { page } = s;
    const name = uniqueName('网格编辑视频');
    await addVideo(admin, { VdName: name, IsTop: 1 });
    await page.goto(VIDEO_VIEW);
    await renameFromCard(page, name, `${name}改`);
  });

  describe('members', () => {
    let withCodes: MemberLogin;
    let viewOnly: MemberLogin;
    let own: string;

    beforeAll(async () => {
      withCodes = await createMember(s.server, { video: '1,2,3', videoView: '2' });
      viewOnly = await createMember(s.server, { videoView: '1,2,3,4' });
      const api = new Client(s.server.url);
      await api.login(withCodes.userName, withCodes.password);
      own = uniqueName('成员网格视频');
      await addVideo(api, { VdName: own, IsTop: 1 });
    });

    async function asMember(member: MemberLogin, walk: (page: Page) => Promise<void>): Promise<void> {
      const context = await s.browser.newContext({ baseURL: s.server.url, locale: 'zh-CN', timezoneId: BROWSER_TIME_ZONE, viewport: { width: 1366, height: 900 } });
      try {
        const page = await context.newPage();
        await login(page, member.userName, member.password);
        await page.goto(VIDEO_VIEW);
        await cardOf(page, own).waitFor();
        await walk(page);
      } finally {
        await context.close();
      }
    }

    it('a member with codes 1 and 3 adds, and edits their own videos only', async () => {
      await asMember(withCodes, async (page) => {
        await cardOf(page, own).getByRole('button', { name: `编辑 ${own}` }).waitFor();
        await expect(cardOf(page, '建设工程工程量清单计价规范要点').getByRole('button', { name: /^编辑/ }).count()).resolves.toBe(0);
        await renameFromCard(page, own, `${own}改`);
        own = `${own}改`;
        await addFromGrid(page, uniqueName('成员网格添加'));
      });
    });

    it('a member without them sees no 添加 and no 编辑, and the server refuses', async () => {
      await asMember(viewOnly, async (page) => {
        await cardOf(page, own).getByRole('button', { name: `播放 ${own}` }).waitFor();
        await expect(page.getByRole('button', { name: '添加', exact: true }).count()).resolves.toBe(0);
        await expect(page.getByRole('button', { name: /^编辑/ }).count()).resolves.toBe(0);
      });
      const api = new Client(s.server.url);
      await api.login(viewOnly.userName, viewOnly.password);
      const res = await api.call('/Ajax/AddVideo', { VdtCode: firstType, VdName: uniqueName('越权'), VdUrl: DEMO_VIDEO_URL, VdEnclosure: '[]' });
      expect(res.status).toBe(403);
    });
  });
});
