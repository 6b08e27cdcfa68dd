// The article catalogues, their management and 统一口径: the page size
// remembered in a cookie, 请输入搜索内容, the columns of each document type, 查看 downloading one
// file or listing several, a hostile article's preview that runs nothing, the 新增文件 rule, and
// add / edit / delete through the 900px 文章目录详情 dialog.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  a11yAudit,
  clickOutside,
  createMember,
  deleteRow,
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
const CATALOGUE = '标准图集 catalogue';
const FILES = '文件下载 dialog';
const PREVIEW = '预览 dialog';
const MANAGE = '文章目录管理';
const FORM = '文章目录详情 dialog';
const TYKJ = '统一口径';

const PAGE_SIZE_COOKIE = 'zhishi-admin-article-page-size';
const HOSTILE_TEXT = '敌意文章的正文';
const HOSTILE_HTML = `<p>${HOSTILE_TEXT}</p><img src=x onerror="window.__xss=1"><script>window.__xss=2</script><style>body{display:none}</style>`;

interface ClassifyRow {
  ScCode: string;
  ScName: string;
}

let hostileName = '';

/** Requests of the article list call made while `action` runs. */
async function listCallsDuring(page: Page, action: () => Promise<void>): Promise<Request[]> {
  const seen: Request[] = [];
  const onRequest = (request: Request) => {
    if (request.url().includes('/Xcx1/GetStandardArticleListInAdmin')) seen.push(request);
  };
  page.on('request', onRequest);
  try {
    await action();
    // Give a request started by the action the time to leave.
    await page.waitForTimeout(500);
  } finally {
    page.off('request', onRequest);
  }
  return seen;
}

async function headers(page: Page): Promise<string[]> {
  await page.getByRole('columnheader', { name: '操作', exact: true }).waitFor();
  return (await page.getByRole('columnheader').allInnerTexts()).map((t) => t.trim());
}

beforeAll(async () => {
  // The hostile article goes in through the API, as any client could send it.
  const admin = await s.server.admin();
  const classes = await admin.call<ClassifyRow[]>('/Xcx1/GetStandardClassifyListInAdmin', { All: 1, type: 1, OrderName: 'SC_SORT ASC' });
  const laws = classes.body.data.find((c) => c.ScName === '法律');
  if (!laws) throw new Error('the demo data has no 法律 classification');
  hostileName = uniqueName('敌意文章');
  const added = await admin.call('/Xcx1/AddStandardArticleInAdmin', {
    ScCode: laws.ScCode,
    SaType: 1,
    SaName: hostileName,
    SaCodeName: '敌字第1号',
    SaPdfContent: HOSTILE_HTML,
  });
  if (added.status !== 200) throw new Error(`AddStandardArticleInAdmin failed: ${added.status} ${added.body.msg}`);
  await login(s.page, 'admin', ADMIN_PASSWORD);
});

