// One declaration per entity, proved the way a developer adds one: a scratch copy of the repository
// gets three more files in schemas/ (tests/fixtures/: 通知公告 under a permission module of its own;
// 会议类型 and 会议纪要, which holds every common kind of field) and one more field in the video
// schema (难度, a choice), `npm run db:generate` writes the migration and lists the files, the app
// is built, and the server of that copy is started. No screen code is written. Then the calls
// validate, paginate, search and refuse what they must; the entities appear in OpenAPI, in the
// audit log, in the member permission editor and in the menu; and their generated lists and
// dialogs, and the video screen's, show every field as its kind calls for, in Chromium.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayIn, DEFAULT_TIME_ZONE } from '../../schemas/businessTime';
import { ADMIN_PASSWORD, Client } from '../helpers/server';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess';
import { BROWSER_TIME_ZONE, formDialog, launchChromium, login, REPO, rowOf, seeNotification, sheetRows, UI_TIMEOUT } from './helpers';

/** What a developer's checkout holds besides node_modules and build output. */
const COPIED = ['schemas', 'src', 'server', 'scripts', 'index.html', 'vite.config.ts', 'tsconfig.json', 'package.json'];
const SKIPPED = new Set(['dist', 'node_modules']);

/** An attachment named as staff name theirs: the demo's handout under a Chinese name. */
const ATTACHMENT = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-attachment-')), '会议材料.pdf');
fs.copyFileSync(path.join(REPO, 'server/demo/handout.pdf'), ATTACHMENT);
/** Today in the business time zone (the test server's default, Asia/Shanghai). */
const todayFormatted = () => dayIn(DEFAULT_TIME_ZONE);

let scratch: string;
let dataDir: string;
let server: ServerProcess;
let browser: Browser;
let page: Page;
let generatorOutput: string;
let admin: Client;

