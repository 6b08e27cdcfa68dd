// No mismatch, no jump: every screen of the menu, home and 视频详情, loaded as a member's page (rendered
// by the server, then taken over by the browser), with enough data that every part shows (43 video
// categories, so that the tab strip scrolls; a video with a player and comments; 统一口径 tabs and
// answers; the article trees). For each page:
// - the takeover reports no error and no warning (React's hydration mismatches among them);
// - the main parts (app bar, menu, tabs, lists and trees and their first rows, headings, buttons,
//   the player's box) are where the server's page put them, once the browser is idle: their boxes in
//   the page as the server sent it (its scripts held back) against the same page taken over. A part
//   may come later only into room the page kept for it (a category tree into its pane), which the
//   layout shifts below tell;
// - Chromium's layout-shift entries (the Layout Instability API, as Lighthouse's CLS reads them)
//   over the whole load add up to 0.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { MENU_ENTRIES, SCREENS, screenLink } from '../../schemas/index';
import type { Client } from '../helpers/server';
import { ADMIN_PASSWORD, animationsSettled, login, uniqueName, useBrowserSuite } from './helpers';

const s = useBrowserSuite();

/** The main parts compared, by CSS selector; a selector's first matches are each one part. */
const PARTS: Record<string, string> = {
  'app bar title': '#react-admin-title',
  'app bar button': 'header button',
  'current menu entry': '[role="menu"] [aria-current="page"]',
  tabs: '#main-content [role="tablist"]',
  'selected tab': '#main-content [role="tab"][aria-selected="true"]',
  search: '#main-content [role="search"]',
  'table head': '#main-content thead',
  'table row': '#main-content tbody tr',
  'list item': '#main-content ul[aria-label] > li',
  tree: '#main-content [role="tree"]',
  'tree item': '#main-content [role="treeitem"]',
  pager: '#main-content nav[aria-label="分页"]',
  navigation: '#main-content nav',
  heading: '#main-content h1, #main-content h2, #main-content h3',
  // The player's own controls come with video.js, inside the box kept for it.
  button: '#main-content button:not([data-testid="player-box"] button)',
  'player box': '#main-content [data-testid="player-box"]',
};
/** Matches of one selector compared (the first rows of a list, the first buttons…). */
const MATCHES = 6;

type Box = { x: number; y: number; width: number; height: number };

/** The boxes of the main parts as the page shows them now, each named by its selector, place and label. */
function readBoxes(page: Page): Promise<Record<string, Box>> {
  return page.evaluate(
    ({ parts, matches }) => {
      const boxes: Record<string, Box> = {};
      for (const [name, selector] of Object.entries(parts)) {
        const seen = new Map<string, number>();
        for (const element of [...document.querySelectorAll(selector)].slice(0, matches)) {
          const r = element.getBoundingClientRect();
          if (r.width === 0 && r.height === 0) continue;
          // A part is named by its accessible label where it has one (a button, a heading), so that one
          // appearing beside it does not rename it.
          const label = (element.getAttribute('aria-label') ?? (element.matches('button, h1, h2, h3') ? (element.textContent ?? '') : '')).trim().slice(0, 40);
          const n = (seen.get(label) ?? 0) + 1;
          seen.set(label, n);
          boxes[`${name}${label ? ` "${label}"` : ''} #${n}`] = { x: r.x, y: r.y, width: r.width, height: r.height };
        }
      }
      return boxes;
    },
    { parts: PARTS, matches: MATCHES },
  );
}

