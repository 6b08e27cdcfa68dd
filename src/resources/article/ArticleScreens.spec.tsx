// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeMember, renderWithAdmin } from '../../test/renderWithAdmin';
import ArticleManage from './ArticleManage';
import { PreviewDialog } from './ArticleView';

afterEach(cleanup);

const classes = [
  { id: 1, Id: 1, ScCode: 'a', ScFatherCode: '0', ScName: '建筑专业', ScSort: 1, type: 0 },
  { id: 2, Id: 2, ScCode: 'b', ScFatherCode: '0', ScName: '结构专业', ScSort: 2, type: 0 },
];
const articles = [{ id: 9, Id: 9, SaCode: 'x', ScCode: 'a', SaType: 0, SaName: '12J201 平屋面建筑构造', SaSort: 3, SaPdfUrl: '[]' }];

function provider() {
  return {
    getList: vi.fn(async (resource: string) =>
      resource === 'classify' ? { data: classes, total: classes.length } : { data: articles, total: articles.length },
    ),
  };
}

// The first render loads react-admin and MUI cold: give it room on a busy machine.
describe('文章目录管理', { timeout: 20_000 }, () => {
  it('selects 全部 first, and offers 新增文件 only under a category to a member holding code 1', async () => {
    const dataProvider = provider();
    renderWithAdmin(<ArticleManage />, {
      dataProvider,
      member: fakeMember({ Modules: { article: '1,2' } }),
      initialEntries: ['/Knowledge/Article/Manage?type=0'],
    });
    await screen.findByText('12J201 平屋面建筑构造');
    // 全部 is named above the table at once; the classifications are asked for once the articles
    // are shown, and the tree follows into its pane.
    expect(await screen.findByRole('heading', { name: '全部' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '新增文件' })).toBeNull();
    await waitFor(() => expect(dataProvider.getList).toHaveBeenCalledWith('classify', expect.objectContaining({ filter: { All: 1, type: 0 } })));
    expect(dataProvider.getList).toHaveBeenCalledWith(
      'article',
      expect.objectContaining({ filter: { ScCode: '0', type: 0 }, pagination: { page: 1, perPage: 15 } }),
    );

    // The tree is a chunk of its own: it may show after the table.
    fireEvent.click(await screen.findByText('建筑专业'));
    expect(await screen.findByRole('button', { name: '新增文件' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: '建筑专业' })).toBeTruthy();
    // No code 3 or 4: 查看 only.
    // Another category is another list: wait for its rows.
    const row = (await screen.findByText('12J201 平屋面建筑构造')).closest('tr') as HTMLElement;
    expect(within(row).getByRole('button', { name: '查看' })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: '编辑' })).toBeNull();
    expect(within(row).queryByRole('button', { name: '删除' })).toBeNull();
  });

  it('gives no 新增文件 to a member without code 1', async () => {
    renderWithAdmin(<ArticleManage />, {
      dataProvider: provider(),
      member: fakeMember({ Modules: { article: '2,3,4' } }),
      initialEntries: ['/Knowledge/Article/Manage?type=0'],
    });
    await screen.findByText('12J201 平屋面建筑构造');
    // The tree is a chunk of its own: it may show after the table.
    fireEvent.click(await screen.findByText('建筑专业'));
    await screen.findByRole('heading', { name: '建筑专业' });
    expect(screen.queryByRole('button', { name: '新增文件' })).toBeNull();
    expect((await screen.findAllByRole('button', { name: '编辑' })).length).toBeGreaterThan(0);
  });
});

describe('预览', () => {
  it('shows the content read with the code, without scripts, styles or handlers', async () => {
    const getOne = vi.fn(async () => ({
      data: {
        id: 4,
        Id: 4,
        SaName: '敌意文章',
        SaPdfContent: '<p>正文</p><img src=x onerror="window.__xss=1"><script>window.__xss=2</script><style>body{display:none}</style>',
      },
    }));
    renderWithAdmin(<PreviewDialog resource="article" record={{ id: 4, SaCode: 'code-4' }} onClose={() => undefined} />, {
      dataProvider: { getOne },
      member: fakeMember({ IsAdmin: 1 }),
    });
    const dialog = await screen.findByRole('dialog', { name: '预览' });
    await within(dialog).findByText('正文');
    expect(getOne).toHaveBeenCalledWith('article', expect.objectContaining({ id: 4, meta: { code: 'code-4' } }));
    expect(dialog.querySelector('script, style, [onerror]')).toBeNull();
    expect(dialog.textContent).not.toContain('__xss');
    expect(dialog.textContent).not.toContain('display:none');
    expect((window as { __xss?: unknown }).__xss).toBeUndefined();
  });
});
