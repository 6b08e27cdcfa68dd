// The XSS corpus (tests/helpers/xssCorpus.ts) on every screen that shows stored rich text or links
// (Hardening 3): hostile comments on the video details page, hostile articles in the 预览 dialog of
// the catalogue and in the 统一口径 viewer, websites, handouts, files and videos with hostile URLs.
// Everything is stored through the API as any client could send it (the server sanitises), or,
// where the API refuses it (links), written into the database as legacy or imported data would be.
// Nothing may run: every payload calls window.__xss(id) when it runs, which a binding records;
// `dialog` events, CSP violation reports and `javascript:` URLs in the DOM are failures too. The
// comments are shown once more raw (the server's answer replaced) with the CSP bypassed, so the
// app's own sanitiser is checked alone.
import { sql } from 'kysely';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { XSS_PAYLOADS } from '../helpers/xssCorpus';
import type { Client } from '../helpers/server';
import { BROWSER_TIME_ZONE, ADMIN_PASSWORD, login, rowOf, useBrowserSuite, UI_TIMEOUT } from './helpers';

const s = useBrowserSuite();

/** What a page reported: payload runs, alert/confirm/prompt dialogs, CSP violations. */
interface Reports {
  hits: string[];
  dialogs: string[];
  violations: string[];
}

/** Watches a context: the __xss binding, dialogs, and CSP violations (event and console). */
async function watch(context: BrowserContext, page: Page): Promise<Reports> {
  const reports: Reports = { hits: [], dialogs: [], violations: [] };
  await context.exposeFunction('__xss', (id: unknown) => {
    reports.hits.push(String(id));
  });
  await context.exposeFunction('__cspViolation', (what: unknown) => {
    reports.violations.push(String(what));
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __cspViolation(s: string): void }).__cspViolation(`${e.effectiveDirective} ${e.blockedURI} ${e.sample}`);
    });
  });
  page.on('dialog', (dialog) => {
    reports.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('console', (msg) => {
    if (/Content[- ]Security[- ]Policy/i.test(msg.text())) reports.violations.push(msg.text());
  });
  return reports;
}

/**
 * Dangerous things in the page as it is now: a URL attribute with a script-capable scheme
 * anywhere in the body, and anything active inside displayed rich text.
 */
async function domProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    // Browsers skip leading spaces and control characters before a scheme.
    // eslint-disable-next-line no-control-regex -- control characters are what is looked for
    const SCHEME = /^[\s\u0000-\u001f]*(javascript|vbscript|data\s*:\s*text)/i;
    for (const el of document.body.querySelectorAll('*')) {
      for (const attr of el.attributes) {
        if (['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'poster', 'srcdoc'].includes(attr.name) && SCHEME.test(attr.value)) {
          problems.push(`${el.tagName} ${attr.name}=${attr.value}`);
        }
      }
    }
    for (const box of document.querySelectorAll('.rich-text')) {
      for (const el of box.querySelectorAll('script,style,iframe,object,embed,form,input,button,textarea,meta,link,base,svg,math,template,noscript,video,audio')) {
        problems.push(`<${el.tagName.toLowerCase()}> in rich text`);
      }
      for (const el of box.querySelectorAll('*')) {
        for (const attr of el.attributes) {
          if (/^on/i.test(attr.name) || ['id', 'name', 'class'].includes(attr.name)) problems.push(`${attr.name} on <${el.tagName.toLowerCase()}> in rich text`);
        }
      }
    }
    return problems;
  });
}

/** Lets any image error or load event that a payload would use fire before checking. */
const settle = (page: Page) => page.waitForTimeout(300);

const marker = (id: string) => `载荷正文 ${id}`;
const withMarker = (id: string, html: string) => `<p>${marker(id)}</p>${html}`;

let reports: Reports;
let admin: Client;
let videoId = 0;
let vdtCode = '';
const GROUP = 15;
const groups = Array.from({ length: Math.ceil(XSS_PAYLOADS.length / GROUP) }, (_, g) => XSS_PAYLOADS.slice(g * GROUP, (g + 1) * GROUP));
const catalogueCodes: string[] = [];
const tykjTabs: string[] = [];
const hostileSites: string[] = [];

