// The add/edit dialogs on the smallest screen the back office supports (1366×768) and a common
// laptop's (1440×900): the content scrolls under a title and buttons that stay in view and in
// place, and a message (react-admin's notification) never lies over the action buttons. Checked on the
// generated dialogs (视频 详情, 成员详情) and the special ones: 文章目录详情 in 在线编辑 mode, 统一口径详情,
// 发表评论 and 修改密码, each filled until its content overflows where it has a rich text.
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, animationsSettled, formDialog, login, useBrowserSuite } from './helpers';

const s = useBrowserSuite();

/** react-admin's message for a form submitted with a failing rule (src/i18n/raChinese.ts). */
const INVALID_FORM = '表单填写有误，请按提示修改。';
/** A server's refusal as long as real ones get (the notification is as wide as its text). */
const REFUSAL = '保存失败：服务器暂时无法处理该请求，请稍后重试；如多次失败，请联系系统管理员';
/** The rich text, not the date field (its year, month and day are editable sections too). */
const RICH_TEXT = '[contenteditable="true"]:not([role="spinbutton"])';

/** A video whose details page offers 评论. */
let video: { Id: number; VdtCode: string };

const VIEWPORTS = [
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
] as const;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function boxOf(locator: Locator, what: string): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${what} is not shown`);
  // Whole pixels: a sub-pixel difference is no move a person sees.
  return { x: Math.round(box.x), y: Math.round(box.y), width: Math.round(box.width), height: Math.round(box.height) };
}

const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

interface DialogCase {
  name: string;
  open(page: Page): Promise<Locator>;
  /** The dialog's buttons outside its content: 关闭 in the title, and the actions (DialogActions). */
  buttons: readonly string[];
  /** The content's first part. */
  first(dialog: Locator): Locator;
  /**
   * The content's last part, after filling the content until it overflows when `fills` (a rich
   * text); otherwise the content overflows or not by the window's height.
   */
  last(page: Page, dialog: Locator): Promise<Locator>;
  fills: boolean;
  /** Makes the page say something while the dialog is open; returns the message. */
  provoke(page: Page, dialog: Locator): Promise<string>;
  close(page: Page, dialog: Locator): Promise<void>;
}

/** Types `lines` paragraphs into a rich text; returns its last one. */
async function fillRichText(page: Page, editor: Locator, lines: number): Promise<Locator> {
  await editor.click();
  for (let i = 1; i <= lines; i++) {
    await page.keyboard.insertText(`第${i}段正文`);
    await page.keyboard.press('Enter');
  }
  await page.keyboard.insertText('最后一段正文');
  return editor.getByText('最后一段正文', { exact: true });
}

/** The server refuses the next calls of `call` with REFUSAL, until the dialog closes. */
async function refuse(page: Page, call: string): Promise<void> {
  await page.route(`**${call}`, (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 500, msg: REFUSAL }) }),
  );
}

async function cancel(page: Page, dialog: Locator): Promise<void> {
  await page.unrouteAll();
  await dialog.getByRole('button', { name: '取消', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

async function submitInvalid(dialog: Locator, button: string): Promise<string> {
  await dialog.getByRole('button', { name: button, exact: true }).click();
  return INVALID_FORM;
}

const CASES: readonly DialogCase[] = [
  {
    name: '文章目录详情 in 在线编辑 mode',
    async open(page) {
      await page.goto('/Knowledge/Article/Manage');
      await page.getByRole('treeitem', { name: '建筑专业' }).click();
      await page.getByRole('button', { name: '新增文件' }).click();
      const dialog = formDialog(page, '文章目录详情');
      await dialog.getByRole('button', { name: '在线编辑' }).click();
      await dialog.getByRole('button', { name: '在线编辑', pressed: true }).waitFor();
      return dialog;
    },
    buttons: ['关闭', '取消', '添加'],
    last: (page, dialog) => fillRichText(page, dialog.locator(RICH_TEXT), 40),
    fills: true,
    first: (dialog) => dialog.getByRole('button', { name: '文件上传' }),
    async provoke(page, dialog) {
      await dialog.getByRole('textbox', { name: '文章名称' }).fill('放不下的文章');
      await refuse(page, '/Xcx1/AddStandardArticleInAdmin');
      await dialog.getByRole('button', { name: '添加', exact: true }).click();
      return REFUSAL;
    },
    close: cancel,
  },
  {
    name: '统一口径详情',
    async open(page) {
      await page.goto('/Knowledge/TYKJ/Manage');
      await page.getByRole('treeitem', { name: '工程量计算' }).click();
      await page.getByRole('button', { name: '新增', exact: true }).click();
      return formDialog(page, '统一口径详情');
    },
    buttons: ['关闭', '取消', '添加'],
    last: (page, dialog) => fillRichText(page, dialog.locator(RICH_TEXT).last(), 40),
    fills: true,
    first: (dialog) => dialog.getByRole('textbox', { name: '文章名称' }),
    provoke: (_page, dialog) => submitInvalid(dialog, '添加'),
    close: cancel,
  },
  {
    name: '视频 详情 (the generated dialog)',
    async open(page) {
      await page.goto('/video');
      await page.getByRole('tablist', { name: '视频分类' }).getByRole('tab').first().waitFor();
      await page.getByRole('button', { name: '添加', exact: true }).click();
      return formDialog(page, '详情');
    },
    buttons: ['关闭', '取消', '添加'],
    first: (dialog) => dialog.getByRole('textbox', { name: '视频名称' }),
    last: async (_page, dialog) => dialog.getByText('添加文件', { exact: true }).last(),
    fills: false,
    // No name, no video.
    provoke: (_page, dialog) => submitInvalid(dialog, '添加'),
    close: cancel,
  },
  {
    name: '成员详情 (the generated dialog with its screen’s inputs)',
    async open(page) {
      await page.goto('/member');
      await page.getByRole('button', { name: '新增', exact: true }).click();
      return formDialog(page, '成员详情');
    },
    buttons: ['关闭', '取消', '添加'],
    first: (dialog) => dialog.getByRole('textbox', { name: '登录名' }),
    last: async (_page, dialog) => dialog.getByRole('table', { name: '模块权限' }).getByRole('row').last(),
    fills: false,
    provoke: (_page, dialog) => submitInvalid(dialog, '添加'),
    close: cancel,
  },
  {
    name: '发表评论',
    async open(page) {
      await page.goto(`/Knowledge/VideoView/Details?Id=${video.Id}&VdtCode=${encodeURIComponent(video.VdtCode)}`);
      await page.getByRole('button', { name: '评论', exact: true }).click();
      return page.getByRole('dialog', { name: '发表评论' });
    },
    buttons: ['关闭', '取消', '发布'],
    last: (page, dialog) => fillRichText(page, dialog.getByRole('textbox', { name: '评论内容' }), 40),
    fills: true,
    first: (dialog) => dialog.getByRole('button', { name: '加粗' }),
    async provoke(page, dialog) {
      await refuse(page, '/Ajax/AddVideoMessage');
      await dialog.getByRole('button', { name: '发布', exact: true }).click();
      return REFUSAL;
    },
    close: cancel,
  },
  {
    name: '修改密码',
    async open(page) {
      await page.goto('/');
      await page.getByRole('button', { name: '设置' }).click();
      await page.getByRole('menuitem', { name: '修改密码' }).click();
      return page.getByRole('dialog', { name: '修改密码' });
    },
    buttons: ['取消', '确定'],
    first: (dialog) => dialog.getByRole('textbox', { name: '原密码', exact: true }),
    last: async (_page, dialog) => dialog.getByRole('textbox', { name: '确认新密码', exact: true }),
    fills: false,
    provoke: (_page, dialog) => submitInvalid(dialog, '确定'),
    close: cancel,
  },
];

/** The title (what names the dialog) and the buttons outside the content, each with its box. */
async function frameOf(dialog: Locator, buttons: readonly string[]): Promise<Record<string, Box>> {
  const titleId = await dialog.getAttribute('aria-labelledby');
  if (!titleId) throw new Error('the dialog is not named by its title');
  const frame: Record<string, Box> = { title: await boxOf(dialog.locator(`[id="${titleId}"]`), 'the title') };
  for (const name of buttons) frame[name] = await boxOf(dialog.getByRole('button', { name, exact: true }), name);
  return frame;
}

beforeAll(async () => {
  const admin = await s.server.admin();
  const listed = await admin.call<(typeof video)[]>('/Ajax/GetVideoListInAdmin', { pageIndex: 1, pageSize: 1 });
  video = listed.body.data[0]!;
  await login(s.page, 'admin', ADMIN_PASSWORD);
});

for (const viewport of VIEWPORTS) {
  describe(`at ${viewport.width}×${viewport.height}`, () => {
    beforeAll(async () => {
      await s.page.setViewportSize(viewport);
    });

    for (const dialogCase of CASES) {
      it(`${dialogCase.name}: the content scrolls under a title and buttons that stay in view, and a message leaves the buttons free`, async () => {
        const { page } = s;
        const dialog = await dialogCase.open(page);
        await dialog.waitFor();
        const first = dialogCase.first(dialog);
        await first.waitFor();
        const last = await dialogCase.last(page, dialog);

        // From the top of the content.
        await first.scrollIntoViewIfNeeded();
        await animationsSettled(page);
        const frame = await frameOf(dialog, dialogCase.buttons);
        for (const [part, box] of Object.entries(frame)) {
          const inView = box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height;
          expect(inView, `${part} ${JSON.stringify(box)} lies inside the ${viewport.width}×${viewport.height} window`).toBe(true);
        }

        // To the end of the content.
        const actions = dialogCase.buttons.filter((name) => name !== '关闭');
        const actionsTop = Math.min(...actions.map((name) => frame[name]!.y));
        const firstBefore = await boxOf(first, 'the first part');
        const overflows = (await boxOf(last, 'the last part')).y + 1 > actionsTop;
        // A filled rich text is longer than the dialog shows: its end lies below the buttons' top.
        if (dialogCase.fills) expect(overflows, 'the content overflows').toBe(true);
        await last.scrollIntoViewIfNeeded();
        await animationsSettled(page);
        expect(await frameOf(dialog, dialogCase.buttons), 'the title and the buttons stay where they were').toEqual(frame);
        // The content's end shows between the title and the buttons; the content moved to show it.
        const end = await boxOf(last, 'the last part');
        expect(end.y).toBeGreaterThanOrEqual(frame.title!.y + frame.title!.height);
        expect(end.y + end.height).toBeLessThanOrEqual(actionsTop);
        if (overflows) expect((await boxOf(first, 'the first part')).y).toBeLessThan(firstBefore.y);

        const message = await dialogCase.provoke(page, dialog);
        // The dialog hides the page behind it from assistive technology, the notification with it.
        const note = page.getByRole('alert', { includeHidden: true }).filter({ hasText: message });
        await note.waitFor();
        await animationsSettled(page);
        const noteBox = await boxOf(note, 'the notification');
        const now = await frameOf(dialog, dialogCase.buttons);
        for (const name of actions) {
          expect(overlaps(noteBox, now[name]!), `the notification ${JSON.stringify(noteBox)} leaves ${name} ${JSON.stringify(now[name])} free`).toBe(false);
        }
        // Gone before the next dialog, so that its message is a new one.
        await note.waitFor({ state: 'hidden' });
        await dialogCase.close(page, dialog);
      });
    }
  });
}

/** A dialog with an input whose code is a file of its own, fetched when the page is idle or the dialog opens. */
interface HeldCase {
  name: string;
  /** That file: the video input (Uppy's upload, the MP4 check), or TipTap's rich text. */
  code: RegExp;
  open(page: Page): Promise<Locator>;
  /** Drawn once the dialog is open, before the held code arrives. */
  shown(dialog: Locator): Locator;
  /** The real input, not its stand-in. */
  arrived(dialog: Locator): Locator;
}

const HELD_CASES: HeldCase[] = [
  {
    name: '视频 详情, its video input',
    code: /\/assets\/VideoUploadInput-[\w-]+\.js$/,
    async open(page) {
      await page.goto('/video');
      await page.getByRole('tablist', { name: '视频分类' }).getByRole('tab').first().waitFor();
      await page.getByRole('button', { name: '添加', exact: true }).click();
      return formDialog(page, '详情');
    },
    shown: (dialog) => dialog.getByRole('textbox', { name: '视频名称' }),
    arrived: (dialog) => dialog.locator('input[type="file"][accept*="mp4"]'),
  },
  {
    name: '统一口径详情, its two rich texts',
    code: /\/assets\/dist-[\w-]+\.js$/,
    async open(page) {
      await page.goto('/Knowledge/TYKJ/Manage');
      await page.getByRole('treeitem', { name: '工程量计算' }).click();
      await page.getByRole('button', { name: '新增', exact: true }).click();
      return formDialog(page, '统一口径详情');
    },
    shown: (dialog) => dialog.getByRole('textbox', { name: '文章名称' }),
    arrived: (dialog) => dialog.locator('.ProseMirror').last(),
  },
];

describe('a dialog whose inputs load their code on demand', () => {
  for (const heldCase of HELD_CASES) {
    for (const viewport of VIEWPORTS) {
      it(`keeps its title and buttons in place while that code arrives: ${heldCase.name}, at ${viewport.width}×${viewport.height}`, async () => {
        const { page } = s;
        await page.setViewportSize(viewport);
        // Held as on a slow network, from before the page loads (it fetches parts once idle).
        const held: (() => void)[] = [];
        await page.route(heldCase.code, (route) => held.push(() => void route.continue().catch(() => undefined)));
        try {
          const dialog = await heldCase.open(page);
          await heldCase.shown(dialog).waitFor();
          await animationsSettled(page);
          const buttons = ['关闭', '取消', '添加'];
          const before = await frameOf(dialog, buttons);
          expect(held.length, 'the input waits for its code').toBeGreaterThan(0);
          await page.unroute(heldCase.code);
          held.splice(0).forEach((release) => release());
          await heldCase.arrived(dialog).waitFor({ state: 'attached' });
          await animationsSettled(page);
          expect(await frameOf(dialog, buttons), 'the title and buttons once the input arrived').toEqual(before);
          await dialog.getByRole('button', { name: '取消', exact: true }).click();
          await dialog.waitFor({ state: 'hidden' });
        } finally {
          await page.unroute(heldCase.code);
          held.splice(0).forEach((release) => release());
        }
      });
    }
  }
});