const run = (command: string, args: string[]) =>
  execFileSync(command, args, { cwd: scratch, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } });

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-entity-'));
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-entity-data-'));
  for (const entry of COPIED) {
    fs.cpSync(path.join(REPO, entry), path.join(scratch, entry), {
      recursive: true,
      filter: (source) => !SKIPPED.has(path.basename(source)),
    });
  }
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(scratch, 'node_modules'), 'dir');
  // The hand-written files, as they would sit in schemas/.
  for (const file of ['notice.ts', 'meetingType.ts', 'meetingMinutes.ts']) {
    const fixture = fs.readFileSync(path.join(REPO, 'tests/fixtures', file), 'utf8').replaceAll("'../../schemas/", "'./");
    fs.writeFileSync(path.join(scratch, 'schemas', file), fixture);
  }
  // A field added to an existing entity: one line of its schema (and the helper's import).
  const videoFile = path.join(scratch, 'schemas/video.ts');
  const video = fs.readFileSync(videoFile, 'utf8');
  const withLevel = video
    .replace("    VdPer: textField('视频主讲人', 50),\n", "    VdPer: textField('视频主讲人', 50),\n    VdLevel: choiceField('难度', { easy: '入门', hard: '进阶' }),\n")
    .replace('import {\n', 'import {\n  choiceField,\n');
  expect(withLevel).toContain("VdLevel: choiceField('难度'");
  fs.writeFileSync(videoFile, withLevel);

  generatorOutput = run('npx', ['tsx', 'scripts/db-generate.ts', 'extra']);
  run('npx', ['vite', 'build', '--logLevel', 'warn']);
  server = await startServerProcess(
    { DATA_DIR: dataDir, PUBLIC_DIR: path.join(scratch, 'dist'), ADMIN_PASSWORD, DEMO_DATA: '0' },
    200_000,
    { cwd: scratch },
  );
  admin = new Client(server.url);
  await admin.login('admin', ADMIN_PASSWORD);
  browser = await launchChromium();
  const context = await browser.newContext({ baseURL: server.url, locale: 'zh-CN', timezoneId: BROWSER_TIME_ZONE, viewport: { width: 1366, height: 900 } });
  context.setDefaultTimeout(UI_TIMEOUT);
  page = await context.newPage();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe('an entity added as one file and one generated migration', () => {
  it('the generator wrote one migration for the new tables and the new column, and listed the files', () => {
    const migrations = fs.readdirSync(path.join(scratch, 'server/src/db/migrations'));
    const written = migrations.filter((f) => /_extra\.ts$/.test(f));
    expect(written, generatorOutput).toHaveLength(1);
    const migration = fs.readFileSync(path.join(scratch, 'server/src/db/migrations', written[0]!), 'utf8');
    for (const name of ["'NOTICE'", "'MEETING_TYPE'", "'MEETING_MINUTES'", "'VD_LEVEL'"]) expect(migration).toContain(name);
    const entities = fs.readFileSync(path.join(scratch, 'schemas/entities.ts'), 'utf8');
    for (const file of ['notice', 'meetingType', 'meetingMinutes']) expect(entities).toContain(`from './${file}'`);
    // Run again, the schemas and the migrations agree.
    expect(run('npx', ['tsx', 'scripts/db-generate.ts', 'again'])).toContain('agree');
  });

  it('its calls validate, paginate, search and take defaults', async () => {
    const missing = await admin.call('/Ajax/AddNotice', { NtBody: '<p>正文</p>' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors?.map((e) => e.field)).toContain('NtTitle');
    const tooLong = await admin.call('/Ajax/AddNotice', { NtTitle: '长'.repeat(101) });
    expect(tooLong.status).toBe(400);

    for (let i = 1; i <= 17; i++) {
      const added = await admin.call<{ NtCode: string; NtDate: string }>('/Ajax/AddNotice', { NtTitle: `公告${i}`, NtSort: i, NtBody: '<p>内容<script>x()</script></p>' });
      expect(added.status, added.body.msg).toBe(200);
      expect(added.body.data.NtCode).toMatch(/\S/);
      expect(added.body.data.NtDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    const first = await admin.call<{ NtTitle: string; NtBody?: string }[]>('/Ajax/GetNoticeListInAdmin', { pageIndex: 1, pageSize: 15 });
    expect(first.body.total).toBe(17);
    expect(first.body.data).toHaveLength(15);
    expect(first.body.data[0]!.NtTitle).toBe('公告1');
    const second = await admin.call<unknown[]>('/Ajax/GetNoticeListInAdmin', { pageIndex: 2, pageSize: 15 });
    expect(second.body.data).toHaveLength(2);
    const found = await admin.call<{ NtTitle: string }[]>('/Ajax/GetNoticeListInAdmin', { NtTitle: '公告1' });
    expect(found.body.data.map((r) => r.NtTitle).sort()).toEqual(['公告1', '公告10', '公告11', '公告12', '公告13', '公告14', '公告15', '公告16', '公告17']);
    const one = await admin.call<{ Id: number; NtBody: string }>('/Ajax/GetSingleNoticeInAdmin', { Id: 1 });
    expect(one.body.data.NtBody).toBe('<p>内容</p>');
  });

  it('refuses members without its module, and allows exactly the codes they hold', async () => {
    const add = (modules: Record<string, string>, name: string) =>
      admin.call('/Ajax/AddMember', { UserName: name, AuName: name, Password: 'password-123', IsAdmin: 0, Modules: modules });
    expect((await add({ notice: '2' }, 'reader')).status).toBe(200);
    expect((await add({ useweb: '1,2,3,4' }, 'outsider')).status).toBe(200);
    const reader = new Client(server.url);
    await reader.login('reader', 'password-123');
    const outsider = new Client(server.url);
    await outsider.login('outsider', 'password-123');

    expect((await reader.call('/Ajax/GetNoticeListInAdmin', {})).status).toBe(200);
    expect((await reader.call('/Ajax/AddNotice', { NtTitle: '越权' })).status).toBe(403);
    expect((await reader.call('/Ajax/DelNotice', { Id: 1 })).status).toBe(403);
    expect((await outsider.call('/Ajax/GetNoticeListInAdmin', {})).status).toBe(403);
    expect((await new Client(server.url).call('/Ajax/GetNoticeListInAdmin', {})).status).toBe(401);
    // A permission string of a module that does not exist is refused.
    expect((await add({ nosuchmodule: '2' }, 'nobody')).status).toBe(400);
  });

  it('appears in OpenAPI and in the audit log', async () => {
    const doc = (await (await fetch(`${server.url}/docs/json`, { headers: { cookie: admin.cookie } })).json()) as { paths: Record<string, unknown> };
    for (const call of ['GetNoticeListInAdmin', 'GetSingleNoticeInAdmin', 'AddNotice', 'UpdateNotice', 'DelNotice']) {
      expect(Object.keys(doc.paths)).toContain(`/Ajax/${call}`);
    }
    const log = await admin.call<{ Action: string; RecordName: string }[]>('/Ajax/GetAuditLogListInAdmin', { Resource: 'notice', pageSize: 100 });
    expect(log.status, log.body.msg).toBe(200);
    expect(log.body.total).toBe(17);
    expect(log.body.data.every((e) => e.Action === 'create')).toBe(true);
  });

  it('shows in the menu, lists its rows and adds one through its dialog', async () => {
    await login(page, 'admin', ADMIN_PASSWORD);
    await page.getByRole('menuitem', { name: '通知公告' }).click();
    await page.waitForURL('**/notice');
    await rowOf(page, '公告1').waitFor();
    for (const header of ['标题', '发布日期', '是否置顶', '排序']) {
      await page.getByRole('columnheader', { name: header, exact: true }).waitFor();
    }
    await page.getByText('共 17 条').waitFor();

    await page.getByRole('button', { name: '添加', exact: true }).click();
    const dialog = formDialog(page, '公告详情');
    await dialog.waitFor();
    await dialog.getByRole('textbox', { name: '标题' }).fill('浏览器公告');
    await dialog.getByRole('button', { name: '添加', exact: true }).click();
    await seeNotification(page, '操作成功!');
    await dialog.waitFor({ state: 'hidden' });
    await rowOf(page, '浏览器公告').waitFor();
    await page.getByText('共 18 条').waitFor();
  });

  it('has its row in the member permission editor', async () => {
    await page.getByRole('menuitem', { name: '成员管理' }).click();
    await page.getByRole('button', { name: '新增', exact: true }).click();
    const dialog = formDialog(page, '成员详情');
    await dialog.waitFor();
    await dialog.getByRole('checkbox', { name: '通知公告 查看' }).waitFor();
    await dialog.getByRole('checkbox', { name: '通知公告 新增' }).waitFor();
  });
});

/** Today as the dialog fills it in ('YYYY-MM-DD'), as digits. */
/** The same, as digits. */
const todayDigits = () => todayFormatted().replaceAll('-', '');

describe('every kind of field of a declaration, on its generated screen', () => {
  let types: { MtCode: string; MtName: string }[];

  beforeAll(async () => {
    for (const [MtName, MtSort] of [['周例会', 1], ['专题会', 2]] as const) {
      const added = await admin.call('/Ajax/AddMeetingType', { MtName, MtSort });
      expect(added.status, added.body.msg).toBe(200);
    }
    types = (await admin.call<{ MtCode: string; MtName: string }[]>('/Ajax/GetMeetingTypeListInAdmin', { All: 1 })).body.data;
    const weekly = types.find((t) => t.MtName === '周例会')!;
    const added = await admin.call('/Ajax/AddMeetingMinutes', { MmTitle: '第一次周例会纪要', MtCode: weekly.MtCode, MmStatus: 'draft', MmBody: '<p>会议<b>决定</b></p>' });
    expect(added.status, added.body.msg).toBe(200);
 
    // A page of its own, whatever the tests above left open.
    const context = await browser.newContext({ baseURL: server.url, locale: 'zh-CN', timezoneId: BROWSER_TIME_ZONE, viewport: { width: 1366, height: 900 } });
    context.setDefaultTimeout(UI_TIMEOUT);
    page = await context.newPage();
    await login(page, 'admin', ADMIN_PASSWORD);
  });

  it('refuses in the dialog what the server refuses, with the same words, before anything is sent', async () => {
    const tooLong = { MmTitle: '长'.repeat(101), MtCode: types[0]!.MtCode };
    const server = await admin.call('/Ajax/AddMeetingMinutes', tooLong);
    expect(server.status).toBe(400);
    const serverMessage = server.body.errors?.find((e) => e.field === 'MmTitle')?.msg;
    expect(serverMessage).toBe('不能超过100个字符');

    await page.goto('/meetingMinutes');
    await rowOf(page, '第一次周例会纪要').waitFor();
    const sent: string[] = [];
    const track = (request: { url(): string }) => {
      if (request.url().includes('/Ajax/AddMeetingMinutes')) sent.push(request.url());
    };
    page.on('request', track);
    await page.getByRole('button', { name: '添加', exact: true }).click();
    const dialog = formDialog(page, '会议纪要详情');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: '添加', exact: true }).click();
    await dialog.getByText('必填', { exact: true }).first().waitFor();
    await dialog.getByRole('textbox', { name: '标题' }).fill(tooLong.MmTitle);
    await dialog.getByRole('button', { name: '添加', exact: true }).click();
    await dialog.getByText(serverMessage!, { exact: true }).waitFor();
    page.off('request', track);
    expect(sent).toEqual([]);
    await dialog.getByRole('button', { name: '取消', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('fills the date default, offers names and labels to choose, and uploads an attachment to download by its name', async () => {
    await page.getByRole('button', { name: '添加', exact: true }).click();
    const dialog = formDialog(page, '会议纪要详情');
    await dialog.waitFor();
    // The declared default (today) is in the dialog before anything is typed.
    const date = dialog.getByRole('group', { name: '会议日期', exact: true });
    await expect.poll(async () => (await date.textContent())?.replace(/\D/g, '')).toBe(todayDigits());

    await dialog.getByRole('textbox', { name: '标题' }).fill('专题会纪要');
    // The reference: a select of the types' names, not their codes.
    await dialog.getByRole('combobox', { name: '会议类型' }).click();
    const typeOptions = page.getByRole('listbox').getByRole('option');
    await typeOptions.filter({ hasText: '专题会' }).waitFor();
    expect(await typeOptions.allTextContents()).toEqual(expect.arrayContaining(['周例会', '专题会']));
    await typeOptions.filter({ hasText: '专题会' }).click();
    // The choice: a select of its Chinese labels.
    await dialog.getByRole('combobox', { name: '状态' }).click();
    const statusOptions = page.getByRole('listbox').getByRole('option');
    await statusOptions.filter({ hasText: '已发布' }).waitFor();
    expect(await statusOptions.allTextContents()).toEqual(['草稿', '已发布']);
    await statusOptions.filter({ hasText: '已发布' }).click();

    await dialog.locator('.ra-input-MmFiles input[type="file"]').setInputFiles(ATTACHMENT);
    const inDialog = dialog.getByRole('link', { name: '会议材料.pdf', exact: true });
    await inDialog.waitFor();
    expect(await inDialog.getAttribute('download')).toBe('会议材料.pdf');
    await dialog.getByRole('button', { name: '添加', exact: true }).click();
    await seeNotification(page, '操作成功!');
    await dialog.waitFor({ state: 'hidden' });

    // The list shows the type's name, the status as a tag and the attachment as a link.
    const row = rowOf(page, '专题会纪要');
    await row.waitFor();
    await row.getByRole('cell', { name: '专题会', exact: true }).waitFor();
    await row.locator('.MuiChip-root', { hasText: '已发布' }).waitFor();
    await row.getByRole('cell', { name: todayFormatted(), exact: true }).waitFor();
    const link = row.getByRole('link', { name: '会议材料.pdf', exact: true });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('会议材料.pdf');
    expect(fs.readFileSync((await download.path())!)).toEqual(fs.readFileSync(ATTACHMENT));
  });

  it('narrows the list by its search box and its filters, kept in the address', async () => {
    await rowOf(page, '第一次周例会纪要').waitFor();
    // An empty search sends nothing and says so.
    await page.getByRole('button', { name: '搜索', exact: true }).click();
    await page.getByText('请输入搜索内容', { exact: true }).first().waitFor();
    await page.getByRole('textbox', { name: '搜索内容' }).fill('专题');
    await page.getByRole('button', { name: '搜索', exact: true }).click();
    await rowOf(page, '第一次周例会纪要').waitFor({ state: 'detached' });
    await rowOf(page, '专题会纪要').waitFor();
    await page.getByRole('button', { name: '重置', exact: true }).click();
    await rowOf(page, '第一次周例会纪要').waitFor();

    // The reference as a filter, by name.
    await page.getByRole('combobox', { name: '会议类型' }).click();
    await page.getByRole('listbox').getByRole('option', { name: '周例会', exact: true }).click();
    await rowOf(page, '专题会纪要').waitFor({ state: 'detached' });
    await rowOf(page, '第一次周例会纪要').waitFor();
    // A reload comes back to the same filter.
    await page.reload();
    await rowOf(page, '第一次周例会纪要').waitFor();
    await expect(rowOf(page, '专题会纪要').count()).resolves.toBe(0);
    await page.getByRole('combobox', { name: '会议类型' }).click();
    // The blank entry is named by react-admin's clear action; it shows 全部.
    await page.getByRole('listbox').getByRole('option').filter({ hasText: '全部' }).click();
    await rowOf(page, '专题会纪要').waitFor();

    // A sortable column: its header orders the rows, one way then the other.
    // Its first cell after the checkbox of 批量删除.
    const firstRow = () => page.getByRole('row').nth(1).getByRole('cell').nth(1).textContent();
    await page.getByRole('columnheader', { name: '标题' }).getByRole('button').click();
    await expect.poll(firstRow).toBe('专题会纪要');
    await page.getByRole('columnheader', { name: '标题' }).getByRole('button').click();
    await expect.poll(firstRow).toBe('第一次周例会纪要');

    // The choice as a filter, by label.
    await page.getByRole('combobox', { name: '状态' }).click();
    await page.getByRole('listbox').getByRole('option', { name: '草稿', exact: true }).click();
    await rowOf(page, '专题会纪要').waitFor({ state: 'detached' });
    await rowOf(page, '第一次周例会纪要').waitFor();
  });

  it('previews rich text, which the list answer leaves out, read with the record\'s call', async () => {
    const row = rowOf(page, '第一次周例会纪要');
    await row.getByRole('button', { name: '预览正文', exact: true }).click();
    const preview = page.getByRole('dialog', { name: '正文' });
    await preview.locator('.rich-text b', { hasText: '决定' }).waitFor();
    await expect(preview.locator('.rich-text').innerText()).resolves.toBe('会议决定');
    await preview.getByRole('button', { name: '关闭', exact: true }).click();
    await preview.waitFor({ state: 'hidden' });
  });

  it('exports its list, under the filter shown, with no code of its own', async () => {
    // The list shows the drafts only (状态 草稿, above).
    await rowOf(page, '第一次周例会纪要').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '导出', exact: true }).click()]);
    expect(download.suggestedFilename()).toBe(`会议纪要-${todayFormatted()}.xlsx`);
    const rows = await sheetRows((await download.path())!);
    expect(rows[0]).toEqual(['标题', '会议类型', '会议日期', '状态', '是否置顶', '附件', '正文']);
    expect(rows.slice(1)).toEqual([['第一次周例会纪要', '周例会', new Date(`${todayFormatted()}T00:00:00Z`), '草稿', '不置顶', null, '会议决定']]);
  });

  it('shows a field added to the video schema in 视频学习编辑\'s table and dialog', async () => {
    const added = await admin.call('/Ajax/AddVideoType', { VdtName: '培训', VdtSort: 1 });
    expect(added.status, added.body.msg).toBe(200);
    const vdtCode = (await admin.call<{ VdtCode: string }[]>('/Ajax/GetVideoTypeListInAdmin', { All: 1 })).body.data[0]!.VdtCode;
    const video = await admin.call('/Ajax/AddVideo', { VdtCode: vdtCode, VdName: '难度视频', VdUrl: 'https://example.com/v.mp4', VdLevel: 'hard' });
    expect(video.status, video.body.msg).toBe(200);

    await page.goto('/video');
    await page.getByRole('columnheader', { name: '难度', exact: true }).waitFor();
    const row = rowOf(page, '难度视频');
    await row.locator('.MuiChip-root', { hasText: '进阶' }).waitFor();
    await row.getByRole('button', { name: '编辑', exact: true }).click();
    const dialog = formDialog(page, '详情');
    await dialog.waitFor();
    await expect(dialog.getByRole('combobox', { name: '难度' }).textContent()).resolves.toContain('进阶');
    await dialog.getByRole('button', { name: '取消', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
  });
});

describe('the audit log of a declared entity', () => {
  it('shows a changed reference by the referenced names and a choice by its labels', async () => {
    const list = await admin.call<{ Id: number; MmTitle: string }[]>('/Ajax/GetMeetingMinutesListInAdmin', { All: 1, MmTitle: '第一次周例会纪要' });
    const minutes = list.body.data[0]!;
    const special = (await admin.call<{ MtCode: string; MtName: string }[]>('/Ajax/GetMeetingTypeListInAdmin', { All: 1 })).body.data.find((t) => t.MtName === '专题会')!;
    const updated = await admin.call('/Ajax/UpdateMeetingMinutes', { Id: minutes.Id, MtCode: special.MtCode, MmStatus: 'published' });
    expect(updated.status, updated.body.msg).toBe(200);

    await page.goto('/auditLog');
    const row = page.getByRole('row').filter({ hasText: '第一次周例会纪要' }).filter({ hasText: '修改' });
    await row.getByRole('button', { name: '查看', exact: true }).click();
    const changes = page.getByRole('dialog', { name: '操作详情' }).getByRole('table', { name: '变更内容' });
    const line = (title: string) => changes.getByRole('row').filter({ has: page.getByRole('rowheader', { name: title, exact: true }) });
    await expect.poll(() => line('会议类型').getByRole('cell').allInnerTexts()).toEqual(['周例会', '专题会']);
    await expect(line('状态').getByRole('cell').allInnerTexts()).resolves.toEqual(['草稿', '已发布']);
  });
});

describe('批量删除 of a declared entity, with no code of its own', () => {
  it('deletes the ticked rows of its list after one 提示, each in the audit log', async () => {
    const before = (await admin.call<unknown[]>('/Ajax/GetNoticeListInAdmin', { All: 1 })).body.total!;
    // 公告1 and 公告10…17: one page of nine.
    await page.goto(`/notice?filter=${encodeURIComponent(JSON.stringify({ NtTitle: '公告1' }))}`);
    await page.getByText('共 9 条').waitFor();
    await page.getByRole('checkbox', { name: '全选' }).check();
    await page.getByText('已选择 9 项', { exact: true }).waitFor();
    await page.getByRole('button', { name: '批量删除', exact: true }).click();
    const prompt = page.getByRole('dialog', { name: '提示' });
    await prompt.getByText('此操作将永久删除选中的 9 条记录, 是否继续?', { exact: true }).waitFor();
    await prompt.getByRole('button', { name: '确定', exact: true }).click();
    await seeNotification(page, '已删除 9 条');
    expect((await admin.call<unknown[]>('/Ajax/GetNoticeListInAdmin', { All: 1 })).body.total).toBe(before - 9);
    const log = await admin.call<unknown[]>('/Ajax/GetAuditLogListInAdmin', { Resource: 'notice', Action: 'delete', pageSize: 100 });
    expect(log.body.total).toBe(9);
    const doc = (await (await fetch(`${server.url}/docs/json`, { headers: { cookie: admin.cookie } })).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toContain('/Ajax/DelNoticeBatch');
  });
});
