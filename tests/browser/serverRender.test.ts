// Pages rendered by the server (src/ssr, server/src/http/pages.ts): a member's screen arrives with
// its first rows in the HTML, the browser takes it over (hydration) without rendering it again or
// asking for what the page already holds, and the render obeys the member's permissions.
import http from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import type { ConsoleMessage, Request } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SIDEBAR_COOKIE } from '../../src/appStore';
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

  it('streams: the head (the app\'s scripts) arrives, brotli-compressed, before the rendered rows', async () => {
    // The compressed parts as they arrive; without a flush per written part, brotli would hold
    // the head back until the end of the page.
    const parts = await new Promise<Buffer[]>((resolve, reject) => {
      const request = http.get(s.server.url + '/videoType', { headers: { cookie: adminCookie, 'accept-encoding': 'br' } }, (res) => {
        expect(res.headers['content-encoding']).toBe('br');
        const received: Buffer[] = [];
        res.on('data', (chunk: Buffer) => received.push(chunk)).on('end', () => resolve(received)).on('error', reject);
      });
      request.on('error', reject);
    });
    // The first part decodes on its own (a flushed block) to the page up to its root element.
    const first = zlib.brotliDecompressSync(parts[0]!, { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }).toString('utf8');
    expect(first).toContain('<script type="module"');
    expect(first).not.toContain('<div id="root">');
    expect(parts.length).toBeGreaterThan(1);
    expect(zlib.brotliDecompressSync(Buffer.concat(parts)).toString('utf8')).toContain('造价业务培训');
  });

  it("lets the page paint first: a small entry that loads the app after, the app's files preloaded only for the shell", async () => {
    const headOf = (text: string) => text.slice(0, text.indexOf('<body'));
    const rendered = headOf((await html('/videoType', adminCookie)).text);
    const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(rendered)?.[1];
    expect(entry).toBeDefined();
    // The entry loads the app itself once the page has painted (src/main.tsx): a few KB.
    expect((await (await fetch(s.server.url + entry!)).text()).length).toBeLessThan(10_000);
    const appPreload = /<link rel="modulepreload" crossorigin href="\/assets\/start-[^"]+\.js">/;
    expect(rendered).not.toMatch(appPreload);
    expect(rendered).not.toContain('<link rel="modulepreload"');
    // The shell (no session): the browser renders the app at once, its files preloaded.
    expect(headOf((await html('/videoType')).text)).toMatch(appPreload);
  });

  // Screens whose every first list the address decides (src/screenQueries.ts): the render fetches
  // them with the session and renders once. The video screens and 统一口径 list what a first
  // answer picks (a category), so they render twice; 统一口径 then its first article's answer.
  it.each(SCREENS.map(([path]) => path))('%s renders as often as its data needs: once when the address decides its lists', async (path) => {
    const renderer = (await import(pathToFileURL(resolve('dist/.ssr/render.mjs')).href)) as {
      renderPage: (url: string, httpClient: unknown, cookies: string) => Promise<{ renders: number } | undefined>;
    };
    const httpClient = async (url: string, options: { method?: string; body?: string } = {}) => {
      const res = await fetch(s.server.url + url, { method: options.method ?? 'GET', body: options.body, headers: { cookie: adminCookie, 'content-type': 'application/json' } });
      const body = await res.text();
      return { status: res.status, headers: res.headers, body, json: body ? (JSON.parse(body) as unknown) : undefined };
    };
    const page = await renderer.renderPage(path, httpClient, adminCookie);
    // 统一口径 shows its first article's answer too: the list, then that article.
    const renders = path === '/Knowledge/TYKJ' ? 3 : ['/video', '/Knowledge/VideoView'].includes(path) ? 2 : 1;
    expect(page?.renders).toBe(renders);
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
    // The screen's code and its parts' arrive through their imports: no preload link is inserted
    // while the page is taken over (each costs the main thread; vite.config.ts).
    expect(await s.page.locator('link[rel="modulepreload"]').count()).toBe(0);
  });

  it("shows the page's title in the app bar with the HTML, and once after it is taken over", async () => {
    const page = await html('/member', adminCookie);
    expect(page.text).toMatch(/id="react-admin-title"><span>成员管理<\/span><\/h6>/);
    problems.length = 0;
    s.page.on('console', onConsole);
    s.page.on('pageerror', onError);
    await s.page.goto('/member');
    await s.page.getByText('管理员', { exact: true }).first().waitFor();
    await s.page.waitForLoadState('networkidle', { timeout: UI_TIMEOUT });
    expect(problems).toEqual([]);
    // react-admin's own Title has taken the app bar over: the title shows once.
    await expect.poll(() => s.page.locator('#react-admin-title').innerText(), { timeout: UI_TIMEOUT }).toBe('成员管理');
    // A screen opened in the browser afterwards shows its own title.
    await s.page.getByRole('menuitem', { name: '视频分类' }).click();
    await expect.poll(() => s.page.locator('#react-admin-title').innerText(), { timeout: UI_TIMEOUT }).toBe('视频分类');
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

  it('keeps a click made before the takeover: 添加 clicked at once opens its dialog when the page is live', async () => {
    const page = await s.context.newPage();
    const pageProblems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') pageProblems.push(message.text());
    });
    try {
      // The app's code arrives late, as on a slow network: the rendered page shows long before.
      await page.route('**/assets/**', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue().catch(() => undefined);
      });
      await page.goto('/videoType', { waitUntil: 'commit' });
      await page.getByRole('button', { name: '添加', exact: true }).click();
      // Clicked before the takeover: the page's script still holds clicks.
      expect(await page.evaluate(() => typeof (window as { __takeEarlyClicks?: unknown }).__takeEarlyClicks)).toBe('function');
      await formDialog(page, '详情').waitFor({ timeout: UI_TIMEOUT });
      // Held no longer: a click now goes straight to the page.
      expect(await page.evaluate(() => typeof (window as { __takeEarlyClicks?: unknown }).__takeEarlyClicks)).toBe('undefined');
      await formDialog(page, '详情').getByRole('button', { name: '关闭' }).click();
      await formDialog(page, '详情').waitFor({ state: 'hidden' });
      // The inline script ran under the page's Content-Security-Policy (its hash): no violation.
      expect(pageProblems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('keeps the styles it came with where they are, and adds only those it lacks', async () => {
    // emotion takes over the style elements it recognises by moving them, and the browser parses
    // a moved style sheet again and restyles the page (src/ssr/styleCache.ts).
    const page = await s.context.newPage();
    try {
      await page.addInitScript({
        content: `(() => {
          const moved = [];
          window.__movedStyles = moved;
          new MutationObserver((records) => {
            for (const record of records) for (const node of record.removedNodes) {
              if (node.nodeName === 'STYLE') moved.push(node.outerHTML.length);
            }
          }).observe(document, { childList: true, subtree: true });
        })();`,
      });
      await page.goto('/videoType');
      await page.getByText('造价业务培训', { exact: true }).first().waitFor();
      await page.waitForLoadState('networkidle', { timeout: UI_TIMEOUT });
      const styles = await page.evaluate(() => {
        const rendered = document.querySelector<HTMLStyleElement>('style[data-rendered-styles]');
        const others = [...document.querySelectorAll('style')].filter((style) => style !== rendered);
        return {
          renderedRules: rendered?.sheet?.cssRules.length ?? 0,
          beforeRoot: rendered?.nextElementSibling?.nodeName === 'STYLE' || rendered?.nextElementSibling?.id === 'root',
          addedRules: others.reduce((sum, style) => sum + (style.sheet?.cssRules.length ?? 0), 0),
          moved: (window as unknown as { __movedStyles: number[] }).__movedStyles,
        };
      });
      expect(styles.renderedRules).toBeGreaterThan(200);
      expect(styles.beforeRoot).toBe(true);
      // The large element was never moved: what moved, if anything, is a few small global styles.
      expect(styles.moved.every((length) => length < 2000), JSON.stringify(styles.moved)).toBe(true);
      // The browser's render found the page's styles there: it inserted few of its own.
      expect(styles.addedRules).toBeLessThan(styles.renderedRules / 5);
      // And they apply: the app bar's title is styled by its class.
      const title = page.locator('#react-admin-title');
      expect(await title.evaluate((element) => getComputedStyle(element).overflow)).toBe('hidden');
    } finally {
      await page.close();
    }
  });

  it.each(SCREENS.filter(([path]) => path === '/videoType' || path.includes('Catalogue?type=0')))(
    '%s is taken over in parts, and each part renders once',
    async (path, text) => {
      // React reports each commit to the DevTools hook, production builds too. A component that
      // renders again from its parent gets a new props object; one skipped keeps the old one.
      const page = await s.context.newPage();
      try {
        // As text: the test runner's transform would add helpers to a function that the page lacks.
        await page.addInitScript({
          content: `(() => {
            const seen = new WeakSet();
            const commits = [];
            window.__commits = commits;
            const noop = () => undefined;
            window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
              supportsFiber: true, renderers: new Map(), inject: () => 1, checkDCE: noop,
              onScheduleFiberRoot: noop, onPostCommitFiberRoot: noop, onCommitFiberUnmount: noop,
              onCommitFiberRoot: (_id, root) => {
                let components = 0;
                let rendered = 0;
                const stack = [root.current];
                while (stack.length > 0) {
                  const fiber = stack.pop();
                  const props = typeof fiber.memoizedProps === 'object' ? fiber.memoizedProps : null;
                  if (typeof fiber.type === 'function' || (typeof fiber.type === 'object' && fiber.type !== null)) {
                    components++;
                    if (props && !seen.has(props)) rendered++;
                  }
                  if (props) seen.add(props);
                  if (fiber.sibling) stack.push(fiber.sibling);
                  if (fiber.child) stack.push(fiber.child);
                }
                commits.push([components, rendered]);
              },
            };
          })();`,
        });
        await page.goto(path);
        await page.getByText(text, { exact: true }).first().waitFor();
        await page.waitForLoadState('networkidle', { timeout: UI_TIMEOUT });
        await page.waitForTimeout(500);
        const commits = await page.evaluate(() => (window as unknown as { __commits: number[][] }).__commits);
        // The frame and the screen are Suspense boundaries (AppLayout, lazyScreen): React takes
        // the page over in a commit each, none of them holding the main thread for the whole page.
        const components = Math.max(...commits.map(([count]) => count!));
        expect(commits.length).toBeGreaterThan(1);
        expect(commits[0]![0], `components per commit: ${JSON.stringify(commits)}`).toBeLessThan(components * 0.8);
        // Each component renders about once in all: when it is taken over. What renders again is
        // small: a tooltip, the loading indicator; not the page (react-admin's Admin rendered all
        // of it twice more after mount once).
        const rendered = commits.reduce((sum, [, count]) => sum + count!, 0);
        expect(rendered).toBeGreaterThan(Math.max(500, components * 0.8));
        expect(rendered, `components rendered per commit: ${JSON.stringify(commits)}`).toBeLessThan(components * 1.2);
      } finally {
        await page.close();
      }
    },
  );

  it('renders the sidebar as the member left it: closed, the page comes closed after a reload', async () => {
    const sidebarCookie = async () => (await s.context.cookies()).find((cookie) => cookie.name === SIDEBAR_COOKIE)?.value;
    const page = await s.context.newPage();
    try {
      await page.goto('/videoType');
      await page.getByText('造价业务培训', { exact: true }).first().waitFor();
      await page.waitForLoadState('networkidle', { timeout: UI_TIMEOUT });
      await page.getByRole('button', { name: '关闭菜单' }).click();
      await page.getByRole('button', { name: '打开菜单' }).waitFor();
      expect(await sidebarCookie()).toBe('0');
      // The server reads the cookie: the page arrives with the sidebar closed, and stays so once
      // the browser has taken it over (its first render reads the same cookie).
      expect((await html('/videoType', `${adminCookie}; ${SIDEBAR_COOKIE}=0`)).text).toContain('RaSidebar-closed');
      await page.reload();
      await page.getByText('造价业务培训', { exact: true }).first().waitFor();
      await page.waitForLoadState('networkidle', { timeout: UI_TIMEOUT });
      await expect(page.locator('.RaSidebar-closed').count()).resolves.toBe(1);
      // Opened again, the cookie and the page follow at once.
      await page.getByRole('button', { name: '打开菜单' }).click();
      await page.getByRole('button', { name: '关闭菜单' }).waitFor();
      expect(await sidebarCookie()).toBe('1');
      await expect(page.locator('.RaSidebar-open').count()).resolves.toBe(1);
    } finally {
      await page.close();
    }
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
