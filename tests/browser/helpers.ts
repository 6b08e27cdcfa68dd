// Browser tests: a real server (fresh database with the demo data) serving the built admin app
// from dist/, driven by Debian's Chromium through playwright-core, one browser context per file.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import ExcelJS from 'exceljs';
import { chromium, type Browser, type BrowserContext, type Locator, type Page, type Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/server';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';

export { ADMIN_PASSWORD };

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The built app (`npm run build`); APP_DIST may name another build of it (e.g. one made apart). */
export const DIST = process.env.APP_DIST ? path.resolve(process.env.APP_DIST) : path.join(REPO, 'dist');

/**
 * How long a step waits for something to show (a request, a route change, a dialog). Generous on purpose: a
 * shared CI host can stall the browser for many seconds. Speed is measured by `npm run bench`, not here.
 */
export const UI_TIMEOUT = 30_000;

export { CHROMIUM_ARGS };

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
  });
}

/**
 * A server over a fresh SQLite database with the demo data, serving the built app at `/`, its pages
 * rendered; `env` adds start-up variables (a small LIST_MAX_BYTES).
 */
export async function startAppServer(env: Record<string, string> = {}): Promise<TestServer> {
  if (!fs.existsSync(path.join(DIST, 'index.html'))) {
    throw new Error(`The admin app is not built (${DIST}/index.html is missing): run \`npm run build\` first.`);
  }
  // Pages wait for their render here, the first one for the app's code in the render worker: what
  // is tested is the rendered page, on a host of any speed (the budget: tests/api/pageRender.test.ts).
  return startServer({ DEMO_DATA: '1', PUBLIC_DIR: DIST, RENDER_BUDGET_MS: '60000', ...env });
}

/** The browsers' time zone in the tests. */
export const BROWSER_TIME_ZONE = 'America/Los_Angeles';

export interface Suite {
  server: TestServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

/**
 * Starts the server, Chromium and one context (and page) for the test file; closes them after.
 * The returned object is filled in by `beforeAll`: read its fields inside tests only.
 */
export function useBrowserSuite(env: Record<string, string> = {}): Suite {
  const suite = {} as Suite;
  beforeAll(async () => {
    suite.server = await startAppServer(env);
    suite.browser = await launchChromium();
    suite.context = await suite.browser.newContext({
      baseURL: suite.server.url,
      locale: 'zh-CN',
      // Neither the server's (UTC here) nor the business one (Asia/Shanghai): every screen must
      // show the business zone's dates and times whatever the browser's zone.
      timezoneId: BROWSER_TIME_ZONE,
      viewport: { width: 1366, height: 900 },
    });
    suite.context.setDefaultTimeout(UI_TIMEOUT);
    suite.context.setDefaultNavigationTimeout(60_000);
    suite.page = await suite.context.newPage();
    // Errors of the page itself (uncaught exceptions) are printed: they explain failing steps.
    suite.page.on('pageerror', (error) => console.error(`[page error] ${error.message}\n${error.stack ?? ''}`));
  }, 120_000);
  afterAll(async () => {
    await suite.context?.close();
    await suite.browser?.close();
    await suite.server?.close();
  }, 60_000);
  return suite;
}

/** Logs in through the login page the way a person does: type the name and password, press 登录. */
export async function login(page: Page, user: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByRole('textbox', { name: '用户名', exact: true }).fill(user);
  await page.getByRole('textbox', { name: '密码', exact: true }).fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  // In: the app bar's user menu shows (react-admin goes home, or back to the page first asked for).
  await page.getByRole('button', { name: '设置' }).waitFor();
  await page.waitForURL((url) => url.pathname !== '/login');
}

/** Opens the user menu (app bar) and chooses 登出; the login form comes back. */
export async function logout(page: Page): Promise<void> {
  await page.getByRole('button', { name: '设置' }).click();
  await page.getByRole('menuitem', { name: '登出' }).click();
  await page.getByRole('button', { name: '登录' }).waitFor();
}

export interface MemberLogin {
  userName: string;
  password: string;
  auName: string;
}

let members = 0;

/**
 * Creates a non-administrator through /Ajax/AddMember as the administrator, with the given module
 * permission strings (e.g. `{ videoType: '2' }`), and returns what is needed to log in as them.
 */
export async function createMember(server: TestServer, modules: Record<string, string>): Promise<MemberLogin> {
  const admin = await server.admin();
  const n = ++members;
  const member: MemberLogin = {
    userName: `bt${n}_${randomBytes(3).toString('hex')}`,
    password: 'password-123',
    auName: `浏览器成员${n}`,
  };
  const res = await admin.call('/Ajax/AddMember', {
    UserName: member.userName,
    AuName: member.auName,
    OrganizationName: '测试部',
    Password: member.password,
    IsAdmin: 0,
    Modules: modules,
  });
  if (res.status !== 200) throw new Error(`AddMember failed: ${res.status} ${res.body.msg}`);
  return member;
}

/** A name unique to this run, so that a row created by a test is found among the demo rows. */
export function uniqueName(prefix: string): string {
  return `${prefix}${randomBytes(2).toString('hex')}`;
}

/**
 * Waits for the running CSS transitions and animations (a dialog fading in, a row moving) to end,
 * so that what is checked is what a person sees, not a half-transparent frame. Endless ones
 * (spinners) are not waited for.
 */
export async function animationsSettled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document
      .getAnimations()
      .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity && a.playState !== 'finished');
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
}

const BLOCKING = new Set(['serious', 'critical']);

/** axe-core on the page as it is now: a readable list of its serious and critical violations ('' when none). */
export async function seriousA11yViolations(page: Page): Promise<string> {
  await animationsSettled(page);
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact && BLOCKING.has(v.impact))
    .map((v) => {
      const nodes = v.nodes
        .slice(0, 8)
        .map((n) => `    - ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`)
        .join('\n');
      return `  [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${nodes}`;
    })
    .join('\n');
}

