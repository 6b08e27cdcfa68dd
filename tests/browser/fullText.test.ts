// 全文 in Chromium: the administrator stores a PDF of several pages of Chinese text (made by the
// tests, tests/fixtures/documents/makePdf.ts) in 法律法规, a broken PDF beside it and a 统一口径
// answer; searches 全文 for a word of page 2 (chosen from the keyboard), sees its snippet with the
// word marked, 第 2 页 and the category, and opening the hit opens the file at #page=2; the search
// keeps to the category chosen in the tree; 统一口径's 全文 finds a word of a 统一回答 in its tab;
// 全文索引 lists the broken file with its reason; a member without the catalogues' view code is
// refused.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FullTextHit, FullTextIndexState } from '../../schemas/fullText';
import type { SignedUpload } from '../../schemas/types';
import { makePdf } from '../fixtures/documents/makePdf';
import { until, type Client } from '../helpers/server';
import { a11yAudit, ADMIN_PASSWORD, createMember, login, logout, uniqueName, useBrowserSuite, type MemberLogin } from './helpers';

const s = useBrowserSuite();
const audit = a11yAudit();
const CATALOGUE = '法律法规 全文 results';
const TYKJ = '统一口径 全文 results';
const STATE = '全文索引';

// Words found nowhere in the demo content: the hits are the test's documents only.
const PAGE_2_WORD = '盾构管片拼装';
const ANSWER_WORD = '预拌混凝土运输时限';
const MISSING_WORD = '不存在的检索词';

const SEARCH = '/Xcx1/SearchStandardArticleFullTextInAdmin';
const TYKJ_SEARCH = '/Xcx3/SearchStandardArticleFullTextInAdmin';

interface ClassifyRow {
  ScCode: string;
  ScName: string;
  ScFatherCode: string;
}

let admin: Client;
let pdfName = '';
let articleName = '';
let brokenName = '';
let brokenFile = '';
let answerName = '';
let tykjTab = '';
let lawClass: ClassifyRow;
let otherLawClass: ClassifyRow;
let member: MemberLogin;

async function ok<T>(res: Promise<{ status: number; body: { msg: string; data: T } }>, what: string): Promise<T> {
  const answer = await res;
  if (answer.status !== 200) throw new Error(`${what} failed: ${answer.status} ${answer.body.msg}`);
  return answer.body.data;
}

/** Stores a file as the app does (SignUpload, then the signed PUT) and returns the file list entry. */
async function upload(name: string, bytes: Uint8Array): Promise<{ name: string; url: string }> {
  const signed = await ok(admin.call<SignedUpload>('/Ajax/SignUpload', { FileName: name, Size: bytes.length, Kind: 'handout', ContentType: 'application/pdf' }), 'SignUpload');
  const local = signed.Url.startsWith('/');
  const put = await fetch(local ? s.server.url + signed.Url : signed.Url, {
    method: signed.Method,
    headers: { ...signed.Headers, ...(local ? { cookie: admin.cookie } : {}) },
    body: new Blob([new Uint8Array(bytes)]),
  });
  if (!put.ok) throw new Error(`upload of ${name} failed: ${put.status}`);
  return { name, url: signed.FileUrl };
}

const hitsOf = (call: string, Text: string, type: number) => admin.get<FullTextHit[]>(call, { Text, type });

