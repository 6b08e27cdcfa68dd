// Pages rendered by the server (src/ssr, server/src/http/pages.ts): a member's screen arrives with
// its first rows in the HTML, the browser takes it over (hydration) without rendering it again or
// asking for what the page already holds, and the render obeys the member's permissions.
import type { ConsoleMessage, Request } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_STATE_ID } from '../../src/ssr/pageState';
import { formDialog, rowOf, UI_TIMEOUT, useBrowserSuite } from './helpers';

const s = useBrowserSuite();
let adminCookie = '';

beforeAll(async () => {
  const admin = await s.server.admin();
  adminCookie = admin.cookie;
  const [name, ...value] = adminCookie.split('=');
  await s.context.addCookies([{ name: name!, value: value.join('='), url: s.server.url }]);
});

/** The page's HTML as the server sends it, with this cookie (or none). */
async function html(path: string, cookie?: string): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(s.server.url + path, { headers: cookie ? { cookie } : {} });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

// Each main screen and a value of its first rows (demo data).
const SCREENS: [path: string, text: string][] = [
  ['/videoType', '造价业务培训'],
  ['/video', '建设工程工程量清单计价规范要点'],
  ['/Knowledge/VideoView', '建设工程工程量清单计价规范要点'],
  ['/Knowledge/Article/Catalogue?type=0', '16G101-1 混凝土结构施工图平面整体表示方法'],
  ['/Knowledge/Article/Catalogue?type=1', '中华人民共和国建筑法'],
  ['/Knowledge/TYKJ', '暂列金额如何计取？'],
  ['/Knowledge/TYKJ/Manage', '暂列金额如何计取？'],
  ['/useweb', '中国政府网'],
  ['/member', '管理员'],
];

describe('a page the server renders', () => {
  it.each(SCREENS)('%s arrives with its first rows in the HTML, kept from shared caches', async (path, text) => {
    const page = await html(path, adminCookie);
    expect(page.status).toBe(200);
    const [body] = page.text.split(`<script id="${PAGE_STATE_ID}"`);
    expect(body).toContain(text);
    expect(body).not.toContain('拼命加载中');
    expect(page.text).toContain(`<script id="${PAGE_STATE_ID}" type="application/json">`);
    expect(page.headers.get('cache-control')).toBe('private, no-store');
  });

  it('is the plain app shell without a session, and for an ended one', async () => {
    const anonymous = await html('/videoType');
    expect(anonymous.text).toContain('拼命加载中');
    expect(anonymous.text).not.toContain(PAGE_STATE_ID);
    expect(anonymous.text).not.toContain('造价业务培训');
    const ended = await s.server.admin();
    const endedCookie = ended.cookie;
    expect((await html('/videoType', endedCookie)).text).toContain('造价业务培训');
    await ended.call('/Ajax/Logout', {});
    const afterLogout = await html('/videoType', endedCookie);
    expect(afterLogout.text).toContain('拼命加载中');
    expect(afterLogout.text).not.toContain('造价业务培训');
  });

  it("obeys the member's permissions: no module, no rows and no data in the page", async () => {
    const member = await s.server.member({ videoView: '2' });
    const page = await html('/videoType', member.cookie);
    expect(page.text).toContain('无权限');
    expect(page.text).not.toContain('造价业务培训');
    // The screen the member may see is rendered for them.
    expect((await html('/Knowledge/VideoView', member.cookie)).text).toContain('建设工程工程量清单计价规范要点');
  });

  it('carries a hostile value as data: it shows as text and closes nothing', async () => {
    const admin = await s.server.admin();
    // Within the name's 50 characters.
    const hostile = '</script><script>window.__ssrX=1</script>';
    const added = await admin.call<{ Id: number }>('/Ajax/AddVideoType', { VdtName: hostile, VdtSort: 0 });
    expect(added.status).toBe(200);
    const page = await html('/videoType', adminCookie);
    expect(page.text).not.toContain('<script>window.__ssrX');
    await s.page.goto('/videoType');
    await rowOf(s.page, hostile).waitFor();
    expect(await s.page.evaluate(() => (window as unknown as { __ssrX?: number }).__ssrX)).toBeUndefined();
    expect((await admin.call('/Ajax/DelVideoType', { Id: added.body.data.Id })).status).toBe(200);
  });

  it('never serves the server render itself (its path is answered like any deep link)', async () => {
    for (const cookie of [undefined, adminCookie]) {
      const page = await html('/.ssr/render.mjs', cookie);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.text).not.toContain('renderPage');
    }
  });
});

describe('the browser takes a rendered page over', () => {
  const problems: string[] = [];
  const requests: string[] = [];
  const onConsole = (message: ConsoleMessage) => {
    if (message.type() === 'error') problems.push(message.text());
  };
  const onError = (error: Error) => problems.push(error.message);
  const onRequest = (request: Request) => {
    const { pathname } = new URL(request.url());
    if (/^\/(Ajax|Xcx1|Xcx3)\//.test(pathname)) requests.push(pathname);
  };
  afterEach(() => {
    s.page.off('console', onConsole);
    s.page.off('pageerror', onError);
    s.page.off('request', onRequest);
  });

  it.each(SCREENS)('%s hydrates without a mismatch and asks for none of its first answers again', async (path, text) => {
    problems.length = 0;
    requests.length = 0;
    s.page.on('console', onConsole);
    s.page.on('pageerror', onError);
    s.page.on('request', onRequest);
    await s.page.goto(path);
    await s.page.getByText(text, { exact: true }).first().waitFor();
    await s.page.waitForLoadState('networkidle', { timeout: UI_TIMEOUT });
    // React reports a page it could not take over (a mismatch, #418/#419/#425) as an error.
    expect(problems).toEqual([]);
    expect(requests.filter((p) => p === '/Ajax/GetCurrentMember')).toEqual([]);
    const firstList = requests.find((p) => /List/.test(p));
    expect(firstList).toBeUndefined();
  });

  it('is live once taken over: the add dialog opens and saves', async () => {
    await s.page.goto('/videoType');
    await s.page.getByRole('button', { name: '添加', exact: true }).click();
    const dialog = formDialog(s.page, '详情');
    await dialog.waitFor();
    await dialog.getByRole('textbox', { name: '名称' }).fill('服务端渲染后新增');
    await dialog.getByRole('button', { name: '添加', exact: true }).click();
    await rowOf(s.page, '服务端渲染后新增').waitFor();
    // A reload renders the new row on the server.
    expect((await html('/videoType', adminCookie)).text).toContain('服务端渲染后新增');
  });

  it('on a phone too: rendered for a narrow screen (the sidebar is a drawer there), taken over as it is', async () => {
    const phone = await s.browser.newContext({
      baseURL: s.server.url,
      locale: 'zh-CN',
      viewport: { width: 412, height: 823 },
      isMobile: true,
      hasTouch: true,
      userAgent: 'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
    });
    try {
      const [name, ...value] = adminCookie.split('=');
      await phone.addCookies([{ name: name!, value: value.join('='), url: s.server.url }]);
      const page = await phone.newPage();
      const seen: string[] = [];
      page.on('pageerror', (error) => seen.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') seen.push(message.text());
      });
      await page.goto('/videoType');
      await page.getByText('造价业务培训', { exact: true }).waitFor();
      await page.waitForLoadState('networkidle', { timeout: UI_TIMEOUT });
      expect(seen).toEqual([]);
      // The menu is behind its button on a phone.
      await expect(page.getByRole('button', { name: '打开菜单' }).count()).resolves.toBe(1);
    } finally {
      await phone.close();
    }
  });
});
