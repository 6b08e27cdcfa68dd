// 分类管理 on both routes: /Knowledge/Article/ClassifyManage/0 (document catalogues,
// /Xcx1/) and /Knowledge/TYKJ/ClassifyManage?type=0 (unified answers, /Xcx3/). Add at the top
// level, 查看下一级 goes to ?code=<ScCode>, a child is added, edited and deleted there, 返回 goes
// back, then the top-level row is edited and deleted.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  a11yAudit,
  ADMIN_PASSWORD,
  deleteRow,
  formDialog,
  login,
  rowOf,
  seeNotification,
  uniqueName,
  useBrowserSuite,
} from './helpers';

const s = useBrowserSuite();
const audit = a11yAudit();

interface Route {
  label: string;
  path: string;
  search: string;
  service: 'Xcx1' | 'Xcx3';
  /** Top-level rows of the demo data on this route. */
  demo: string[];
  /** How the person gets there. */
  open(page: Page): Promise<void>;
}

const ROUTES: Route[] = [
  {
    label: '分类管理 /Knowledge/Article/ClassifyManage/0',
    path: '/Knowledge/Article/ClassifyManage/0',
    search: '',
    service: 'Xcx1',
    demo: ['建筑专业', '结构专业'],
    async open(page) {
      await page.getByRole('menuitem', { name: '分类管理' }).click();
    },
  },
  {
    label: '分类管理 /Knowledge/TYKJ/ClassifyManage?type=0',
    path: '/Knowledge/TYKJ/ClassifyManage',
    search: '?type=0',
    service: 'Xcx3',
    demo: ['计价规则', '工程量计算'],
    async open(page) {
      await page.getByRole('tab', { name: '统一口径' }).click();
    },
  },
];

const screens = ROUTES.flatMap((r) => [`${r.label}: top level`, `${r.label}: 分类详情 dialog`, `${r.label}: next level`]);

beforeAll(async () => {
  await login(s.page, 'admin', ADMIN_PASSWORD);
});

/** The classification's code as the server knows it (to check the route's `code`). */
async function scCodeOf(service: Route['service'], name: string): Promise<string> {
  const admin = await s.server.admin();
  const res = await admin.call<{ ScName: string; ScCode: string }[]>(`/${service}/GetStandardClassifyListInAdmin`, {
    All: 1,
    OrderName: 'SC_SORT ASC',
  });
  const found = res.body.data.find((c) => c.ScName === name);
  if (!found) throw new Error(`classification ${name} not found on /${service}/`);
  return found.ScCode;
}

async function fillAndSubmit(page: Page, values: { name: string; sort?: string }, button: '添加' | '保存') {
  const dialog = formDialog(page, '分类详情');
  await dialog.waitFor();
  await dialog.getByRole('textbox', { name: '类型名称' }).fill(values.name);
  if (values.sort !== undefined) await dialog.getByRole('spinbutton', { name: '类型排序' }).fill(values.sort);
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await seeNotification(page, '操作成功!');
  await dialog.waitFor({ state: 'hidden' });
}

for (const route of ROUTES) {
  describe(route.label, () => {
    const parent = uniqueName('浏览器父类');
    const child = uniqueName('浏览器子类');
    let code = '';

    it('shows the top level: 类型排序, 类型名称, 操作, with 查看下一级 and no 返回', async () => {
      const { page } = s;
      await route.open(page);
      await page.waitForURL((url) => url.pathname === route.path && url.search === route.search);
      for (const name of route.demo) await rowOf(page, name).waitFor();
      for (const header of ['类型排序', '类型名称', '操作']) {
        await page.getByRole('columnheader', { name: header, exact: true }).waitFor();
      }
      await rowOf(page, route.demo[0]!).getByRole('button', { name: '查看下一级' }).waitFor();
      await expect(page.getByRole('button', { name: '返回', exact: true }).count()).resolves.toBe(0);
      await audit.check(page, `${route.label}: top level`);
    });

    it('adds a top-level classification through the 700px 分类详情 dialog', async () => {
      const { page } = s;
      await page.getByRole('button', { name: '新增', exact: true }).click();
      const dialog = formDialog(page, '分类详情');
      await dialog.waitFor();
      expect((await dialog.boundingBox())?.width).toBe(700);
      await audit.check(page, `${route.label}: 分类详情 dialog`);
      await fillAndSubmit(page, { name: parent, sort: '7' }, '添加');
      await rowOf(page, parent).waitFor();
      // After the checkbox of 批量删除.
      await expect(rowOf(page, parent).getByRole('cell').nth(1).innerText()).resolves.toBe('7');
    });

    it('查看下一级 goes to ?code=<its ScCode>, with 返回 and no further 查看下一级', async () => {
      const { page } = s;
      code = await scCodeOf(route.service, parent);
      await rowOf(page, parent).getByRole('button', { name: '查看下一级' }).click();
      await page.waitForURL((url) => url.pathname === route.path && url.searchParams.get('code') === code);
      await page.getByRole('button', { name: '返回', exact: true }).waitFor();
      await page.getByText('暂无数据').waitFor();
      await expect(page.getByRole('button', { name: '查看下一级' }).count()).resolves.toBe(0);
      if (route.service === 'Xcx3') expect(new URL(page.url()).searchParams.get('type')).toBe('0');
      await audit.check(page, `${route.label}: next level`);
    });

    it('adds, edits and deletes a child at the next level', async () => {
      const { page } = s;
      await page.getByRole('button', { name: '新增', exact: true }).click();
      await fillAndSubmit(page, { name: child, sort: '1' }, '添加');
      await rowOf(page, child).waitFor();
      await expect(page.getByRole('button', { name: '查看下一级' }).count()).resolves.toBe(0);

      await rowOf(page, child).getByRole('button', { name: '编辑', exact: true }).click();
      await expect(formDialog(page, '分类详情').getByRole('textbox', { name: '类型名称' }).inputValue()).resolves.toBe(child);
      await fillAndSubmit(page, { name: `${child}改` }, '保存');
      await rowOf(page, `${child}改`).waitFor();

      await deleteRow(page, `${child}改`);
      await seeNotification(page, '删除成功!');
      await page.getByText('暂无数据').waitFor();
    });

    it('返回 goes back to the top level', async () => {
      const { page } = s;
      await page.getByRole('button', { name: '返回', exact: true }).click();
      await page.waitForURL((url) => url.pathname === route.path && url.search === route.search);
      await rowOf(page, parent).waitFor();
      await expect(page.getByRole('button', { name: '返回', exact: true }).count()).resolves.toBe(0);
      await rowOf(page, parent).getByRole('button', { name: '查看下一级' }).waitFor();
    });

    it('edits and deletes the top-level classification', async () => {
      const { page } = s;
      await rowOf(page, parent).getByRole('button', { name: '编辑', exact: true }).click();
      await fillAndSubmit(page, { name: `${parent}改`, sort: '8' }, '保存');
      await rowOf(page, `${parent}改`).waitFor();
      await expect(rowOf(page, parent).count()).resolves.toBe(0);

      await deleteRow(page, `${parent}改`);
      await seeNotification(page, '删除成功!');
      await rowOf(page, `${parent}改`).waitFor({ state: 'detached' });
      for (const name of route.demo) await rowOf(page, name).waitFor();
    });
  });
}

audit.tests(screens);
