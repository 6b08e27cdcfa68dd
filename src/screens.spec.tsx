// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SCREENS } from '../schemas/index';
import { SCREEN_FILES, screenElement, screenFile } from './screens';
import { fakeMember, renderWithAdmin } from './test/renderWithAdmin';

describe('declared screens', () => {
  it('name files under src/resources/ that exist, each with a component as its default export', async () => {
    const special = SCREENS.filter((s) => s.component);
    expect(special.length).toBeGreaterThan(0);
    expect(special.map((s) => s.component).filter((c) => !SCREEN_FILES[screenFile(c!)])).toEqual([]);
    for (const s of special) expect(typeof (await SCREEN_FILES[screenFile(s.component!)]!()), s.component).toBe('function');
  });

  it('give every screen without one a resource to generate its list from', () => {
    for (const s of SCREENS.filter((x) => !x.component)) expect(() => screenElement(s), s.path).not.toThrow();
  });
});

/** The generated screen of a resource without a special one: its list, title and dialog. */
const generated = SCREENS.find((s) => !s.component && s.resource === 'videoType')!;
const VideoTypeList = () => screenElement(generated);

const rows = [
  { id: 1, Id: 1, VdtCode: 'a', VdtName: '造价业务培训', VdtSort: 1 },
  { id: 2, Id: 2, VdtCode: 'b', VdtName: '软件操作教程', VdtSort: 2 },
];

function listProvider() {
  return { getList: vi.fn(async () => ({ data: rows, total: 17 })) };
}

afterEach(cleanup);

describe('a generated screen (视频分类)', () => {
  it('shows its rows, the total, and 添加 for a member holding code 1', async () => {
    const dataProvider = listProvider();
    renderWithAdmin(<VideoTypeList />, {
      dataProvider,
      member: fakeMember({ Modules: { videoType: '1,2' } }),
    });

    expect(await screen.findByText('造价业务培训')).toBeTruthy();
    expect(screen.getByText('软件操作教程')).toBeTruthy();
    expect(screen.getByText('共 17 条')).toBeTruthy();
    expect(await screen.findByRole('button', { name: '添加' })).toBeTruthy();
    // No code 3 or 4: no row actions.
    expect(screen.queryByRole('button', { name: '编辑' })).toBeNull();
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
    expect(dataProvider.getList).toHaveBeenCalledWith(
      'videoType',
      expect.objectContaining({ pagination: { page: 1, perPage: 15 } }),
    );
  });

  it('hides 添加 from a member who may only view', async () => {
    renderWithAdmin(<VideoTypeList />, {
      dataProvider: listProvider(),
      member: fakeMember({ Modules: { videoType: '2' } }),
    });

    expect(await screen.findByText('造价业务培训')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '添加' })).toBeNull();
  });

  it('gives an administrator 编辑 and 删除 on every row', async () => {
    renderWithAdmin(<VideoTypeList />, { dataProvider: listProvider(), member: fakeMember({ IsAdmin: 1 }) });

    const row = (await screen.findByText('造价业务培训')).closest('tr');
    expect(row).toBeTruthy();
    expect(within(row as HTMLElement).getByRole('button', { name: '编辑' })).toBeTruthy();
    expect(within(row as HTMLElement).getByRole('button', { name: '删除' })).toBeTruthy();
  });
});
