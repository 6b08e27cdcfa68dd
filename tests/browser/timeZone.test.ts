// One business time zone (TIME_ZONE, Asia/Shanghai here): the server (UTC in the tests) and the
// browser (America/Los_Angeles in every browser test, see helpers.ts) show every date and time in
// it, so that the text the server rendered is the text the browser keeps when it takes the page
// over, with no hydration error; a new record's date is the business day.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, formDialog, login, useBrowserSuite } from './helpers';

const s = useBrowserSuite();
const ZONE = 'Asia/Shanghai';

/** An instant as the screens show it in the business zone ('YYYY-MM-DD HH:mm:ss'). */
function inZone(at: string | Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
      .formatToParts(new Date(at))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** Loads `path`, waits for `shown`, and answers the errors the page reported (React's #418 among them). */
async function errorsLoading(page: Page, path: string, shown: () => Promise<unknown>): Promise<string[]> {
  const errors: string[] = [];
  const onError = (error: Error) => errors.push(error.message);
  const onConsole = (message: { type(): string; text(): string }) => {
    if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
  };
  page.on('pageerror', onError);
  page.on('console', onConsole);
  try {
    await page.goto(path);
    await shown();
    await page.waitForLoadState('networkidle');
    return errors;
  } finally {
    page.off('pageerror', onError);
    page.off('console', onConsole);
  }
}

beforeAll(async () => {
  await login(s.page, 'admin', ADMIN_PASSWORD);
});

describe('the business time zone', () => {
  it('differs from the browser’s and the server’s here', async () => {
    expect(await s.page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('America/Los_Angeles');
    expect(s.server.config.timeZone).toBe(ZONE);
  });

  it('shows the audit log’s times in it, the same in the server’s page and once the browser has it', async () => {
    const admin = await s.server.admin();
    const added = await admin.call('/Ajax/AddVideoType', { VdtName: '时区分类', VdtSort: 9 });
    expect(added.status, added.body.msg).toBe(200);
    const entries = await admin.call<{ At: string; RecordName: string }[]>('/Ajax/GetAuditLogListInAdmin', { pageSize: 1 });
    const at = entries.body.data[0]!.At;
    const shown = inZone(at);

    const html = await (await s.context.request.get('/auditLog')).text();
    expect(html).toContain('id="page-state"');
    expect(html).toContain(shown);

    const errors = await errorsLoading(s.page, '/auditLog', () => s.page.getByRole('cell', { name: shown }).first().waitFor());
    expect(errors).toEqual([]);
  });

  it('shows a video card’s 更新时间 as the business day, in the server’s page and after takeover', async () => {
    const admin = await s.server.admin();
    const videos = await admin.call<{ VdName: string; UpdateTime: string }[]>('/Ajax/GetVideoListInAdmin', { pageIndex: 1, pageSize: 1 });
    const video = videos.body.data[0]!;
    const day = inZone(video.UpdateTime).slice(0, 10);
    const html = await (await s.context.request.get('/Knowledge/VideoView')).text();
    expect(html).toContain(`更新时间：<!-- -->${day}`);
    const errors = await errorsLoading(s.page, '/Knowledge/VideoView', () => s.page.getByText(`更新时间：${day}`).first().waitFor());
    expect(errors).toEqual([]);
  });

  it('fills a new video’s date with the business day', async () => {
    const { page } = s;
    await page.goto('/video');
    await page.getByRole('button', { name: '添加', exact: true }).click();
    const dialog = formDialog(page, '详情');
    await dialog.waitFor();
    const today = inZone(new Date()).slice(0, 10);
    const date = dialog.getByRole('group', { name: '视频时间', exact: true });
    await expect.poll(async () => (await date.textContent())?.replace(/\D/g, '')).toBe(today.replaceAll('-', ''));
    await dialog.getByRole('button', { name: '关闭' }).click();
  });
});