/** Each test starts with empty reports, so a finding is reported where it happens. */
function resetReports(r: Reports) {
  r.hits.length = 0;
  r.dialogs.length = 0;
  r.violations.length = 0;
}

function expectClean(r: Reports, where: string) {
  expect(r.hits, `payloads ran on ${where}`).toEqual([]);
  expect(r.dialogs, `dialogs opened on ${where}`).toEqual([]);
  expect(r.violations, `CSP violations on ${where}`).toEqual([]);
}

beforeAll(async () => {
  reports = await watch(s.context, s.page);
  admin = await s.server.admin();
  const demoVideos = await admin.call<{ VdUrl: string }[]>('/Ajax/GetVideoListInAdmin', { pageIndex: 1, pageSize: 1 });
  vdtCode = (await admin.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName: '敌意视频', VdtSort: 99 })).body.data.VdtCode;
  const video = await admin.call<{ Id: number; VdCode: string }>('/Ajax/AddVideo', {
    VdtCode: vdtCode,
    VdName: '敌意评论的视频',
    VdUrl: demoVideos.body.data[0]!.VdUrl,
  });
  videoId = video.body.data.Id;
  for (const p of XSS_PAYLOADS) {
    const res = await admin.call('/Ajax/AddVideoMessage', { VdCode: video.body.data.VdCode, VmDes: withMarker(p.id, p.html) });
    if (res.status !== 200) throw new Error(`comment ${p.id}: ${res.body.msg}`);
  }

  // Articles: one per payload, in groups of 15, each group a classification (a catalogue page, a 统一口径 tab).
  for (const [g, group] of groups.entries()) {
    const laws = await admin.call<{ ScCode: string }>('/Xcx1/CreateStandardClassifyInAdmin', { ScName: `敌意分类${g + 1}`, type: 1 });
    catalogueCodes.push(laws.body.data.ScCode);
    const tabName = `敌意口径${g + 1}`;
    const tab = await admin.call<{ ScCode: string }>('/Xcx3/CreateStandardClassifyInAdmin', { ScName: tabName, type: 0, ScSort: 900 + g });
    tykjTabs.push(tabName);
    for (const p of group) {
      const a = await admin.call('/Xcx1/AddStandardArticleInAdmin', {
        ScCode: laws.body.data.ScCode,
        SaType: 1,
        SaName: `敌意文章 ${p.id}`,
        SaPdfContent: withMarker(p.id, p.html),
      });
      if (a.status !== 200) throw new Error(`article ${p.id}: ${a.body.msg}`);
      const t = await admin.call('/Xcx3/AddStandardArticleInAdmin', {
        ScCode: tab.body.data.ScCode,
        SaType: 1,
        SaName: `敌意口径 ${p.id}`,
        SaProblem: withMarker(p.id, p.html),
        SaAnswer: `<p>回答 ${p.id}</p>${p.html}`,
      });
      if (t.status !== 200) throw new Error(`tykj ${p.id}: ${t.body.msg}`);
    }
  }

  // Links the API refuses, written as legacy or imported rows would hold them.
  const db = s.server.app.database.db;
  const urls = [
    "javascript:window.__xss('useweb-js')",
    "JaVaScRiPt:window.__xss('useweb-js-case')",
    " javascript:window.__xss('useweb-js-space')",
    "data:text/html,<script>window.__xss('useweb-data')</script>",
    '//evil.example/',
  ];
  for (const [i, url] of urls.entries()) {
    const name = `敌意网站${i + 1}`;
    hostileSites.push(name);
    await db.insertInto('USEWEB').values({ UW_NAME: name, UW_URL: url, UW_TYPE: 0, UW_SORT: 900 + i }).execute();
  }
  const hostileList = JSON.stringify([
    { name: '敌意讲义1', url: "javascript:window.__xss('handout')" },
    { name: '敌意讲义2', url: '/files/../Ajax/Logout' },
  ]);
  await admin.call('/Ajax/AddVideo', { VdtCode: vdtCode, VdName: '敌意讲义的视频', VdUrl: demoVideos.body.data[0]!.VdUrl });
  await sql`update VIDEO set VD_ENCLOSURE = ${hostileList} where VD_NAME = ${'敌意讲义的视频'}`.execute(db);
  await sql`update VIDEO set VD_URL = ${"javascript:window.__xss('vdurl')"} where ID = ${videoId}`.execute(db);
  await login(s.page, 'admin', ADMIN_PASSWORD);
}, 600_000);