/**
 * Accessibility audit of a test file's screens. `check` runs axe where the person's walk reaches a
 * screen (or dialog) and keeps the findings; `tests` declares one test per screen at the end of the
 * file, which fails listing every serious or critical violation. The walk itself does not stop on
 * an accessibility finding, so both kinds of failure are reported independently.
 */
export function a11yAudit() {
  const findings = new Map<string, string>();
  return {
    async check(page: Page, screen: string): Promise<void> {
      const report = await seriousA11yViolations(page);
      if (report) console.error(`axe on ${screen}:\n${report}`);
      findings.set(screen, report);
    },
    tests(screens: readonly string[]): void {
      describe('accessibility: no serious or critical axe-core violation', () => {
        for (const screen of screens) {
          it(screen, () => {
            const report = findings.get(screen);
            expect(report, `${screen} was not audited: an earlier step of this file failed`).toBeDefined();
            expect(report, `axe-core found serious or critical violations on ${screen}:\n${report}`).toBe('');
          });
        }
      });
    },
  };
}

/** A table row holding a cell with exactly this text. */
export function rowOf(page: Page, cellText: string) {
  return page.getByRole('row').filter({ has: page.getByRole('cell', { name: cellText, exact: true }) });
}

/**
 * Waits for a notification (react-admin's snackbar) with this text, then for it to go away, so
 * that the next identical message is a new one.
 */
export async function seeNotification(page: Page, text: string): Promise<void> {
  const note = page.getByText(text, { exact: true });
  await note.waitFor();
  await note.waitFor({ state: 'hidden' });
}

/** The add/edit dialog of a screen, by its title (详情, 分类详情, 成员详情). */
export function formDialog(page: Page, title: string) {
  return page.getByRole('dialog', { name: title });
}

/**
 * Clicks the backdrop beside a dialog, the way a person clicks outside it: a point left of the
 * dialog that belongs to the dialog's modal layer (backdrop) and not to the dialog itself.
 */
export async function clickOutside(page: Page, dialog: Locator): Promise<void> {
  const box = await dialog.boundingBox();
  if (!box) throw new Error('the dialog is not shown');
  const x = Math.max(4, box.x / 2);
  const y = box.y + box.height / 2;
  const onBackdrop = await page.evaluate(
    ([px, py]) => {
      const hit = document.elementFromPoint(px!, py!);
      return !!hit && !!hit.closest('.MuiModal-root') && !hit.closest('[role="dialog"]');
    },
    [x, y],
  );
  expect(onBackdrop, 'the point clicked beside the dialog is on its backdrop').toBe(true);
  await page.mouse.click(x, y);
}

/** The dialog is `width` px wide, and neither Escape nor a click on its backdrop closes it. */
export async function expectUnclosableDialog(page: Page, dialog: Locator, width: number): Promise<void> {
  await dialog.waitFor();
  await expect(dialog.boundingBox().then((b) => b?.width)).resolves.toBe(width);
  await page.keyboard.press('Escape');
  await clickOutside(page, dialog);
  await expect(dialog.isVisible()).resolves.toBe(true);
}

/** 删除 on a row, then the confirmation 提示 / 此操作将永久删除该记录, 是否继续? answered with `answer`. */
export async function deleteRow(page: Page, cellText: string, answer: '确定' | '取消' = '确定'): Promise<void> {
  await rowOf(page, cellText).getByRole('button', { name: '删除', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: '提示' });
  await confirm.getByText('此操作将永久删除该记录, 是否继续?', { exact: true }).waitFor();
  // 取消 carries no icon, like every other 取消 (react-admin's Confirm puts an alert sign on it).
  expect(await confirm.getByRole('button', { name: '取消', exact: true }).locator('svg').count()).toBe(0);
  await confirm.getByRole('button', { name: answer, exact: true }).click();
  await confirm.waitFor({ state: 'hidden' });
}

/**
 * Types a day ('YYYY-MM-DD') into a date field (MUI X's picker, src/components/ZhDateInput.tsx) the
 * way a person does from the keyboard: into the field, select all, clear, then the digits, which
 * fill year, month and day in turn.
 */
export async function fillDate(scope: Page | Locator, label: string, day: string): Promise<void> {
  const field = scope.getByRole('group', { name: label, exact: true });
  await field.click();
  const { keyboard } = field.page();
  await keyboard.press('ControlOrMeta+a');
  await keyboard.press('Backspace');
  await keyboard.type(day.replaceAll('-', ''));
}

/**
 * Holds every part the page sends to storage until released, so that an upload stays in progress
 * for the step that needs it: held, not delayed by a fixed time, which a slow host could outrun.
 */
export async function holdParts(page: Page): Promise<() => Promise<void>> {
  const pattern = '**/upload-part/**';
  const held: Route[] = [];
  await page.route(pattern, (route) => {
    held.push(route);
  });
  return async () => {
    await page.unroute(pattern);
    await Promise.all(held.splice(0).map((route) => route.continue().catch(() => undefined)));
  };
}

/** Multipart uploads in progress on the server's local storage (one folder each). */
export function uploadsInProgress(server: TestServer): string[] {
  const dir = path.join(server.config.dataDir, 'uploads', '.tmp', 'mp');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

/** The rows of a downloaded .xlsx's first sheet (row 1 the headers), as exceljs reads its cells. */
export async function sheetRows(file: string): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const rows: unknown[][] = [];
  workbook.worksheets[0]!.eachRow({ includeEmpty: true }, (row) => {
    rows.push(Array.from((row.values as unknown[]).slice(1), (value) => value ?? null));
  });
  return rows;
}
