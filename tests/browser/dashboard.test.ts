// 首页 as a dashboard (src/layout/Dashboard.tsx): an administrator sees every section, each count
// linking to its screen, the chart of plays and likes labelled in Chinese with its figures as a
// table, a most watched video linking to its details; members with partial codes see only the
// sections of the modules they may view. The calls behind them: tests/api/dashboard.test.ts.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, a11yAudit, createMember, login, logout, useBrowserSuite } from './helpers';

const s = useBrowserSuite();
const audit = a11yAudit();
const HOME = '首页 (administrator)';

const SECTIONS = ['播放量与点赞数（近30天）', '播放最多的视频（近30天）', '无人观看的视频（近30天）', '最新评论', '最近操作', '存储占用'];

const h2 = (page: Page, name: string) => page.getByRole('heading', { name, level: 2, exact: true });
const sectionHeadings = async (page: Page) => (await page.getByRole('main').getByRole('heading', { level: 2 }).allInnerTexts()).map((t) => t.trim());
const countCards = (page: Page) => page.getByRole('region', { name: '内容数量' });

let played: { Id: number; VdName: string };

beforeAll(async () => {
  const admin = await s.server.admin();
  const videos = (await admin.call<{ Id: number; VdName: string }[]>('/Ajax/GetVideoListInAdmin', { pageIndex: 1, pageSize: 1 })).body.data;
  played = videos[0]!;
  // An audited change for 最近操作.
  expect((await admin.call('/Ajax/AddUseweb', { UwName: '首页测试网站', UwUrl: 'https://example.com/home' })).status).toBe(200);
  // Today's plays: this video is the day's most watched.
  for (let i = 0; i < 30; i++) expect((await admin.call('/Ajax/UpdateVideoNumAdd', { Id: played.Id })).status).toBe(200);
});

describe('an administrator', () => {
  it('sees every section, the counts of every content type linking to their screens', async () => {
    const { page } = s;
    await login(s.page, 'admin', ADMIN_PASSWORD);
    await page.goto('/');
    await h2(page, '最近操作').waitFor();
    expect(await sectionHeadings(page)).toEqual(SECTIONS);
    const cards = countCards(page);
    for (const [name, href] of [
      ['视频', '/video'],
      ['文章', '/Knowledge/Article/Catalogue?type=0'],
      ['统一口径', '/Knowledge/TYKJ'],
      ['常用网站', '/useweb'],
    ]) {
      await expect(cards.getByRole('link', { name, exact: true }).getAttribute('href'), name).resolves.toBe(href);
    }
    // Articles per document type, each linking to its catalogue.
    await expect(cards.getByRole('link', { name: '法律法规', exact: true }).getAttribute('href')).resolves.toBe('/Knowledge/Article/Catalogue?type=1');
    // Lists filled, not loading.
    await page.getByRole('list', { name: '最近操作' }).getByText('管理员 新增常用网站「首页测试网站」').waitFor();
    await page.getByRole('list', { name: '存储占用' }).getByText('讲义').waitFor();
    await expect(page.getByRole('main').getByText('加载中…').count()).resolves.toBe(0);
    await audit.check(page, HOME);
  });

  it('sees the chart of plays and likes with Chinese labels, its figures as a table, and 近90天', async () => {
    const { page } = s;
    const figure = page.getByRole('figure', { name: '播放量与点赞数（近30天）' });
    await figure.locator('svg').first().waitFor();
    for (const label of ['播放量', '点赞数', '日期', '次数']) await figure.getByText(label, { exact: true }).first().waitFor();
    await expect(figure.locator('figcaption').innerText()).resolves.toMatch(/共播放 [\d,]+ 次，点赞 [\d,]+ 次/);
    await page.getByRole('button', { name: '以表格查看每日数据' }).click();
    const table = page.getByRole('table', { name: '每日播放量与点赞数' });
    await expect(table.getByRole('columnheader').allInnerTexts()).resolves.toEqual(['日期', '播放量', '点赞数']);
    await expect(table.getByRole('row').count()).resolves.toBe(31);
    // Today's row (first, newest) holds at least the plays made above.
    const today = (await table.getByRole('row').nth(1).getByRole('cell').allInnerTexts()).map((t) => t.trim());
    expect(Number(today[1]!.replace(/,/g, ''))).toBeGreaterThanOrEqual(30);

    await page.getByRole('button', { name: '近90天', exact: true }).click();
    await h2(page, '播放量与点赞数（近90天）').waitFor();
    await h2(page, '播放最多的视频（近90天）').waitFor();
    await page.getByRole('figure', { name: '播放量与点赞数（近90天）' }).locator('svg').first().waitFor();
    await expect(table.getByRole('row').count()).resolves.toBe(91);
  });

  it('opens the most watched video’s details from its list', async () => {
    const { page } = s;
    const top = page.getByRole('list', { name: '播放最多的视频（近90天）' });
    await top.getByRole('link', { name: played.VdName, exact: true }).first().click();
    await page.waitForURL((url) => url.pathname === '/Knowledge/VideoView/Details' && url.searchParams.get('Id') === String(played.Id));
  });
});

describe('members with partial codes see only their modules', () => {
  it('在线视频 and 常用网站: their counts, plays, comments and the storage of videos; no changes, no articles', async () => {
    const { page } = s;
    const member = await createMember(s.server, { videoView: '2', useweb: '2' });
    await logout(page);
    await login(page, member.userName, member.password);
    await page.goto('/');
    await h2(page, '最新评论').waitFor();
    expect(await sectionHeadings(page)).toEqual(['播放量与点赞数（近30天）', '播放最多的视频（近30天）', '无人观看的视频（近30天）', '最新评论', '存储占用']);
    const cards = countCards(page);
    await expect(cards.getByRole('link', { name: '视频', exact: true }).getAttribute('href')).resolves.toBe('/Knowledge/VideoView');
    await cards.getByRole('link', { name: '常用网站', exact: true }).waitFor();
    await expect(cards.getByRole('link', { name: '文章', exact: true }).count()).resolves.toBe(0);
    const storage = page.getByRole('list', { name: '存储占用' });
    await storage.getByText('视频', { exact: true }).waitFor();
    await expect(storage.getByText('图片', { exact: true }).count()).resolves.toBe(0);
  });

  it('文章 only: the articles per document type, nothing of videos', async () => {
    const { page } = s;
    const member = await createMember(s.server, { article: '2' });
    await logout(page);
    await login(page, member.userName, member.password);
    await page.goto('/');
    await h2(page, '存储占用').waitFor();
    expect(await sectionHeadings(page)).toEqual(['存储占用']);
    const cards = countCards(page);
    for (const type of ['标准图集', '法律法规', '造价刊物', '公司通用文档']) await cards.getByRole('link', { name: type, exact: true }).waitFor();
    await expect(cards.getByRole('link').count()).resolves.toBe(5);
    await expect(page.getByRole('figure').count()).resolves.toBe(0);
  });
});

audit.tests([HOME]);
