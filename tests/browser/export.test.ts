// 导出 in Chromium: an administrator on 视频学习编辑 and a member with partial codes on 常用网站管理
// download the list as .xlsx (read back with exceljs, cell by cell against the table), the export
// shows its progress and 取消 stops it.
import type { Download, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { dayIn, DEFAULT_TIME_ZONE } from '../../schemas/businessTime';
import { ADMIN_PASSWORD, createMember, login, logout, rowOf, seeNotification, sheetRows, useBrowserSuite, type MemberLogin } from './helpers';

const s = useBrowserSuite();

let member: MemberLogin;

beforeAll(async () => {
  // May view (and add to) the websites and view the videos; may neither edit nor delete.
  member = await createMember(s.server, { useweb: '1,2', video: '2' });
});

async function exportFrom(page: Page): Promise<{ download: Download; rows: unknown[][] }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '导出', exact: true }).click()]);
  const rows = await sheetRows((await download.path())!);
  return { download, rows };
}

/** The table's cells, row by row, as the screen shows them. */
async function tableCells(page: Page): Promise<string[][]> {
  const rows = page.getByRole('row');
  const out: string[][] = [];
  // A row's cells past 批量删除's checkbox.
  for (let i = 1; i < (await rows.count()); i++) {
    out.push(
      await rows
        .nth(i)
        .getByRole('cell')
        .evaluateAll((cells) => cells.filter((cell) => !cell.querySelector('input[type="checkbox"]')).map((cell) => (cell as HTMLElement).innerText.trim())),
    );
  }
  return out;
}

const today = () => dayIn(DEFAULT_TIME_ZONE);

describe('导出', () => {
  it('an administrator exports the videos of the chosen category, as the table shows them', async () => {
    const { page } = s;
    await login(page, 'admin', ADMIN_PASSWORD);
    await page.goto('/video');
    await page.getByRole('tab', { name: '软件操作教程' }).click();
    await rowOf(page, '计价软件入门').waitFor();
    const shown = await tableCells(page);
    const { download, rows } = await exportFrom(page);
    expect(download.suggestedFilename()).toBe(`视频学习编辑-${today()}.xlsx`);
    expect(rows[0]).toEqual(['视频分类', '视频名称', '视频主讲人', '视频时间', '是否置顶', '点击量', '视频', '讲义']);
    expect(rows.slice(1)).toHaveLength(shown.length);
    for (const [i, cells] of shown.entries()) {
      const row = rows[i + 1]!;
      expect(row[0]).toBe('软件操作教程');
      // The table's columns: 视频名称, 视频主讲人, 视频时间, 是否置顶, 点击量.
      expect(row[1]).toBe(cells[0]);
      expect(row[2]).toBe(cells[1]);
      expect(row[3]).toEqual(new Date(`${cells[2]}T00:00:00Z`));
      expect(row[4]).toBe(cells[3]);
      expect(row[5]).toBe(Number(cells[4]));
    }
    const pinned = rows.find((r) => r[1] === '计价软件入门')!;
    expect(pinned[4]).toBe('置顶');
    expect(pinned[7]).toBe('软件操作手册.pdf');
    await seeNotification(page, `导出完成，共${shown.length}行`);
  });

  it('follows the search: only the rows found', async () => {
    const { page } = s;
    await page.getByRole('textbox', { name: '搜索内容' }).fill('入门');
    await page.getByRole('button', { name: '搜索', exact: true }).click();
    await rowOf(page, '算量软件建模技巧').waitFor({ state: 'detached' });
    const { rows } = await exportFrom(page);
    expect(rows.slice(1).map((r) => r[1])).toEqual(['计价软件入门']);
  });

  it('shows its progress and 取消 stops it, without a file', async () => {
    const { page } = s;
    // The answer is held back until the test lets it go: the export is under way meanwhile.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/Export', async (route) => {
      await held;
      await route.continue().catch(() => {});
    });
    let downloads = 0;
    page.on('download', () => downloads++);
    await page.getByRole('button', { name: '导出', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: '正在导出' });
    await dialog.waitFor();
    await dialog.getByRole('progressbar', { name: '导出进度' }).waitFor();
    await dialog.getByRole('status').filter({ hasText: '已接收 0 B' }).waitFor();
    await dialog.getByRole('button', { name: '取消', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await seeNotification(page, '已取消导出');
    release();
    await page.unroute('**/Export');
    expect(downloads).toBe(0);
    await expect(page.getByRole('button', { name: '导出', exact: true }).isEnabled()).resolves.toBe(true);
  });

  it('a member with partial codes exports 常用网站管理, and the audit log shows it', async () => {
    const { page } = s;
    await logout(page);
    await login(page, member.userName, member.password);
    await page.goto('/useweb');
    await rowOf(page, '中国政府网').waitFor();
    // Neither 编辑 nor 删除: the codes the member lacks.
    await expect(page.getByRole('button', { name: '编辑', exact: true }).count()).resolves.toBe(0);
    const shown = await tableCells(page);
    const { download, rows } = await exportFrom(page);
    expect(download.suggestedFilename()).toBe(`常用网站管理-${today()}.xlsx`);
    // The table's columns, then the dialog's 排序 (the order the list is in).
    expect(rows[0]).toEqual(['网站名称', '网站链接', '排序']);
    expect(rows.slice(1).map((r) => [r[0], r[1]])).toEqual(shown.map((cells) => [cells[0], cells[1]]));
    const sorts = rows.slice(1).map((r) => r[2] as number);
    expect(sorts).toEqual([...sorts].sort((a, b) => a - b));

    await logout(page);
    await login(page, 'admin', ADMIN_PASSWORD);
    await page.goto('/auditLog');
    const entry = page.getByRole('row').filter({ hasText: member.auName }).filter({ hasText: '导出' });
    await entry.getByRole('cell', { name: `常用网站管理-${today()}.xlsx`, exact: true }).waitFor();
  });

  it('is not offered to a member without the view code of the list', async () => {
    const { page } = s;
    // The member holds 视频分类's view code only: its screen has 导出, 视频学习编辑 is not theirs.
    const viewer = await createMember(s.server, { videoType: '2' });
    await logout(page);
    await login(page, viewer.userName, viewer.password);
    await page.goto('/videoType');
    await rowOf(page, '造价业务培训').waitFor();
    await page.getByRole('button', { name: '导出', exact: true }).waitFor();
    await page.goto('/video');
    await page.getByRole('heading', { name: '无权限', level: 1 }).waitFor();
    await expect(page.getByRole('button', { name: '导出', exact: true }).count()).resolves.toBe(0);
  });
});