beforeEach(() => resetReports(reports));

/**
 * 视频详情 shows comments 15 at a time: 加载更多 until every one is there. The click is dispatched:
 * raw payloads that move (marquee, animations) never let the button be "stable" for a real click.
 */
async function showEveryComment(page: Page): Promise<void> {
  const more = page.getByRole('button', { name: '加载更多' });
  await page.waitForLoadState('networkidle');
  // Each round brings 15 more; a few spare rounds for one spent while a page was still loading.
  for (let round = 0; round < Math.ceil(XSS_PAYLOADS.length / 15) + 5 && (await more.isVisible()); round++) {
    if (await more.isEnabled({ timeout: 1000 }).catch(() => false)) await more.dispatchEvent('click', undefined, { timeout: 1000 }).catch(() => undefined);
    await page.waitForLoadState('networkidle');
  }
}

describe('hostile comments on the video details page', () => {
  it(`shows all ${XSS_PAYLOADS.length} comments as text, running nothing`, async () => {
    const { page } = s;
    await page.goto(`/Knowledge/VideoView/Details?Id=${videoId}&VdtCode=${vdtCode}`);
    await showEveryComment(page);
    for (const p of XSS_PAYLOADS) await page.getByText(marker(p.id), { exact: true }).waitFor();
    await settle(page);
    // Hover and click the comments, for handlers that need a person.
    await page.getByText(marker(XSS_PAYLOADS[0]!.id), { exact: true }).hover();
    await page.mouse.move(300, 400);
    await page.mouse.move(600, 500);
    await settle(page);
    expect(await domProblems(page)).toEqual([]);
    expectClean(reports, 'the video details');
  });
});

describe('hostile articles in the catalogue’s 预览 dialog', () => {
  it(`previews all ${XSS_PAYLOADS.length} articles, running nothing`, async () => {
    const { page } = s;
    // A page of 50 (the remembered page size) holds a whole group of 15.
    await s.context.addCookies([{ name: 'zhishi-admin-article-page-size', value: '50', url: s.server.url }]);
    for (const [g, group] of groups.entries()) {
      await page.goto(`/Knowledge/Article/Catalogue?type=1&ScCode=${catalogueCodes[g]}`);
      for (const p of group) {
        await rowOf(page, `敌意文章 ${p.id}`).getByRole('button', { name: '查看' }).click();
        const dialog = page.getByRole('dialog', { name: '预览' });
        await dialog.getByText(marker(p.id), { exact: true }).waitFor();
        await settle(page);
        expect(await domProblems(page), p.id).toEqual([]);
        await dialog.getByRole('button', { name: '关闭' }).click();
        await dialog.waitFor({ state: 'hidden' });
      }
    }
    expectClean(reports, 'the 预览 dialog');
  }, 900_000);
});

describe('hostile unified answers in the 统一口径 viewer', () => {
  it(`shows all ${XSS_PAYLOADS.length} 问题 and 统一回答, running nothing`, async () => {
    const { page } = s;
    await page.goto('/Knowledge/TYKJ');
    for (const [g, group] of groups.entries()) {
      await page.getByRole('tab', { name: tykjTabs[g]!, exact: true }).click();
      for (const p of group) {
        await page.getByRole('button', { name: `敌意口径 ${p.id}`, exact: true }).click();
        await page.getByText(marker(p.id), { exact: true }).waitFor();
        await page.getByText(`回答 ${p.id}`, { exact: true }).waitFor();
        await settle(page);
        expect(await domProblems(page), p.id).toEqual([]);
      }
    }
    expectClean(reports, 'the 统一口径 viewer');
  }, 900_000);
});