describe('article catalogue viewer', () => {
  it('opens 标准图集 from the menu: the tree 文章分类 under 全部, 12 a page by default', async () => {
    const { page } = s;
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('/Xcx1/GetStandardArticleListInAdmin')),
      page.getByRole('menuitem', { name: '标准图集' }).click(),
    ]);
    expect(request.postDataJSON()).toMatchObject({ pageIndex: 1, pageSize: 12, type: 0 });
    const tree = page.getByRole('tree', { name: '文章分类' });
    await tree.getByRole('treeitem', { name: '全部' }).waitFor();
    await expect(tree.getByRole('treeitem', { name: '全部' }).getAttribute('aria-selected')).resolves.toBe('true');
    await tree.getByRole('treeitem', { name: '混凝土结构' }).waitFor();
    await rowOf(page, '16G101-1 混凝土结构施工图平面整体表示方法').waitFor();
    await expect(page.getByRole('combobox', { name: '每页条数' }).textContent()).resolves.toBe('12 条/页');
    await audit.check(page, CATALOGUE);
  });

  it('remembers the page size in a cookie for 365 days at path /, across a reload', async () => {
    const { page, context } = s;
    await page.getByRole('combobox', { name: '每页条数' }).click();
    const options = (await page.getByRole('option').allInnerTexts()).map((t) => t.trim());
    expect(options).toEqual(['8 条/页', '10 条/页', '12 条/页', '15 条/页', '20 条/页', '50 条/页']);
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('/Xcx1/GetStandardArticleListInAdmin')),
      page.getByRole('option', { name: '20 条/页' }).click(),
    ]);
    expect(request.postDataJSON()).toMatchObject({ pageSize: 20 });

    const cookie = (await context.cookies()).find((c) => c.name === PAGE_SIZE_COOKIE);
    expect(cookie?.value).toBe('20');
    expect(cookie?.path).toBe('/');
    const days = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThanOrEqual(365.01);

    // After a reload the page comes with its first list at 20 a page: the server read the cookie.
    await page.reload();
    await expect(page.locator('#page-state').textContent()).resolves.toContain('"perPage":20');
    await expect(page.getByRole('combobox', { name: '每页条数' }).textContent()).resolves.toBe('20 条/页');
  });

  it('says 请输入搜索内容 for an empty search and sends nothing', async () => {
    const { page } = s;
    await rowOf(page, '12J201 平屋面建筑构造').waitFor();
    const sent = await listCallsDuring(page, async () => {
      await page.getByRole('textbox', { name: '搜索内容' }).fill('   ');
      await page.getByRole('button', { name: '搜索', exact: true }).click();
      await page.getByText('请输入搜索内容', { exact: true }).last().waitFor();
    });
    expect(sent).toHaveLength(0);

    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('/Xcx1/GetStandardArticleListInAdmin')),
      (async () => {
        await page.getByRole('textbox', { name: '搜索内容' }).fill('楼梯');
        await page.getByRole('button', { name: '搜索', exact: true }).click();
      })(),
    ]);
    expect(request.postDataJSON()).toMatchObject({ SaName: '楼梯', type: 0 });
    await rowOf(page, '22J403-1 楼梯 栏杆 栏板').waitFor();
    await rowOf(page, '12J201 平屋面建筑构造').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: '重置', exact: true }).click();
    await rowOf(page, '12J201 平屋面建筑构造').waitFor();
    await expect(page.getByRole('textbox', { name: '搜索内容' }).inputValue()).resolves.toBe('');
  });

  it('shows 文号 on 法律法规 only and 是否置顶 (是/否) on 标准图集 and 造价刊物 only', async () => {
    const { page } = s;
    await page.goto('/Knowledge/Article/Catalogue?type=0');
    expect(await headers(page)).toEqual(['文章名称', '是否置顶', '发布时间', '操作']);
    await expect(rowOf(page, '16G101-1 混凝土结构施工图平面整体表示方法').getByText('是', { exact: true }).count()).resolves.toBe(1);
    await expect(rowOf(page, '12J201 平屋面建筑构造').getByText('否', { exact: true }).count()).resolves.toBe(1);

    await page.getByRole('menuitem', { name: '法律法规' }).click();
    await rowOf(page, '中华人民共和国建筑法').waitFor();
    expect(await headers(page)).toEqual(['文章名称', '文号', '发布时间', '操作']);
    await rowOf(page, '主席令第46号').waitFor();

    await page.getByRole('menuitem', { name: '造价刊物' }).click();
    await rowOf(page, '2026年第10期 造价信息').waitFor();
    expect(await headers(page)).toEqual(['文章名称', '是否置顶', '发布时间', '操作']);

    await page.getByRole('menuitem', { name: '公司通用文档' }).click();
    await rowOf(page, '项目咨询成果文件归档规定').waitFor();
    expect(await headers(page)).toEqual(['文章名称', '发布时间', '操作']);
  });

  it('searches 法律法规 by 文号', async () => {
    const { page } = s;
    await page.goto('/Knowledge/Article/Catalogue?type=1');
    await rowOf(page, '中华人民共和国建筑法').waitFor();
    await page.getByRole('combobox', { name: '搜索字段' }).click();
    await page.getByRole('option', { name: '文号', exact: true }).click();
    await page.getByRole('textbox', { name: '搜索内容' }).fill('279');
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('/Xcx1/GetStandardArticleListInAdmin')),
      page.getByRole('button', { name: '搜索', exact: true }).click(),
    ]);
    expect(request.postDataJSON()).toMatchObject({ SaCodeName: '279', type: 1 });
    await rowOf(page, '建设工程质量管理条例').waitFor();
    await rowOf(page, '中华人民共和国建筑法').waitFor({ state: 'detached' });
  });

  it('preselects the category of the query ScCode and filters by it', async () => {
    const { page } = s;
    const admin = await s.server.admin();
    const classes = await admin.call<ClassifyRow[]>('/Xcx1/GetStandardClassifyListInAdmin', { All: 1, type: 0, OrderName: 'SC_SORT ASC' });
    const structure = classes.body.data.find((c) => c.ScName === '结构专业');
    const calls: string[] = [];
    // Lists of a first page: the next one may be fetched ahead once the rows show.
    const track = (request: Request) => {
      if ((request.postDataJSON() as { pageIndex?: number } | null)?.pageIndex !== 2) calls.push(new URL(request.url()).pathname);
    };
    page.on('request', track);
    await page.goto(`/Knowledge/Article/Catalogue?type=0&ScCode=${structure?.ScCode}`);
    const item = page.getByRole('treeitem', { name: '结构专业' });
    await item.waitFor();
    await expect(item.getAttribute('aria-selected')).resolves.toBe('true');
    await rowOf(page, '16G101-1 混凝土结构施工图平面整体表示方法').waitFor();
    await expect(rowOf(page, '12J201 平屋面建筑构造').count()).resolves.toBe(0);
    await page.waitForLoadState('networkidle');
    page.off('request', track);
    // The list of the address comes with the page (rendered by the server); the tree, asked for
    // once the list is in, once.
    expect(calls.filter((p) => p.endsWith('/GetStandardClassifyListInAdmin'))).toHaveLength(1);
    expect(calls.filter((p) => p.endsWith('/GetStandardArticleListInAdmin'))).toHaveLength(0);

    // Choosing another node puts it in the query.
    await page.getByRole('treeitem', { name: '建筑专业' }).click();
    await rowOf(page, '12J201 平屋面建筑构造').waitFor();
    expect(new URL(page.url()).searchParams.get('ScCode')).not.toBe(structure?.ScCode);
  });

  it('downloads the only file of an uploaded article directly', async () => {
    const { page } = s;
    await page.goto('/Knowledge/Article/Catalogue?type=0');
    const row = rowOf(page, '16G101-1 混凝土结构施工图平面整体表示方法');
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: '查看' }).click()]);
    expect(download.suggestedFilename()).toBe('图集正文.pdf');
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
  });

  it('lists several files in 文件下载, each with 下载', async () => {
    const { page } = s;
    await rowOf(page, '22J403-1 楼梯 栏杆 栏板').getByRole('button', { name: '查看' }).click();
    const dialog = page.getByRole('dialog', { name: '文件下载' });
    await dialog.waitFor();
    await dialog.getByText('图集正文.pdf').waitFor();
    await dialog.getByText('图集勘误.pdf').waitFor();
    const buttons = dialog.getByRole('button', { name: /^下载/ });
    await expect(buttons.count()).resolves.toBe(2);
    await audit.check(page, FILES);
    const [download] = await Promise.all([page.waitForEvent('download'), buttons.nth(1).click()]);
    expect(download.suggestedFilename()).toBe('图集勘误.pdf');
    await dialog.getByRole('button', { name: '关闭' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('previews an edited article in the 840px 预览 dialog', async () => {
    const { page } = s;
    await page.goto('/Knowledge/Article/Catalogue?type=1');
    await rowOf(page, '中华人民共和国建筑法').getByRole('button', { name: '查看' }).click();
    const dialog = page.getByRole('dialog', { name: '预览' });
    await dialog.getByText('第一条 为了加强管理', { exact: false }).waitFor();
    expect((await dialog.boundingBox())?.width).toBe(840);
    await audit.check(page, PREVIEW);
    await dialog.getByRole('button', { name: '关闭' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('shows a hostile article as text: no handler, script or style runs or renders', async () => {
    const { page } = s;
    await page.getByRole('textbox', { name: '搜索内容' }).fill(hostileName);
    await page.getByRole('button', { name: '搜索', exact: true }).click();
    await rowOf(page, hostileName).getByRole('button', { name: '查看' }).click();
    const dialog = page.getByRole('dialog', { name: '预览' });
    await dialog.getByText(HOSTILE_TEXT).waitFor();
    await page.waitForTimeout(300);
    await expect(page.evaluate(() => (window as { __xss?: unknown }).__xss)).resolves.toBeUndefined();
    await expect(dialog.locator('script, style, img[onerror], [onerror]').count()).resolves.toBe(0);
    await expect(dialog.getByText('window.__xss').count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: '关闭' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('sanitises even content the server would hand back raw', async () => {
    const { page } = s;
    // The server sanitises on write too; here its answer is replaced by the raw hostile HTML, so
    // that the client's own sanitising is what is checked.
    await page.route('**/Xcx1/GetStandardArticleInfoInAdmin', async (route) => {
      const response = await route.fetch();
      const json = (await response.json()) as { data: Record<string, unknown> };
      json.data.SaPdfContent = HOSTILE_HTML;
      await route.fulfill({ response, json });
    });
    try {
      await rowOf(page, hostileName).getByRole('button', { name: '查看' }).click();
      const dialog = page.getByRole('dialog', { name: '预览' });
      await dialog.getByText(HOSTILE_TEXT).waitFor();
      await page.waitForTimeout(300);
      await expect(page.evaluate(() => (window as { __xss?: unknown }).__xss)).resolves.toBeUndefined();
      await expect(dialog.locator('script, style, [onerror]').count()).resolves.toBe(0);
      await expect(page.locator('body').isVisible()).resolves.toBe(true);
      await dialog.getByRole('button', { name: '关闭' }).click();
    } finally {
      await page.unroute('**/Xcx1/GetStandardArticleInfoInAdmin');
    }
  });
});

describe('文章目录管理', () => {
  const name = uniqueName('浏览器文章');
  const renamed = `${name}改`;
  const pdf = path.join(os.tmpdir(), `${uniqueName('article-')}.pdf`);

  beforeAll(() => {
    fs.writeFileSync(pdf, '%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
  });

  it('selects the root 全部 on load, all expanded, and offers 新增文件 only under a category', async () => {
    const { page } = s;
    await page.getByRole('menuitem', { name: '文章目录管理' }).click();
    const tree = page.getByRole('tree', { name: '文章分类' });
    await tree.getByRole('treeitem', { name: '混凝土结构' }).waitFor();
    await expect(tree.getByRole('treeitem', { name: '全部' }).getAttribute('aria-selected')).resolves.toBe('true');
    await page.getByRole('heading', { name: '全部', level: 2 }).waitFor();
    await rowOf(page, '12J201 平屋面建筑构造').waitFor();
    // The first column holds 批量删除's checkboxes.
    expect(await headers(page)).toEqual(['', '排序', '文章名称', '操作']);
    await expect(page.getByRole('button', { name: '新增文件' }).count()).resolves.toBe(0);

    await tree.getByRole('treeitem', { name: '建筑专业' }).click();
    await page.getByRole('heading', { name: '建筑专业', level: 2 }).waitFor();
    await page.getByRole('button', { name: '新增文件' }).waitFor();
    await rowOf(page, '16G101-1 混凝土结构施工图平面整体表示方法').waitFor({ state: 'detached' });
    await audit.check(page, MANAGE);

    // The tree works from the keyboard: back to 全部 with the arrows and Enter.
    await tree.getByRole('treeitem', { name: '建筑专业' }).focus();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: '全部', level: 2 }).waitFor();
    await expect(page.getByRole('button', { name: '新增文件' }).count()).resolves.toBe(0);
  });

  it('keeps its tree shown while the categories are asked again (刷新): no loading in between', async () => {
    const { page } = s;
    await page.getByRole('menuitem', { name: '文章目录管理' }).click();
    const tree = page.getByRole('tree', { name: '文章分类' });
    await tree.getByRole('treeitem', { name: '混凝土结构' }).waitFor();
    // From now on, notes whether the tree's pane ever shows its loading status.
    await page.evaluate(() => {
      const seen = window as unknown as { treeLoadingSeen?: boolean };
      seen.treeLoadingSeen = false;
      const pane = document.querySelector('[role="tree"]')!.closest('section')!;
      new MutationObserver(() => {
        if (pane.querySelector('[role="status"]')) seen.treeLoadingSeen = true;
      }).observe(pane, { childList: true, subtree: true });
    });
    // Another administrator adds a category meanwhile: the answer differs from the tree shown.
    const added = uniqueName('刷新后的分类');
    const admin = await s.server.admin();
    expect((await admin.call('/Xcx1/CreateStandardClassifyInAdmin', { ScName: added, ScFatherCode: '0', type: 0, ScSort: 900 })).status).toBe(200);
    await page.getByRole('button', { name: '刷新' }).click();
    // The new answer drawn in place of the old tree, which was never replaced by 拼命加载中.
    await tree.getByRole('treeitem', { name: added }).waitFor();
    await tree.getByRole('treeitem', { name: '混凝土结构' }).waitFor();
    await expect(page.evaluate(() => (window as unknown as { treeLoadingSeen?: boolean }).treeLoadingSeen)).resolves.toBe(false);
  });

  it('adds a file article through the 900px dialog, which Escape and a click outside do not close', async () => {
    const { page } = s;
    await page.getByRole('treeitem', { name: '建筑专业' }).click();
    await page.getByRole('button', { name: '新增文件' }).click();
    const dialog = formDialog(page, '文章目录详情');
    await dialog.waitFor();
    expect((await dialog.boundingBox())?.width).toBe(900);
    await expect(dialog.getByRole('button', { name: '文件上传', pressed: true }).count()).resolves.toBe(1);
    await dialog.getByRole('switch', { name: '是否置顶' }).waitFor();
    await expect(dialog.getByRole('textbox', { name: '文号' }).count()).resolves.toBe(0);
    await audit.check(page, FORM);

    await page.keyboard.press('Escape');
    await clickOutside(page, dialog);
    await expect(dialog.isVisible()).resolves.toBe(true);

    // Nothing is sent without a name: 必填.
    await dialog.getByRole('button', { name: '添加', exact: true }).click();
    await dialog.getByText('必填').waitFor();

    await dialog.getByRole('textbox', { name: '文章名称' }).fill(name);
    await dialog.getByRole('spinbutton', { name: '排序' }).fill('7');
    await dialog.getByRole('switch', { name: '是否置顶' }).check();
    await dialog.locator('input[type="file"]').setInputFiles(pdf);
    await dialog.getByText(path.basename(pdf)).waitFor();
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('/Xcx1/AddStandardArticleInAdmin')),
      dialog.getByRole('button', { name: '添加', exact: true }).click(),
    ]);
    const sent = request.postDataJSON() as Record<string, unknown>;
    expect(sent).toMatchObject({ SaName: name, SaSort: 7, IsCommon: 1, SaType: 0 });
    expect(typeof sent.ScCode).toBe('string');
    expect(sent.ScCode).not.toBe('0');
    expect(JSON.parse(String(sent.SaPdfUrl))).toHaveLength(1);
    await seeNotification(page, '操作成功!');
    await dialog.waitFor({ state: 'hidden' });
    await rowOf(page, name).waitFor();
  });

  it('edits it into an online article with 保存, and 查看 previews the text', async () => {
    const { page } = s;
    await rowOf(page, name).getByRole('button', { name: '编辑', exact: true }).click();
    const dialog = formDialog(page, '文章目录详情');
    await dialog.waitFor();
    await expect(dialog.getByRole('textbox', { name: '文章名称' }).inputValue()).resolves.toBe(name);
    await expect(dialog.getByRole('button', { name: '添加', exact: true }).count()).resolves.toBe(0);
    await page.keyboard.press('Escape');
    await expect(dialog.isVisible()).resolves.toBe(true);

    await dialog.getByRole('textbox', { name: '文章名称' }).fill(renamed);
    await dialog.getByRole('button', { name: '在线编辑' }).click();
    // The rich text, not the date field (its year, month and day are editable sections too).
    const editor = dialog.locator('[contenteditable="true"]:not([role="spinbutton"])');
    await editor.click();
    await page.keyboard.type('在线编辑的正文');
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('/Xcx1/UpdateStandardArticleInAdmin')),
      dialog.getByRole('button', { name: '保存', exact: true }).click(),
    ]);
    expect(request.postDataJSON()).toMatchObject({ SaName: renamed, SaType: 1 });
    await seeNotification(page, '操作成功!');
    await dialog.waitFor({ state: 'hidden' });
    await rowOf(page, renamed).waitFor();

    await rowOf(page, renamed).getByRole('button', { name: '查看' }).click();
    const preview = page.getByRole('dialog', { name: '预览' });
    await preview.getByText('在线编辑的正文').waitFor();
    await preview.getByRole('button', { name: '关闭' }).click();
    await preview.waitFor({ state: 'hidden' });
  });

  it('starts a 法律法规 article as 在线编辑, with 文号 and without 是否置顶', async () => {
    const { page } = s;
    await page.getByRole('tab', { name: '法律法规' }).click();
    await page.getByRole('treeitem', { name: '法律' }).click();
    await page.getByRole('button', { name: '新增文件' }).click();
    const dialog = formDialog(page, '文章目录详情');
    await dialog.waitFor();
    await expect(dialog.getByRole('button', { name: '在线编辑', pressed: true }).count()).resolves.toBe(1);
    await dialog.getByRole('textbox', { name: '文号' }).waitFor();
    await expect(dialog.getByRole('switch', { name: '是否置顶' }).count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: '取消', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('deletes the article after 提示, with 删除成功!', async () => {
    const { page } = s;
    await page.getByRole('tab', { name: '标准图集' }).click();
    await page.getByRole('treeitem', { name: '建筑专业' }).click();
    await rowOf(page, renamed).waitFor();
    await deleteRow(page, renamed, '取消');
    await expect(rowOf(page, renamed).isVisible()).resolves.toBe(true);
    await deleteRow(page, renamed, '确定');
    await seeNotification(page, '删除成功!');
    await rowOf(page, renamed).waitFor({ state: 'detached' });
  });
});

describe('统一口径', () => {
  it('shows the tabs, the articles, and the chosen one with 问题 and 统一回答', async () => {
    const { page } = s;
    await page.getByRole('menuitem', { name: '统一口径', exact: true }).click();
    await page.getByRole('tab', { name: '计价规则' }).waitFor();
    await page.getByRole('tab', { name: '工程量计算' }).click();
    await page.getByRole('button', { name: '砌体墙工程量扣除规则' }).waitFor();
    await page.getByRole('heading', { name: '砌体墙工程量扣除规则', level: 2 }).waitFor();
    await page.getByRole('heading', { name: '问题', level: 3 }).waitFor();
    await page.getByRole('heading', { name: '统一回答', level: 3 }).waitFor();
    await page.getByText('应扣除门窗洞口').waitFor();
    // The choice is in the query: a reload keeps the tab.
    await page.reload();
    await expect(page.getByRole('tab', { name: '工程量计算' }).getAttribute('aria-selected')).resolves.toBe('true');
    await audit.check(page, TYKJ);

    await page.getByRole('combobox', { name: '搜索字段' }).click();
    // By name, or inside the 问题 and 统一回答 (全文, tests/browser/fullText.test.ts).
    await expect(page.getByRole('option').allInnerTexts()).resolves.toEqual(['文章名称', '全文']);
    await page.keyboard.press('Escape');
  });

  it('searches every tab, saying where each answer lives, and 重置 goes back to the tab', async () => {
    const { page } = s;
    await page.getByRole('tab', { name: '计价规则' }).click();
    await page.getByRole('textbox', { name: '搜索内容' }).fill('砌体墙');
    await page.getByRole('button', { name: '搜索', exact: true }).click();
    const found = page.getByRole('list', { name: '文章列表' }).getByRole('button', { name: /砌体墙工程量扣除规则/ });
    await found.waitFor();
    await found.getByText('所在分类：工程量计算').waitFor();
    // The results are not one tab's: none is selected while they show.
    await expect(page.getByRole('tab', { selected: true }).count()).resolves.toBe(0);
    await page.getByRole('heading', { name: '砌体墙工程量扣除规则', level: 2 }).waitFor();
    await page.getByText('应扣除门窗洞口').waitFor();
    await page.getByRole('button', { name: '重置', exact: true }).click();
    await expect.poll(() => page.getByRole('tab', { name: '计价规则' }).getAttribute('aria-selected')).toBe('true');
    await expect(page.getByText('所在分类：').count()).resolves.toBe(0);
  });
});

describe('a member without code 1 on articles', () => {
  it('gets no 新增文件, whatever the category', async () => {
    const { page } = s;
    const member = await createMember(s.server, { article: '2,3,4' });
    await logout(page);
    await login(page, member.userName, member.password);
    await page.getByRole('menuitem', { name: '文章目录管理' }).click();
    await page.getByRole('treeitem', { name: '建筑专业' }).click();
    await page.getByRole('heading', { name: '建筑专业', level: 2 }).waitFor();
    await rowOf(page, '12J201 平屋面建筑构造').getByRole('button', { name: '编辑', exact: true }).waitFor();
    await expect(page.getByRole('button', { name: '新增文件' }).count()).resolves.toBe(0);
  });
});

audit.tests([CATALOGUE, FILES, PREVIEW, MANAGE, FORM, TYKJ]);
