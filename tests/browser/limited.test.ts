// A member limited to viewing 视频分类 (videoType: '2'): the menu offers that screen only, the
// table shows no 添加/新增/编辑/删除, and deep links to other screens show 无权限.
import { beforeAll, describe, expect, it } from 'vitest';
import { a11yAudit, createMember, login, rowOf, useBrowserSuite, type MemberLogin } from './helpers';

const s = useBrowserSuite();
const audit = a11yAudit();
const LIST = '视频分类 read-only list (limited member)';
const DENIED = '无权限 page';

let member: MemberLogin;

beforeAll(async () => {
  member = await createMember(s.server, { videoType: '2' });
  await login(s.page, member.userName, member.password);
});

describe('a member who may only view 视频分类', () => {
  it('sees only 视频分类 in the menu, and no figures on the home page', async () => {
    const { page } = s;
    await page.getByRole('menuitem', { name: '首页' }).click();
    await page.getByRole('heading', { name: `欢迎使用知识学习后台，${member.auName}` }).waitFor();
    const entries = (await page.getByRole('menu').getByRole('menuitem').allInnerTexts()).map((t) => t.trim());
    expect(entries).toEqual(['首页', '视频分类']);
    await page.getByText('首页暂无您可查看的统计，请从左侧菜单进入各模块。').waitFor();
    await expect(page.getByRole('main').getByRole('link').count()).resolves.toBe(0);
  });

  it('sees the 视频分类 rows without 添加, 新增, 编辑 or 删除', async () => {
    const { page } = s;
    await page.getByRole('menuitem', { name: '视频分类' }).click();
    await page.waitForURL('**/videoType');
    await rowOf(page, '造价业务培训').waitFor();
    await rowOf(page, '政策法规解读').waitFor();
    for (const name of ['添加', '新增', '编辑', '删除']) {
      await expect(page.getByRole('button', { name, exact: true }).count(), name).resolves.toBe(0);
    }
    await audit.check(page, LIST);
  });

  it('gets 无权限 on a deep link to 分类管理', async () => {
    const { page } = s;
    await page.goto('/Knowledge/Article/ClassifyManage/0');
    await page.getByRole('heading', { name: '无权限', level: 1 }).waitFor();
    await page.getByText('您没有访问此页面的权限，请联系管理员分配权限。').waitFor();
    await expect(page.getByRole('table').count()).resolves.toBe(0);
    expect(new URL(page.url()).pathname).toBe('/Knowledge/Article/ClassifyManage/0');
    await audit.check(page, DENIED);
  });

  it('gets 无权限 on deep links to 成员管理, 常用网站管理 and the unified answers classifications', async () => {
    const { page } = s;
    for (const path of ['/member', '/useweb', '/Knowledge/TYKJ/ClassifyManage?type=0']) {
      await page.goto(path);
      await page.getByRole('heading', { name: '无权限', level: 1 }).waitFor();
      await expect(page.getByRole('table').count(), path).resolves.toBe(0);
    }
  });

  it('goes home from 无权限 with 返回首页', async () => {
    const { page } = s;
    await page.getByRole('link', { name: '返回首页' }).click();
    await page.getByRole('heading', { name: `欢迎使用知识学习后台，${member.auName}` }).waitFor();
  });
});

audit.tests([LIST, DENIED]);