/** Chooses a field of the search box from the keyboard, types the text and presses Enter. */
async function searchFrom(page: Page, field: string, text: string): Promise<void> {
  const select = page.getByRole('combobox', { name: '搜索字段' });
  await select.focus();
  await page.keyboard.press('Enter');
  const listbox = page.getByRole('listbox');
  await listbox.waitFor();
  // Down the options until the one wanted has the focus.
  for (let i = 0; i < 5 && (await page.evaluate(() => document.activeElement?.textContent ?? '')) !== field; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await listbox.waitFor({ state: 'hidden' });
  await expect(select.textContent()).resolves.toBe(field);
  const box = page.getByRole('textbox', { name: '搜索内容' });
  await box.fill(text);
  await box.press('Enter');
}

beforeAll(async () => {
  admin = await s.server.admin();
  const laws = await ok(admin.call<ClassifyRow[]>('/Xcx1/GetStandardClassifyListInAdmin', { All: 1, type: 1, OrderName: 'SC_SORT ASC' }), 'classifications');
  lawClass = laws.find((c) => c.ScName === '法律')!;
  otherLawClass = laws.find((c) => c.ScName === '部门规章')!;
  if (!lawClass || !otherLawClass) throw new Error('the demo data has no 法律 and 部门规章 classifications');

  // Three pages; the word sought is on page 2 only, broken across a line like a real document's.
  const pdf = makePdf(
    [
      '第一章 总则\n为规范城市轨道交通工程造价的计价行为，制定本办法。',
      // Cut after 20 characters: 盾构管 | 片拼装.
      `第二章 施工\n本工程区间隧道均采用目前国内先进的${PAGE_2_WORD}工艺，每环管片按设计图纸进行计量。`,
      '第三章 附则\n本办法自发布之日起施行。',
    ],
    { brokenLines: true },
  );
  pdfName = `${uniqueName('轨道交通计价办法')}.pdf`;
  articleName = uniqueName('轨道交通工程计价办法');
  const file = await upload(pdfName, pdf);
  await ok(
    admin.call('/Xcx1/AddStandardArticleInAdmin', { ScCode: lawClass.ScCode, SaType: 0, SaName: articleName, SaCodeName: '建标〔2026〕7号', SaPdfUrl: JSON.stringify([file]) }),
    'AddStandardArticleInAdmin',
  );

  // A PDF whose body is not one: its extraction fails, and 全文索引 says why.
  brokenFile = `${uniqueName('损坏的文件')}.pdf`;
  brokenName = uniqueName('损坏的文档');
  const broken = await upload(brokenFile, new TextEncoder().encode(`%PDF-1.7\n${'这不是一个 PDF 文件 '.repeat(40)}\n%%EOF\n`));
  await ok(admin.call('/Xcx1/AddStandardArticleInAdmin', { ScCode: lawClass.ScCode, SaType: 0, SaName: brokenName, SaPdfUrl: JSON.stringify([broken]) }), 'AddStandardArticleInAdmin');

  // A unified answer whose 统一回答 holds the other word.
  const tykjClasses = await ok(admin.call<ClassifyRow[]>('/Xcx3/GetStandardClassifyListInAdmin', { All: 1, type: 0, OrderName: 'SC_SORT ASC' }), 'tykj classifications');
  const tab = tykjClasses.find((c) => c.ScFatherCode === '0');
  if (!tab) throw new Error('the demo data has no 统一口径 category');
  tykjTab = tab.ScName;
  answerName = uniqueName('商品混凝土的运输要求');
  await ok(
    admin.call('/Xcx3/AddStandardArticleInAdmin', {
      ScCode: tab.ScCode,
      SaName: answerName,
      SaProblem: '<p>商品混凝土从搅拌站到工地有何要求？</p>',
      SaAnswer: `<p>按合同约定执行；<strong>${ANSWER_WORD}</strong>以规范为准。</p>`,
    }),
    'AddStandardArticleInAdmin (统一口径)',
  );

  // The index is written in the background: wait until it holds the three.
  await until(async () => ((await hitsOf(SEARCH, PAGE_2_WORD, 1)).body.data ?? []).length > 0, 'the PDF in the index', 120_000);
  await until(async () => ((await hitsOf(TYKJ_SEARCH, ANSWER_WORD, 0)).body.data ?? []).length > 0, 'the answer in the index', 120_000);
  await until(
    async () => ((await admin.get<FullTextIndexState>('/Ajax/GetFullTextIndexState', { PageIndex: 1, PageSize: 50 })).body.data?.Failures ?? []).some((f) => f.SaName === brokenName),
    'the broken PDF among the failures',
    120_000,
  );

  // May view 统一口径 only: not the document catalogues.
  member = await createMember(s.server, { tykj: '2' });
  await login(s.page, 'admin', ADMIN_PASSWORD);
}, 300_000);

describe('全文 in the article catalogue', () => {
  it('finds a word of page 2 of a PDF: the hit replaces the table, with its snippet marked, 第 2 页 and its category', async () => {
    const { page } = s;
    await page.goto('/Knowledge/Article/Catalogue?type=1');
    await page.getByRole('row').filter({ hasText: '中华人民共和国建筑法' }).waitFor();
    const [request] = await Promise.all([page.waitForRequest((r) => r.url().includes(SEARCH)), searchFrom(page, '全文', PAGE_2_WORD)]);
    expect(request.postDataJSON()).toMatchObject({ Text: PAGE_2_WORD, type: 1, PageIndex: 1 });
    const results = page.getByRole('list', { name: '全文搜索结果' });
    const hit = results.getByRole('listitem').filter({ hasText: articleName });
    await hit.waitFor();
    // The table is gone while the hits are shown.
    await expect(page.getByRole('row').filter({ hasText: '中华人民共和国建筑法' }).count()).resolves.toBe(0);
    await expect(hit.textContent()).resolves.toContain(`来源：${pdfName} 第 2 页`);
    await expect(hit.textContent()).resolves.toContain('所在分类：法律');
    await expect(hit.textContent()).resolves.toContain('建标〔2026〕7号');
    // The word marked, joined again though the PDF broke it across a line; the rest plain text.
    await expect(hit.locator('mark').allTextContents()).resolves.toContain(PAGE_2_WORD);
    await expect(page.getByRole('navigation', { name: '分页' }).textContent()).resolves.toMatch(/共 \d+ 条/);
    await audit.check(page, CATALOGUE);
  });

  it('opens the hit’s file at its page in a new tab: the file’s URL with #page=2', async () => {
    const { page, context } = s;
    const link = page.getByRole('list', { name: '全文搜索结果' }).getByRole('link', { name: articleName }).first();
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/^\/files\/handout\/.+\.pdf#page=2$/);
    await expect(link.getAttribute('target')).resolves.toBe('_blank');
    const [popup] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await popup.waitForLoadState('domcontentloaded').catch(() => undefined);
    expect(popup.url()).toMatch(/\/files\/handout\/.+\.pdf#page=2$/);
    await expect(popup.evaluate(() => window.opener === null)).resolves.toBe(true);
    await popup.close();
    // The file itself is the stored PDF.
    const file = await page.request.get(href.replace(/#.*$/, ''));
    expect(file.status()).toBe(200);
    expect((await file.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('keeps to the category chosen in the tree, and says when nothing is found', async () => {
    const { page } = s;
    const tree = page.getByRole('tree', { name: '文章分类' });
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().includes(SEARCH)),
      tree.getByRole('treeitem', { name: otherLawClass.ScName }).first().click(),
    ]);
    expect(request.postDataJSON()).toMatchObject({ Text: PAGE_2_WORD, type: 1, ScCode: otherLawClass.ScCode });
    await page.getByText(`未找到包含“${PAGE_2_WORD}”的文档`, { exact: true }).waitFor();

    await tree.getByRole('treeitem', { name: '法律' }).first().click();
    await page.getByRole('list', { name: '全文搜索结果' }).getByRole('listitem').filter({ hasText: articleName }).waitFor();

    await page.getByRole('textbox', { name: '搜索内容' }).fill(MISSING_WORD);
    await page.getByRole('button', { name: '搜索', exact: true }).click();
    await page.getByText(`未找到包含“${MISSING_WORD}”的文档`, { exact: true }).waitFor();

    // 重置 brings the table back.
    await page.getByRole('button', { name: '重置', exact: true }).click();
    await page.getByRole('row').filter({ hasText: articleName }).waitFor();
  });
});

describe('全文 in 统一口径', () => {
  it('finds a word of a 统一回答 through every tab, says the tab, and shows the answer', async () => {
    const { page } = s;
    await page.goto('/Knowledge/TYKJ');
    await page.getByRole('tablist', { name: '统一口径分类' }).waitFor();
    const [request] = await Promise.all([page.waitForRequest((r) => r.url().includes(TYKJ_SEARCH)), searchFrom(page, '全文', ANSWER_WORD)]);
    expect(request.postDataJSON()).toMatchObject({ Text: ANSWER_WORD, type: 0 });
    expect(request.postDataJSON()).not.toHaveProperty('ScCode');
    const hit = page.getByRole('list', { name: '全文搜索结果' }).getByRole('listitem').filter({ hasText: answerName });
    await hit.waitFor();
    await expect(hit.textContent()).resolves.toContain('来源：统一回答');
    await expect(hit.textContent()).resolves.toContain(`所在分类：${tykjTab}`);
    await expect(hit.locator('mark').allTextContents()).resolves.toContain(ANSWER_WORD);
    // The hits belong to no tab, like a search by name.
    await expect(page.getByRole('tab', { selected: true }).count()).resolves.toBe(0);
    await hit.getByRole('button', { name: answerName }).click();
    const article = page.getByRole('article', { name: answerName });
    await article.getByText(ANSWER_WORD).waitFor();
    await audit.check(page, TYKJ);
  });
});

describe('全文索引', () => {
  it('shows the counts and the broken file with its reason; 重新索引失败项 asks first, then queues them again', async () => {
    const { page } = s;
    await page.getByRole('menuitem', { name: '全文索引' }).click();
    await page.waitForURL('**/fullTextIndex');
    const state = await ok(admin.get<FullTextIndexState>('/Ajax/GetFullTextIndexState', { PageIndex: 1, PageSize: 50 }), 'GetFullTextIndexState');
    const failure = state.Failures.find((f) => f.SaName === brokenName)!;
    expect(failure.Reason).not.toBe('');
    for (const label of ['已索引', '等待中', '失败']) await page.getByRole('region', { name: label }).waitFor();
    // The figures show '—' until the state has come back.
    await page.getByRole('region', { name: '失败' }).filter({ hasText: /失败[1-9]\d*/ }).waitFor();
    const row = page.getByRole('table', { name: '索引失败的文档' }).getByRole('row').filter({ hasText: brokenName });
    await row.waitFor();
    const cells = (await row.getByRole('cell').allInnerTexts()).map((t) => t.trim());
    expect(cells[1]).toBe(brokenFile);
    expect(cells[2]).toBe(failure.Reason);
    expect(cells[3]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    await audit.check(page, STATE);

    await page.getByRole('button', { name: '重新索引失败项' }).click();
    const confirm = page.getByRole('dialog', { name: '提示' });
    await confirm.getByText(/将重新读取全部 \d+ 个失败的文档/).waitFor();
    const [retry] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('/Ajax/RetryFullTextIndex')),
      confirm.getByRole('button', { name: '确定', exact: true }).click(),
    ]);
    expect(retry.method()).toBe('POST');
    await confirm.waitFor({ state: 'hidden' });
  });
});

describe('a member without the catalogues’ view code', () => {
  it('is refused their full-text search and finds none of their documents in 统一口径', async () => {
    const { page } = s;
    await logout(page);
    await login(page, member.userName, member.password);
    const refused = await page.request.get(`${SEARCH}?${new URLSearchParams({ Text: PAGE_2_WORD, type: '1' }).toString()}`);
    expect(refused.status()).toBe(403);
    await page.goto('/Knowledge/Article/Catalogue?type=1');
    await page.getByText('无权限', { exact: false }).first().waitFor();
    await expect(page.getByRole('list', { name: '全文搜索结果' }).count()).resolves.toBe(0);

    await page.goto('/Knowledge/TYKJ');
    await page.getByRole('tablist', { name: '统一口径分类' }).waitFor();
    await searchFrom(page, '全文', PAGE_2_WORD);
    await page.getByText(`未找到包含“${PAGE_2_WORD}”的文档`, { exact: true }).waitFor();
  });
});

audit.tests([CATALOGUE, TYKJ, STATE]);