describe('hostile links', () => {
  it('shows websites with hostile URLs as text, never as links', async () => {
    const { page } = s;
    await page.goto('/useweb');
    for (const name of hostileSites) {
      const row = rowOf(page, name);
      await row.waitFor();
      await expect(row.getByRole('link').count(), name).resolves.toBe(0);
    }
    expect(await domProblems(page)).toEqual([]);
    expectClean(reports, '常用网站管理');
  });

  it('lists no hostile handout and plays no hostile video URL', async () => {
    const { page } = s;
    await page.goto('/Knowledge/VideoView');
    await page.getByRole('tab', { name: '敌意视频' }).click();
    const card = page.getByRole('listitem').filter({ hasText: '敌意讲义的视频' });
    await card.waitFor();
    // A malformed handout list reads as empty: no 讲义 to open.
    await expect(card.getByRole('button', { name: '讲义', exact: true }).count()).resolves.toBe(0);
    await settle(page);
    expect(await domProblems(page)).toEqual([]);

    await page.goto('/video');
    await page.getByRole('tab', { name: '敌意视频' }).click();
    await rowOf(page, '敌意讲义的视频').waitFor();
    await settle(page);
    expect(await domProblems(page)).toEqual([]);
    expectClean(reports, 'the video screens');
  });
});

describe('raw hostile HTML with the CSP bypassed: the app’s sanitiser alone', () => {
  let context: BrowserContext;
  let page: Page;
  let raw: Reports;

  beforeAll(async () => {
    context = await s.browser.newContext({ baseURL: s.server.url, locale: 'zh-CN', timezoneId: BROWSER_TIME_ZONE, viewport: { width: 1366, height: 900 }, bypassCSP: true });
    context.setDefaultTimeout(UI_TIMEOUT);
    page = await context.newPage();
    raw = await watch(context, page);
    // The server's sanitised comments are replaced by the raw payloads, as a compromised or older
    // server could answer.
    await page.route('**/Ajax/GetVideoMessageListInAdmin**', async (route) => {
      const response = await route.fetch();
      const json = (await response.json()) as { data: { VmDes: string }[] };
      for (const row of json.data) {
        const id = /载荷正文 ([\w-]+)/.exec(row.VmDes)?.[1];
        const p = XSS_PAYLOADS.find((x) => x.id === id);
        if (p) row.VmDes = withMarker(p.id, p.html);
      }
      await route.fulfill({ response, json });
    });
    await login(page, 'admin', ADMIN_PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await context?.close();
  });

  it('shows every raw payload in the comments without running any', async () => {
    // The binding works in this context: a script of the test itself can call it.
    await page.goto(`/Knowledge/VideoView/Details?Id=${videoId}&VdtCode=${vdtCode}`);
    await showEveryComment(page);
    for (const p of XSS_PAYLOADS) await page.getByText(marker(p.id), { exact: true }).waitFor();
    await settle(page);
    await page.mouse.move(300, 400);
    await page.mouse.move(600, 500);
    await settle(page);
    expect(await domProblems(page)).toEqual([]);
    expectClean(raw, 'raw comments');
    await page.evaluate(() => (window as unknown as { __xss(id: string): void }).__xss('probe'));
    await expect.poll(() => raw.hits).toEqual(['probe']);
  });
});

describe('the checks can fail', () => {
  it('notice a handler that runs, and the CSP blocking an injected one', async () => {
    const { page } = s;
    const before = reports.violations.length;
    // Injected past the app (as a sanitiser bug would let through): the CSP refuses the handler.
    await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', `<img id="probe" src="x" onerror="window.__xss('csp-probe')">`));
    await expect.poll(() => reports.violations.length).toBeGreaterThan(before);
    expect(reports.violations.at(-1)).toMatch(/script-src-attr|script-src/);
    expect(reports.hits).toEqual([]);
    await page.evaluate(() => document.getElementById('probe')?.remove());
    reports.violations.length = before;
  });
});
