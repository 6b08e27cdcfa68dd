// Pages rendered by the server: a member's page arrives with its first rows in the HTML, and the
// browser takes it over (hydrates it) without a mismatch and without asking again for what the page
// carries; a browser whose store differs from what the server assumed renders the page itself.
import http from 'node:http';
import zlib from 'node:zlib';
import { request as playwrightRequest, type Page, type Route } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, BROWSER_TIME_ZONE, login, rowOf, uniqueName, useBrowserSuite } from './helpers';

const s = useBrowserSuite();

beforeAll(async () => {
  await login(s.page, 'admin', ADMIN_PASSWORD);
});

/** Loads `path` and answers the page's errors (uncaught, or React's reports) and the calls it made. */
async function load(page: Page, path: string, shown: (page: Page) => Promise<unknown>): Promise<{ errors: string[]; calls: string[] }> {
  const errors: string[] = [];
  const calls: string[] = [];
  const onError = (error: Error) => errors.push(error.message);
  const onConsole = (message: { type(): string; text(): string }) => {
    if (message.type() === 'error') errors.push(message.text());
  };
  const onRequest = (request: { url(): string }) => {
    const { pathname } = new URL(request.url());
    if (/^\/(Ajax|Xcx1|Xcx3)\//.test(pathname)) calls.push(pathname);
  };
  page.on('pageerror', onError);
  page.on('console', onConsole);
  page.on('request', onRequest);
  try {
    await page.goto(path);
    await shown(page);
    // Taken over: the app answers clicks once the page's requests have settled.
    await page.waitForLoadState('networkidle');
    return { errors, calls };
  } finally {
    page.off('pageerror', onError);
    page.off('console', onConsole);
    page.off('request', onRequest);
  }
}

/** The element by which a page sent without a session says so. */
const NO_SESSION_META = '<meta name="session" content="none">';

const appBarTitle = (page: Page, title: string) => page.locator('#react-admin-title').getByText(title, { exact: true }).waitFor();

describe('pages rendered by the server', () => {
  it("send a member's page with its first rows in the HTML, and a visitor without a session the page as built", async () => {
    const withSession = await s.context.request.get('/videoType');
    const html = await withSession.text();
    expect(html).toContain('造价业务培训');
    expect(html).toContain('id="page-state"');
    expect(withSession.headers()['cache-control']).toBe('private, no-store');
    // Compressed for a browser that accepts it: a rendered page carries its styles and answers.
    const compressed = await s.context.request.get('/videoType', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(compressed.headers()['content-encoding']).toBe('br');
    expect(await compressed.text()).toContain('造价业务培训');

    const anonymous = await playwrightRequest.newContext({ baseURL: s.server.url });
    const anonymousPage = await anonymous.get('/videoType');
    const plain = await anonymousPage.text();
    const plainHeaders = anonymousPage.headers();
    await anonymous.dispose();
    expect(plain).not.toContain('造价业务培训');
    expect(plain).not.toContain('page-state');
    // It says that there is no session (the app shows the login page without asking), and is
    // not kept: the same address with a session is another page.
    expect(plain).toContain(NO_SESSION_META);
    expect(plainHeaders['cache-control']).toBe('no-store');
    expect(plainHeaders['vary']).toMatch(/\bcookie\b/);
    expect(html).not.toContain(NO_SESSION_META);
  });

  it("send a member's page with its title and menu in the HTML, painted before any script runs", async () => {
    const html = await (await s.context.request.get('/Knowledge/Article/Catalogue?type=1')).text();
    const root = html.slice(html.indexOf('<div id="root">'));
    expect(root).toMatch(/id="react-admin-title"[^>]*>法律法规</);
    for (const entry of ['视频分类', '标准图集', '常用网站管理', '成员管理']) expect(root).toContain(`>${entry}<`);
  });

  it('compress a page with brotli at a quality that costs milliseconds, not seconds (4, not the library’s 11)', async () => {
    // The raw bytes: Playwright's and fetch's clients decode them.
    const cookie = (await s.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const raw = await new Promise<Buffer>((resolve, reject) => {
      http
        .get(`${s.server.url}/videoType`, { headers: { cookie, 'accept-encoding': 'br' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks)));
        })
        .on('error', reject);
    });
    const html = zlib.brotliDecompressSync(raw);
    expect(html.toString()).toContain('page-state');
    const size = (quality: number) => zlib.brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality } }).length;
    const [q4, q11] = [size(4), size(11)];
    expect(q4).toBeGreaterThan(q11);
    expect(Math.abs(raw.length - q4)).toBeLessThan(Math.abs(raw.length - q11));
  });

  it('never serve the server render itself', async () => {
    const manifest = await (await s.context.request.get('/.ssr/.vite/manifest.json')).text();
    expect(manifest).not.toContain('isEntry');
  });

  const screens: { path: string; title: string; shown: (page: Page) => Promise<unknown> }[] = [
    { path: '/videoType', title: '视频分类', shown: (page) => rowOf(page, '造价业务培训').waitFor() },
    { path: '/Knowledge/VideoView', title: '在线视频', shown: (page) => page.locator('.MuiCard-root').first().waitFor() },
    { path: '/Knowledge/TYKJ', title: '统一口径', shown: (page) => page.getByRole('search').waitFor() },
    { path: '/Knowledge/Article/Catalogue', title: '标准图集', shown: (page) => page.getByRole('tree').getByRole('treeitem').first().waitFor() },
    { path: '/Knowledge/Article/Catalogue?type=1', title: '法律法规', shown: (page) => page.getByRole('tree').getByRole('treeitem').first().waitFor() },
    { path: '/member', title: '成员管理', shown: (page) => rowOf(page, 'admin').waitFor() },
    { path: '/useweb', title: '常用网站管理', shown: (page) => page.locator('tbody tr').first().waitFor() },
    { path: '/', title: '首页', shown: (page) => page.getByRole('main').waitFor() },
  ];
  for (const screen of screens) {
    it(`are taken over by the browser without an error: ${screen.title}`, async () => {
      const { errors } = await load(s.page, screen.path, screen.shown);
      await appBarTitle(s.page, screen.title);
      expect(errors).toEqual([]);
      // Ids the server rendered and those the browser renders later still meet (useId's ids
      // depend on the tree's shape on both sides): every label points at an element.
      const dangling = await s.page.evaluate(() =>
        [...document.querySelectorAll('[aria-labelledby], [aria-describedby], label[for]')].flatMap((element) =>
          ['aria-labelledby', 'aria-describedby', 'for']
            .flatMap((name) => (element.getAttribute(name) ?? '').split(/\s+/).filter(Boolean))
            .filter((id) => !document.getElementById(id))
            .map((id) => `${element.tagName} → ${id}`),
        ),
      );
      expect(dangling).toEqual([]);
    });
  }

  it('are taken over without asking again for the session or the rows they carry, and then work', async () => {
    const { errors, calls } = await load(s.page, '/videoType', (page) => rowOf(page, '造价业务培训').waitFor());
    expect(errors).toEqual([]);
    expect(calls).toEqual([]);
    await appBarTitle(s.page, '视频分类');
    await s.page.getByRole('button', { name: '添加' }).click();
    await s.page.getByRole('dialog').waitFor();
    await s.page.keyboard.press('Escape');
  });

  it('are taken over without asking again however long ago the page was rendered (a page the server kept)', async () => {
    // A page kept from an earlier render is sent while nothing has changed: its answers are current
    // when it arrives, however old its render. Seen from a browser whose clock runs a minute ahead,
    // any page looks rendered a minute ago.
    const context = await s.browser.newContext({ baseURL: s.server.url, locale: 'zh-CN', timezoneId: BROWSER_TIME_ZONE, viewport: { width: 1366, height: 900 }, storageState: await s.context.storageState() });
    try {
      const page = await context.newPage();
      await page.clock.install({ time: Date.now() + 60_000 });
      const { errors, calls } = await load(page, '/videoType?clock-ahead=1', (p) => rowOf(p, '造价业务培训').waitFor());
      expect(errors).toEqual([]);
      expect(calls).toEqual([]);
    } finally {
      await context.close();
    }
  });

  /** A second page of categories for the duration of `run`, then the list back on its first page. */
  async function withSecondPage(run: () => Promise<void>): Promise<void> {
    const admin = await s.server.admin();
    const prefix = uniqueName('翻页');
    const added: number[] = [];
    for (let i = 0; i < 16; i++) {
      const res = await admin.call<{ Id: number }>('/Ajax/AddVideoType', { VdtName: `${prefix}${i}`, VdtSort: 0 });
      expect(res.status, res.body.msg).toBe(200);
      added.push(res.body.data.Id);
    }
    const errors: string[] = [];
    const onError = (error: Error) => errors.push(error.message);
    s.page.on('pageerror', onError);
    try {
      await run();
      expect(errors).toEqual([]);
    } finally {
      s.page.off('pageerror', onError);
      // The list as the other tests expect it: its first page, without these categories.
      await s.page.getByRole('button', { name: '第 1 页' }).click();
      for (const Id of added) await admin.call('/Ajax/DelVideoType', { Id });
    }
  }

  /** Requests matching `pattern` answered `ms` late while `run` runs. */
  async function late(pattern: string, ms: number, run: () => Promise<void>): Promise<void> {
    const delay = async (route: Route) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      // The page may be gone meanwhile (the test moved on): nothing left to continue.
      await route.continue().catch(() => undefined);
    };
    await s.page.route(pattern, delay);
    try {
      await run();
    } finally {
      await s.page.unroute(pattern, delay);
    }
  }

  it('answer a click on 下一页 made as soon as the page shows it, before the browser has taken it over', async () => {
    await withSecondPage(() =>
      // The app's scripts arrive a second late, as on a slow office PC: the click comes first.
      late('**/assets/*.js', 1000, async () => {
        // Clicked the moment the server's pager is there: the user does not wait for the scripts.
        await s.page.goto('/videoType', { waitUntil: 'commit' });
        await s.page.getByRole('button', { name: '下一页' }).click();
        await s.page.getByRole('button', { name: '第 2 页，当前页' }).waitFor();
        // And it stays there once the browser has taken the page over.
        await s.page.waitForLoadState('networkidle');
        await s.page.getByRole('button', { name: '第 2 页，当前页' }).waitFor();
      }),
    );
  });

  it('answer clicks after the takeover when the script that holds early clicks arrives after the app', async () => {
    await withSecondPage(() =>
      late('**/early-clicks.js', 1500, async () => {
        await s.page.goto('/videoType');
        await s.page.waitForFunction(() => (window as { __earlyClicks?: { loaded?: boolean } }).__earlyClicks?.loaded === true, undefined, { timeout: 10_000 });
        // The app has taken the page over before that script ran: it holds nothing from now on.
        await s.page.getByRole('button', { name: '下一页' }).click();
        await s.page.getByRole('button', { name: '第 2 页，当前页' }).waitFor({ timeout: 5000 });
      }),
    );
  });

  it('are rendered by the browser itself where its store differs from what the server assumed (a narrowed sidebar)', async () => {
    await s.page.evaluate(() => localStorage.setItem('RaStore.sidebar.open', 'false'));
    try {
      const { errors } = await load(s.page, '/videoType', (page) => rowOf(page, '造价业务培训').waitFor());
      expect(errors).toEqual([]);
      await appBarTitle(s.page, '视频分类');
      // The sidebar as this browser keeps it: narrowed, its entries' names not shown.
      await expect.poll(() => s.page.getByRole('menuitem', { name: '视频分类' }).getByText('视频分类', { exact: true }).isVisible()).toBe(false);
    } finally {
      await s.page.evaluate(() => localStorage.removeItem('RaStore.sidebar.open'));
    }
  });
});
