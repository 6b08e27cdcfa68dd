import { describe, expect, it } from 'vitest';
import { SCREENS, screenLink } from '../schemas/index';
import { APP_TITLE, documentTitle, screenAt, titleAt } from './navigation';

const at = (url: string) => {
  const { pathname, search } = new URL(url, 'http://app');
  return { pathname, search };
};

describe('the screen at an address', () => {
  it('is the one whose path it is, an optional segment included, else the one it lies under', () => {
    expect(screenAt('/videoType')?.label).toBe('视频分类');
    expect(screenAt('/Knowledge/Article/ClassifyManage')?.label).toBe('分类管理');
    expect(screenAt('/Knowledge/Article/ClassifyManage/2')?.component).toBe('classify/ClassifyManage');
    expect(screenAt('/Knowledge/VideoView/Details')?.label).toBe('视频详情');
    expect(screenAt('/Knowledge/NoSuchScreen')).toBeUndefined();
  });
});

describe("the page's title", () => {
  it("is the declared label of the screen there, or of its current menu entry (a catalogue's document type)", () => {
    expect(titleAt(at('/videoType'))).toBe('视频分类');
    expect(titleAt(at('/Knowledge/Article/Catalogue'))).toBe('标准图集');
    expect(titleAt(at('/Knowledge/Article/Catalogue?type=3'))).toBe('公司通用文档');
    expect(titleAt(at('/Knowledge/Article/Manage?type=2'))).toBe('文章目录管理');
    expect(titleAt(at('/Knowledge/VideoView/Details?Id=1'))).toBe('视频详情');
    for (const screen of SCREENS.filter((s) => !s.menu?.length)) expect(titleAt(at(screenLink(screen)))).toBe(screen.label);
  });

  it("is 首页 at home and the app's name where no screen is", () => {
    expect(titleAt(at('/'))).toBe('首页');
    expect(titleAt(at('/Knowledge/NoSuchScreen'))).toBe(APP_TITLE);
  });
});

describe("the browser tab's title", () => {
  it("is the page's title, a space-hyphen-space, then the app's name; the app's name alone where no screen is", () => {
    expect(documentTitle('视频学习编辑')).toBe('视频学习编辑 - 知识学习后台');
    expect(documentTitle(titleAt(at('/')))).toBe('首页 - 知识学习后台');
    expect(documentTitle(titleAt(at('/Knowledge/Article/Catalogue?type=1')))).toBe('法律法规 - 知识学习后台');
    expect(documentTitle(titleAt(at('/Knowledge/NoSuchScreen')))).toBe('知识学习后台');
  });
});
