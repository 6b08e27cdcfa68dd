// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeMember, renderWithAdmin } from '../../test/renderWithAdmin';
import AuditLogList from './AuditLogList';
import { formatValue } from './auditFormat';

const ADMIN = fakeMember({ IsAdmin: 1, AuName: '管理员' });
// 05:06:07 on 4 March in the business time zone (Asia/Shanghai, UTC+8).
const AT = '2026-03-03T21:06:07.000Z';

const entries = [
  {
    id: 2,
    Id: 2,
    At: AT,
    AuCode: 'a1',
    AuName: '张三',
    Action: 'update',
    Resource: 'videoType',
    RecordId: 7,
    RecordCode: 'c7',
    RecordName: '造价业务培训',
    Changes: [{ field: 'VdtName', before: '旧名称', after: '造价业务培训' }],
  },
  {
    id: 1,
    Id: 1,
    At: AT,
    AuCode: 'a1',
    AuName: '张三',
    Action: 'sort',
    Resource: 'useweb',
    RecordId: null,
    RecordCode: '',
    RecordName: '网站排序',
    Changes: [{ field: 'UwSort', id: 3, name: '住建部', before: 2, after: 1 }],
  },
];

function provider(rows: unknown[] = entries, total = 31) {
  return {
    getList: vi.fn(async (resource: string) =>
      resource === 'member'
        ? { data: [{ id: 1, Id: 1, AuCode: 'a1', AuName: '张三', UserName: 'zhangsan' }], total: 1 }
        : { data: rows, total },
    ),
  };
}

afterEach(cleanup);

// The screen renders its filter inputs first: give a loaded machine time.
const WAIT = { timeout: 15_000 };

describe('操作日志', { timeout: 60_000 }, () => {
  it('lists who did what to which record and when, newest first from the server', async () => {
    const dataProvider = provider();
    renderWithAdmin(<AuditLogList />, { dataProvider, member: ADMIN });
    const row = (await screen.findByText('造价业务培训', undefined, WAIT)).closest('tr')!;
    const cells = within(row).getAllByRole('cell').map((c) => c.textContent);
    expect(cells.slice(0, 5)).toEqual(['2026-03-04 05:06:07', '张三', '修改', '视频分类', '造价业务培训']);
    expect(screen.getByText('排序')).toBeTruthy();
    expect(screen.getByText('常用网站')).toBeTruthy();
    expect(screen.getByText('共 31 条')).toBeTruthy();
    // Read only: nothing to add, edit or delete.
    for (const name of ['新增', '添加', '编辑', '删除']) expect(screen.queryByRole('button', { name })).toBeNull();
    expect(dataProvider.getList).toHaveBeenCalledWith('auditLog', expect.objectContaining({ pagination: { page: 1, perPage: 15 } }));
  });

  it('shows the changes of an entry with the fields’ Chinese titles, before → after', async () => {
    renderWithAdmin(<AuditLogList />, { dataProvider: provider(), member: ADMIN });
    await screen.findByText('造价业务培训', undefined, WAIT);
    fireEvent.click(screen.getAllByRole('button', { name: '查看' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: '操作详情' }, WAIT);
    const table = within(dialog).getByRole('table', { name: '变更内容' });
    const cells = within(table).getAllByRole('row')[1]!.querySelectorAll('th, td');
    expect([...cells].map((c) => c.textContent)).toEqual(['名称', '旧名称', '造价业务培训']);
    // The close icon and the 关闭 button both close it.
    expect(within(dialog).getAllByRole('button', { name: '关闭' })).toHaveLength(2);
    fireEvent.click(within(dialog).getAllByRole('button', { name: '关闭' })[1]!);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), WAIT);
  });

  it('names the moved website in a sort entry', async () => {
    renderWithAdmin(<AuditLogList />, { dataProvider: provider(), member: ADMIN });
    await screen.findByText('网站排序', undefined, WAIT);
    fireEvent.click(screen.getAllByRole('button', { name: '查看' })[1]!);
    const dialog = await screen.findByRole('dialog', { name: '操作详情' }, WAIT);
    expect(within(dialog).getByText('住建部 · 排序')).toBeTruthy();
  });

  it('says 暂无数据 when nothing matches', async () => {
    renderWithAdmin(<AuditLogList />, { dataProvider: provider([], 0), member: ADMIN });
    expect(await screen.findByText('暂无数据', undefined, WAIT)).toBeTruthy();
  });

  it('says what went wrong when the log cannot be read', async () => {
    const dataProvider = {
      getList: vi.fn(async (resource: string) => {
        if (resource === 'member') return { data: [], total: 0 };
        throw new Error('仅管理员可以执行此操作');
      }),
    };
    renderWithAdmin(<AuditLogList />, { dataProvider, member: ADMIN });
    expect(await screen.findByText('操作日志加载失败：仅管理员可以执行此操作', undefined, WAIT)).toBeTruthy();
  });
});

describe('values of a change', () => {
  it('reads flags and choices by their labels, file lists, permissions, empties and secrets', () => {
    // A flag says what its schema labels it (a video's 置顶 / 不置顶), else 是 / 否.
    expect(formatValue('video', { field: 'IsTop', before: 0, after: 1 }, 'after')).toBe('置顶');
    expect(formatValue('video', { field: 'IsTop', before: 0, after: 1 }, 'before')).toBe('不置顶');
    expect(formatValue('member', { field: 'IsAdmin', before: 0, after: 1 }, 'after')).toBe('是');
    expect(formatValue('article', { field: 'SaType', before: 0, after: 1 }, 'after')).toBe('在线编辑');
    expect(formatValue('video', { field: 'VdEnclosure', after: ['a.pdf', 'b.pdf'] }, 'after')).toBe('a.pdf、b.pdf');
    expect(formatValue('member', { field: 'Modules', after: { video: '1,2', useweb: '' } }, 'after')).toBe('视频学习编辑：新增、查看');
    expect(formatValue('video', { field: 'VdPer', before: '', after: '王工' }, 'before')).toBe('（空）');
    expect(formatValue('video', { field: 'VdName', after: 'x' }, 'before')).toBe('—');
    expect(formatValue('member', { field: 'Password', redacted: true }, 'after')).toBe('已修改（内容不记录）');
  });
});
