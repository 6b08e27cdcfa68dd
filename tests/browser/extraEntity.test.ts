// One declaration per entity, proved the way a developer adds one: a scratch copy of the repository
// gets one more file in schemas/ (tests/fixtures/notice.ts, 通知公告 under a permission module of its
// own), `npm run db:generate` writes its migration and lists the file, the app is built, and the
// server of that copy is started. Nothing else is edited. Then its calls validate, paginate, search
// and refuse what they must; it appears in OpenAPI, in the audit log, in the member permission
// editor and in the menu; and its generated list and dialog work in Chromium.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, Client } from '../helpers/server';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess';
import { formDialog, launchChromium, login, REPO, rowOf, seeNotification, UI_TIMEOUT } from './helpers';

/** What a developer's checkout holds besides node_modules and build output. */
const COPIED = ['schemas', 'src', 'server', 'scripts', 'index.html', 'vite.config.ts', 'tsconfig.json', 'package.json'];
const SKIPPED = new Set(['dist', 'node_modules']);

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
  // The one hand-written file, as it would sit in schemas/.
  const fixture = fs.readFileSync(path.join(REPO, 'tests/fixtures/notice.ts'), 'utf8').replaceAll("'../../schemas/", "'./");
  fs.writeFileSync(path.join(scratch, 'schemas/notice.ts'), fixture);

  generatorOutput = run('npx', ['tsx', 'scripts/db-generate.ts', 'notice']);
  run('npx', ['vite', 'build', '--logLevel', 'warn']);
  server = await startServerProcess(
    { DATA_DIR: dataDir, PUBLIC_DIR: path.join(scratch, 'dist'), ADMIN_PASSWORD, DEMO_DATA: '0' },
    200_000,
    { cwd: scratch },
  );
  admin = new Client(server.url);
  await admin.login('admin', ADMIN_PASSWORD);
  browser = await launchChromium();
  const context = await browser.newContext({ baseURL: server.url, locale: 'zh-CN', viewport: { width: 1366, height: 900 } });
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
  it('the generator wrote a migration for the NOTICE table and listed the file', () => {
    const migrations = fs.readdirSync(path.join(scratch, 'server/src/db/migrations'));
    const written = migrations.filter((f) => /_notice\.ts$/.test(f));
    expect(written, generatorOutput).toHaveLength(1);
    expect(fs.readFileSync(path.join(scratch, 'server/src/db/migrations', written[0]!), 'utf8')).toContain("'NOTICE'");
    expect(fs.readFileSync(path.join(scratch, 'schemas/entities.ts'), 'utf8')).toContain("from './notice'");
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
