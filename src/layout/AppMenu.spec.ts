import { describe, expect, it } from 'vitest';
import { MENU_ENTRIES, type MenuEntry } from '../../schemas/index';
import { canViewModule } from '../access/useMember';
import { isCurrent } from '../navigation';

const entry = (label: string): MenuEntry => {
  const found = MENU_ENTRIES.find((e) => e.label === label);
  if (!found) throw new Error(label);
  return found;
};

describe('menu', () => {
  it('lights the catalogue of the current type only', () => {
    const at = { pathname: '/Knowledge/Article/Catalogue', search: '?type=1' };
    expect(isCurrent(entry('法律法规'), at)).toBe(true);
    expect(isCurrent(entry('标准图集'), at)).toBe(false);
    expect(isCurrent(entry('标准图集'), { pathname: '/Knowledge/Article/Catalogue', search: '' })).toBe(true);
  });

  it('keeps 分类管理 current on both classification routes and their next levels', () => {
    expect(isCurrent(entry('分类管理'), { pathname: '/Knowledge/Article/ClassifyManage/2', search: '?code=x' })).toBe(true);
    expect(isCurrent(entry('分类管理'), { pathname: '/Knowledge/TYKJ/ClassifyManage', search: '?type=0' })).toBe(true);
    expect(isCurrent(entry('统一口径'), { pathname: '/Knowledge/TYKJ/ClassifyManage', search: '?type=0' })).toBe(false);
  });

  it('keeps 在线视频 current on a video\'s details', () => {
    expect(isCurrent(entry('在线视频'), { pathname: '/Knowledge/VideoView/Details', search: '?Id=1' })).toBe(true);
  });

  it('shows a screen for view code 2 only, and 成员管理 for administrators only', () => {
    const staff = { AuCode: 'c', AuName: 'n', UserName: 'u', IsAdmin: 0 as const, OrganizationName: '', Modules: { useweb: '1,3' } };
    expect(canViewModule(staff, 'useweb')).toBe(false);
    expect(canViewModule({ ...staff, Modules: { useweb: '2' } }, 'useweb')).toBe(true);
    expect(canViewModule({ ...staff, Modules: { useweb: '1,2,3,4,a' } }, 'admin')).toBe(false);
    expect(canViewModule({ ...staff, IsAdmin: 1 }, 'admin')).toBe(true);
    expect(canViewModule(undefined, 'useweb')).toBe(false);
  });
});