/** Sums Chromium's layout shifts not caused by input, from the document's start, with what moved. */
const RECORD_SHIFTS = () => {
  const record = { total: 0, moved: [] as string[] };
  (window as unknown as { __layoutShifts: typeof record }).__layoutShifts = record;
  const describe = (node: Node | null) => {
    if (!(node instanceof Element)) return node ? `${node.nodeName} "${(node.textContent ?? '').trim().slice(0, 30)}"` : '(gone)';
    const id = node.id ? `#${node.id}` : '';
    const cls = typeof node.className === 'string' && node.className ? `.${node.className.split(/\s+/).slice(0, 2).join('.')}` : '';
    const label = node.getAttribute('aria-label') ?? (node.textContent ?? '').trim().slice(0, 30);
    return `${node.tagName.toLowerCase()}${id}${cls} "${label}"`;
  };
  const rect = (r: DOMRectReadOnly) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(r.height)}`;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
      sources?: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
    })[]) {
      if (entry.hadRecentInput) continue;
      record.total += entry.value;
      for (const source of entry.sources ?? []) {
        record.moved.push(`${describe(source.node)}: ${rect(source.previousRect)} → ${rect(source.currentRect)} at ${Math.round(entry.startTime)} ms`);
      }
    }
  }).observe({ type: 'layout-shift', buffered: true });
};

/** The page as the server sent it: its scripts held back, so nothing but its HTML and styles shows. */
async function serverBoxes(path: string): Promise<Record<string, Box>> {
  const page = await s.context.newPage();
  try {
    await page.route('**/*', (route) => (route.request().resourceType() === 'script' ? route.abort() : route.fallback()));
    await page.goto(path, { waitUntil: 'load' });
    return await readBoxes(page);
  } finally {
    await page.close();
  }
}

interface TakenOver {
  boxes: Record<string, Box>;
  problems: string[];
  shift: { total: number; moved: string[] };
}

/** The same page taken over by the browser, once it is idle: its boxes, its errors and warnings, its layout shifts. */
async function takenOver(path: string, lateCode?: RegExp): Promise<TakenOver> {
  const page = await s.context.newPage();
  const problems: string[] = [];
  // Code that arrives late, as on a busy machine: held back two seconds.
  let held = 0;
  if (lateCode) {
    await page.route(lateCode, async (route) => {
      held++;
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await route.continue();
    });
  }
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  try {
    await page.addInitScript(RECORD_SHIFTS);
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    await animationsSettled(page);
    // Two frames after an idle moment: whatever the last answers changed is laid out and painted.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) =>
          requestIdleCallback(() => requestAnimationFrame(() => requestAnimationFrame(() => resolve())), { timeout: 2000 }),
        ),
    );
    const boxes = await readBoxes(page);
    const shift = await page.evaluate(() => (window as unknown as { __layoutShifts: { total: number; moved: string[] } }).__layoutShifts);
    if (lateCode && held === 0) problems.push(`no script matched ${String(lateCode)}: nothing was held back`);
    return { boxes, problems, shift };
  } finally {
    await page.close();
  }
}

const round = (b: Box) => `${b.x.toFixed(1)},${b.y.toFixed(1)} ${b.width.toFixed(1)}×${b.height.toFixed(1)}`;
const same = (a: Box, b: Box) => Math.abs(a.x - b.x) < 1 && Math.abs(a.y - b.y) < 1 && Math.abs(a.width - b.width) < 1 && Math.abs(a.height - b.height) < 1;

/** The parts of the server's page that moved, grew, shrank or went once the page is the browser's. */
function differences(before: Record<string, Box>, after: Record<string, Box>): string[] {
  const out: string[] = [];
  for (const [part, box] of Object.entries(before)) {
    const now = after[part];
    if (!now) out.push(`${part}: rendered by the server at ${round(box)}, gone once taken over`);
    else if (!same(box, now)) out.push(`${part}: ${round(box)} → ${round(now)}`);
  }
  return out;
}

let admin: Client;
let detailsPage: string;

async function call<T>(pathName: string, body: unknown): Promise<T> {
  const res = await admin.call<T>(pathName, body);
  if (res.status !== 200) throw new Error(`${pathName} failed: ${res.status} ${res.body.msg}`);
  return res.body.data;
}

beforeAll(async () => {
  admin = await s.server.admin();
  // 40 more video categories than the demo's 3: the tab strips of the video screens scroll.
  for (let i = 1; i <= 40; i++) await call('/Ajax/AddVideoType', { VdtName: `${i}号专题${uniqueName('')}`, VdtSort: 100 + i });
  // And 16 more 统一口径 categories: its tab strip scrolls too.
  for (let i = 1; i <= 16; i++) {
    await call('/Xcx3/CreateStandardClassifyInAdmin', { ScName: `${i}号统一口径专题`, ScFatherCode: '0', ScSort: 100 + i, type: 0 });
  }
  // The demo's first video plays the demo MP4 and has comments: its details page shows every part.
  const types = await call<{ VdtCode: string }[]>('/Ajax/GetVideoTypeListInAdmin', { All: 1, OrderName: 'VDT_SORT ASC' });
  const videos = await call<{ Id: number; VdtCode: string }[]>('/Ajax/GetVideoListInAdmin', {
    pageIndex: 1,
    pageSize: 1,
    VdtCode: types[0]!.VdtCode,
    OrderName: 'IS_TOP DESC, VD_TIME DESC',
  });
  const video = videos[0]!;
  const details = SCREENS.find((screen) => screen.component === 'videoView/VideoDetails')!;
  detailsPage = `${screenLink(details)}?${new URLSearchParams({ Id: String(video.Id), VdtCode: video.VdtCode }).toString()}`;
  await login(s.page, 'admin', ADMIN_PASSWORD);
});

const pages: { name: string; path: () => string }[] = [
  { name: '首页', path: () => '/' },
  ...MENU_ENTRIES.map((entry) => ({ name: entry.label, path: () => entry.to })),
  { name: '视频详情', path: () => detailsPage },
];

describe('a member’s page is taken over by the browser without an error and without moving', () => {
  for (const { name, path } of pages) {
    it(name, async () => {
      const before = await serverBoxes(path());
      const after = await takenOver(path());
      expect(after.problems, `${name}: errors and warnings of the takeover`).toEqual([]);
      expect(differences(before, after.boxes), `${name}: parts that moved once the browser took the page over`).toEqual([]);
      expect(after.shift.moved, `${name}: layout shifts (${after.shift.total.toFixed(4)} in all)`).toEqual([]);
      expect(after.shift.total).toBe(0);
    });
  }

  // A part of the page whose code the browser gets only after the takeover began (操作日志's date
  // filters, whose picker loads on its own): the server's part stays, and is the browser's once
  // its code is there (failed under load: the pickers' buttons were gone).
  it('操作日志, with the code of its date pickers arriving late', async () => {
    const path = MENU_ENTRIES.find((entry) => entry.label === '操作日志')!.to;
    const before = await serverBoxes(path);
    expect(Object.keys(before).filter((part) => part.includes('选择日期'))).toHaveLength(2);
    const after = await takenOver(path, /\/assets\/DatePicker-[^/]*\.js$/);
    expect(after.problems).toEqual([]);
    expect(differences(before, after.boxes)).toEqual([]);
    expect(after.shift.moved).toEqual([]);
  });
});
