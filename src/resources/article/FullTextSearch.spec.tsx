// @vitest-environment jsdom
// 全文 in the article catalogue, against the wire contract (docs/api.md): the call and its
// parameters come from the descriptor, the hits replace the table, the snippet's words are marked
// and the snippet is text, a PDF's hit links to its page, and the totals, empty and failed states.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpError } from 'react-admin';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { articleResource } from '../../../schemas/standardArticle';
import type { FullTextHit } from '../../../schemas/fullText';
import { fakeMember, renderWithAdmin } from '../../test/renderWithAdmin';
import ArticleCatalogue from './ArticleCatalogue';

afterEach(cleanup);

const classes = [
  { id: 1, Id: 1, ScCode: 'law', ScFatherCode: '0', ScName: '法律', ScSort: 1, type: 1 },
  { id: 2, Id: 2, ScCode: 'civil', ScFatherCode: 'law', ScName: '民事', ScSort: 1, type: 1 },
];
const articles = [{ id: 9, Id: 9, SaCode: 'x', ScCode: 'law', SaType: 0, SaName: '中华人民共和国建筑法', SaCodeName: '主席令第46号', SaPdfUrl: '[]' }];

const hit = (over: Partial<FullTextHit>): FullTextHit => ({
  Id: 5,
  SaCode: 'c5',
  SaName: '城市轨道交通计价办法',
  SaCodeName: '建标〔2026〕7号',
  ScCode: 'civil',
  type: 1,
  Source: 'file',
  FileName: '计价办法.pdf',
  FileUrl: '/files/handout/2026/11/a.pdf',
  Page: 2,
  Snippet: '区间隧道采用盾构管片拼装工艺<b>不是标记</b>',
  Highlights: [[6, 6]],
  ...over,
});

function provider(call: (...args: unknown[]) => Promise<unknown>) {
  return {
    getList: vi.fn(async (resource: string) => (resource === 'classify' ? { data: classes, total: classes.length } : { data: articles, total: articles.length })),
    call: vi.fn(call),
  };
}

async function searchFullText(text: string) {
  await screen.findByText('中华人民共和国建筑法');
  fireEvent.mouseDown(screen.getByRole('combobox', { name: '搜索字段' }));
  fireEvent.click(await screen.findByRole('option', { name: '全文' }));
  fireEvent.change(screen.getByRole('textbox', { name: '搜索内容' }), { target: { value: `  ${text} ` } });
  fireEvent.click(screen.getByRole('button', { name: '搜索' }));
}

const render = (dataProvider: ReturnType<typeof provider>, at = '/Knowledge/Article/Catalogue?type=1') =>
  renderWithAdmin(<ArticleCatalogue />, { dataProvider, member: fakeMember({ Modules: { article: '2' } }), initialEntries: [at] });

describe('全文 in the article catalogue', { timeout: 20_000 }, () => {
  it('sends the descriptor’s call with the text, the type and the category; shows the hits in place of the table', async () => {
    const dataProvider = provider(async () => ({ data: [hit({}), hit({ Source: 'content', FileName: undefined, FileUrl: undefined, Page: undefined, Snippet: '正文', Highlights: [] })], total: 1000, totalCapped: true, msg: '' }));
    render(dataProvider, '/Knowledge/Article/Catalogue?type=1&ScCode=law');
    await searchFullText('盾构管片拼装');
    const list = await screen.findByRole('list', { name: '全文搜索结果' });
    expect(dataProvider.call).toHaveBeenCalledWith(articleResource.service, articleResource.fullText!.call, {
      Text: '盾构管片拼装',
      type: 1,
      ScCode: 'law',
      PageIndex: 1,
      PageSize: 20,
    });
    expect(screen.queryByText('中华人民共和国建筑法')).toBeNull();
    const [fileHit, contentHit] = within(list).getAllByRole('listitem');
    // The snippet is text: the server's markup shows as characters, the words in <mark>.
    expect([...fileHit!.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['盾构管片拼装']);
    expect(fileHit!.querySelector('b')).toBeNull();
    expect(fileHit!.textContent).toContain('<b>不是标记</b>');
    expect(fileHit!.textContent).toContain('来源：计价办法.pdf 第 2 页');
    expect(fileHit!.textContent).toContain('所在分类：法律 / 民事');
    expect(fileHit!.textContent).toContain('建标〔2026〕7号');
    const link = within(fileHit!).getByRole('link', { name: '城市轨道交通计价办法' });
    expect(link.getAttribute('href')).toBe('/files/handout/2026/11/a.pdf#page=2');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(contentHit!.textContent).toContain('来源：内容');
    expect(screen.getByRole('navigation', { name: '分页' }).textContent).toContain('共 1000+ 条');
  });

  it('pages the hits: 共 N 条 and the page asked for', async () => {
    const dataProvider = provider(async () => ({ data: [hit({})], total: 45, msg: '' }));
    render(dataProvider);
    await searchFullText('计价');
    const pager = await screen.findByRole('navigation', { name: '分页' });
    expect(pager.textContent).toContain('共 45 条');
    fireEvent.click(within(pager).getByRole('button', { name: '第 3 页' }));
    await waitFor(() => expect(dataProvider.call).toHaveBeenLastCalledWith('Xcx1', articleResource.fullText!.call, expect.objectContaining({ Text: '计价', PageIndex: 3 })));
    // Another text starts again at page 1.
    fireEvent.change(screen.getByRole('textbox', { name: '搜索内容' }), { target: { value: '造价' } });
    fireEvent.click(screen.getByRole('button', { name: '搜索' }));
    await waitFor(() => expect(dataProvider.call).toHaveBeenLastCalledWith('Xcx1', articleResource.fullText!.call, expect.objectContaining({ Text: '造价', PageIndex: 1 })));
  });

  it('says when nothing is found, and when the search failed', async () => {
    const empty = provider(async () => ({ data: [], total: 0, msg: '' }));
    render(empty);
    await searchFullText('不存在');
    expect(await screen.findByText('未找到包含“不存在”的文档')).toBeTruthy();
    // The whole catalogue: no category sent.
    expect(empty.call.mock.calls[0]![2]).not.toHaveProperty('ScCode');
    cleanup();

    const failing = provider(async () => {
      throw new HttpError('无权限', 403);
    });
    render(failing);
    await searchFullText('造价');
    expect(await screen.findByText('搜索失败：无权限')).toBeTruthy();
    await waitFor(() => expect(failing.call).toHaveBeenCalledTimes(1));
  });
});
