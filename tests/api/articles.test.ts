// Classifications and articles on /Xcx1/ (document catalogues) and /Xcx3/ (unified answers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Client, type TestServer } from '../helpers/server';

let server: TestServer;
let admin: Client;

interface Classify {
  Id: number;
  ScCode: string;
  ScFatherCode: string;
  ScName: string;
  type: number;
}
interface Article {
  Id: number;
  SaCode: string;
  SaName: string;
  type: number;
  SaPdfUrl: string;
  SaPdfContent: string;
  SaAnswer: string;
}

const createClassify = async (service: 'Xcx1' | 'Xcx3', body: Record<string, unknown>) =>
  (await admin.call<Classify>(`/${service}/CreateStandardClassifyInAdmin`, { ScSort: 0, IsShow: 1, ScIsFirst: 0, ...body })).body.data;

beforeAll(async () => {
  server = await startServer();
  admin = await server.admin();
});
afterAll(() => server?.close());

describe('classifications', () => {
  it('lists a level by ScFatherCode and type, ordered by SC_SORT, and the whole tree with All=1', async () => {
    const b = await createClassify('Xcx1', { ScName: 'B', ScSort: 2, type: 1 });
    const a = await createClassify('Xcx1', { ScName: 'A', ScSort: 1, type: 1 });
    await createClassify('Xcx1', { ScName: 'A1', ScFatherCode: a.ScCode, type: 1 });
    await createClassify('Xcx1', { ScName: '其他类型', type: 2 });
    const top = await admin.call<Classify[]>('/Xcx1/GetStandardClassifyListInAdmin', {
      ScFatherCode: '0',
      type: 1,
      OrderName: 'SC_SORT ASC',
      pageIndex: 1,
      pageSize: 15,
    });
    expect(top.body.data.map((c) => c.ScName)).toEqual(['A', 'B']);
    expect(top.body.total).toBe(2);
    const tree = await admin.call<Classify[]>('/Xcx1/GetStandardClassifyListInAdmin', { All: 1, OrderName: 'SC_SORT ASC', type: 1 });
    expect(tree.body.data.map((c) => c.ScName).sort()).toEqual(['A', 'A1', 'B']);
    expect(b.ScFatherCode).toBe('0');
  });

  it('gives a child its parent type, whatever type is sent', async () => {
    const parent = await createClassify('Xcx1', { ScName: '父', type: 3 });
    const child = await createClassify('Xcx1', { ScName: '子', type: 0, ScFatherCode: parent.ScCode });
    expect(child.type).toBe(3);
    const moved = await admin.call<Classify>('/Xcx1/UpdateStandardClassifyInAdmin', { Id: child.Id, type: 1 });
    expect(moved.body.data.type).toBe(3);
  });

  it('refuses a parent that would make a cycle (409) and an unknown parent', async () => {
    const root = await createClassify('Xcx1', { ScName: '根', type: 0 });
    const mid = await createClassify('Xcx1', { ScName: '中', ScFatherCode: root.ScCode });
    const leaf = await createClassify('Xcx1', { ScName: '叶', ScFatherCode: mid.ScCode });
    expect((await admin.call('/Xcx1/UpdateStandardClassifyInAdmin', { Id: root.Id, ScFatherCode: leaf.ScCode })).status).toBe(409);
    expect((await admin.call('/Xcx1/UpdateStandardClassifyInAdmin', { Id: root.Id, ScFatherCode: root.ScCode })).status).toBe(409);
    const unknown = await admin.call('/Xcx1/UpdateStandardClassifyInAdmin', { Id: leaf.Id, ScFatherCode: 'nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors?.[0]?.field).toBe('ScFatherCode');
    const after = await admin.call<Classify[]>('/Xcx1/GetStandardClassifyListInAdmin', { All: 1 });
    expect(after.body.data.find((c) => c.Id === root.Id)?.ScFatherCode).toBe('0');
  });

  it('refuses to delete a classification with children or articles (409), then deletes it when empty', async () => {
    const parent = await createClassify('Xcx1', { ScName: '有子', type: 0 });
    const child = await createClassify('Xcx1', { ScName: '子分类', ScFatherCode: parent.ScCode });
    expect((await admin.call('/Xcx1/DeleteStandardClassifyInAdmin', { Id: parent.Id })).status).toBe(409);
    const article = await admin.call<Article>('/Xcx1/AddStandardArticleInAdmin', { ScCode: child.ScCode, SaName: '文' });
    const refused = await admin.call('/Xcx1/DeleteStandardClassifyInAdmin', { Id: child.Id });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toContain('文章');
    await admin.call('/Xcx1/DelStandardArticleInAdmin', { Id: article.body.data.Id });
    expect((await admin.call('/Xcx1/DeleteStandardClassifyInAdmin', { Id: child.Id })).body.msg).toBe('删除成功!');
    expect((await admin.call('/Xcx1/DeleteStandardClassifyInAdmin', { Id: parent.Id })).status).toBe(200);
  });

  it('accepts only uploaded or http(s) images', async () => {
    const bad = await admin.call('/Xcx1/CreateStandardClassifyInAdmin', { ScName: 'img', ScImg: 'javascript:alert(1)' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0]?.field).toBe('ScImg');
    const good = await createClassify('Xcx1', { ScName: 'img', ScImg: 'https://cdn.example.com/a.png', ScPageimg: 'https://cdn.example.com/b.png' });
    expect(good.ScName).toBe('img');
  });

  it('keeps /Xcx1/ and /Xcx3/ apart', async () => {
    const tykj = await createClassify('Xcx3', { ScName: '统一口径分类', type: 0 });
    const docs = await admin.call<Classify[]>('/Xcx1/GetStandardClassifyListInAdmin', { All: 1 });
    expect(docs.body.data.some((c) => c.ScCode === tykj.ScCode)).toBe(false);
    const cross = await admin.call('/Xcx1/AddStandardArticleInAdmin', { ScCode: tykj.ScCode, SaName: '跨服务' });
    expect(cross.status).toBe(400);
  });
});

describe('articles', () => {
  let atlas: Classify;
  let laws: Classify;

  beforeAll(async () => {
    atlas = await createClassify('Xcx1', { ScName: '图集', type: 0 });
    laws = await createClassify('Xcx1', { ScName: '法规', type: 1 });
  });

  it('takes its document type from its classification and sanitises content', async () => {
    const res = await admin.call<Article>('/Xcx1/AddStandardArticleInAdmin', {
      ScCode: laws.ScCode,
      SaName: '建筑法',
      SaType: 1,
      SaCodeName: '主席令第46号',
      IsCommon: 0,
      SaSort: 1,
      type: 0,
      SaPdfContent: '<h2>总则</h2><p onclick="x()">第一条</p><style>p{}</style><iframe src="https://evil"></iframe>',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.type).toBe(1);
    expect(res.body.data.SaPdfContent).toContain('第一条');
    expect(res.body.data.SaPdfContent).not.toMatch(/onclick|<style|<iframe/i);
  });

  it('requires a name with 必填 and a real category', async () => {
    const res = await admin.call('/Xcx1/AddStandardArticleInAdmin', { ScCode: atlas.ScCode, SaName: '' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field: 'SaName', msg: '必填' });
    const root = await admin.call('/Xcx1/AddStandardArticleInAdmin', { ScCode: '0', SaName: '根下' });
    expect(root.status).toBe(400);
  });

  it('lists with the default order, by category or by type for the root, and searches name or 文号', async () => {
    const sub = await createClassify('Xcx1', { ScName: '图集子类', ScFatherCode: atlas.ScCode });
    const add = (sc: Classify, body: Record<string, unknown>) =>
      admin.call<Article>('/Xcx1/AddStandardArticleInAdmin', { ScCode: sc.ScCode, PublishTime: '2026-01-01', ...body });
    await add(atlas, { SaName: '排序2', SaSort: 2 });
    await add(atlas, { SaName: '排序1旧', SaSort: 1, PublishTime: '2025-01-01' });
    await add(atlas, { SaName: '排序1置顶', SaSort: 1, IsCommon: 1, PublishTime: '2024-01-01' });
    await add(atlas, { SaName: '排序1新', SaSort: 1, PublishTime: '2026-06-01' });
    await add(sub, { SaName: '子类文章', SaSort: 0 });
    const order = 'SA_SORT ASC, IS_COMMON DESC, PUBLISH_TIME DESC';
    const inCategory = await admin.call<Article[]>('/Xcx1/GetStandardArticleListInAdmin', { ScCode: atlas.ScCode, OrderName: order, type: 0 });
    expect(inCategory.body.data.map((a) => a.SaName)).toEqual(['排序1置顶', '排序1新', '排序1旧', '排序2']);
    for (const root of [null, '', '0']) {
      const all = await admin.call<Article[]>('/Xcx1/GetStandardArticleListInAdmin', { ScCode: root, OrderName: order, type: 0 });
      expect(all.body.total, String(root)).toBe(5);
    }
    const search = await admin.call<Article[]>('/Xcx1/GetStandardArticleListInAdmin', { type: 0, SaName: '置顶' });
    expect(search.body.data.map((a) => a.SaName)).toEqual(['排序1置顶']);
    await admin.call('/Xcx1/AddStandardArticleInAdmin', { ScCode: laws.ScCode, SaName: '条例', SaCodeName: '国务院令第279号' });
    const byNumber = await admin.call<Article[]>('/Xcx1/GetStandardArticleListInAdmin', { type: 1, SaCodeName: '279' });
    expect(byNumber.body.data.map((a) => a.SaName)).toEqual(['条例']);
  });

  it('reads one article by Code, code or Id', async () => {
    const a = (await admin.call<Article>('/Xcx1/AddStandardArticleInAdmin', { ScCode: atlas.ScCode, SaName: '单篇' })).body.data;
    for (const params of [{ Code: a.SaCode }, { code: a.SaCode }, { Id: a.Id }] as Record<string, string | number>[]) {
      const res = await admin.get<Article>('/Xcx1/GetStandardArticleInfoInAdmin', params);
      expect(res.body.data.SaName, JSON.stringify(params)).toBe('单篇');
    }
    expect((await admin.call('/Xcx1/GetStandardArticleInfoInAdmin', { Code: 'nope' })).status).toBe(404);
  });

  it('validates and normalises file lists', async () => {
    const files = [
      { name: '正文.pdf', url: 'https://cdn.example.com/a.pdf' },
      { name: '附件.zip', url: 'https://cdn.example.com/b.zip', extra: 'dropped' },
    ];
    const ok = await admin.call<Article>('/Xcx1/AddStandardArticleInAdmin', { ScCode: atlas.ScCode, SaName: '文件', SaPdfUrl: JSON.stringify(files) });
    expect(JSON.parse(ok.body.data.SaPdfUrl)).toEqual(files.map(({ name, url }) => ({ name, url })));
    for (const bad of ['not json', '{"name":"a"}', JSON.stringify([{ name: 'x', url: 'javascript:alert(1)' }])]) {
      const res = await admin.call('/Xcx1/AddStandardArticleInAdmin', { ScCode: atlas.ScCode, SaName: '坏', SaPdfUrl: bad });
      expect(res.status, bad).toBe(400);
      expect(res.body.errors?.[0]?.field).toBe('SaPdfUrl');
    }
  });

  it('moves an article to another category and deletes it', async () => {
    const a = (await admin.call<Article>('/Xcx1/AddStandardArticleInAdmin', { ScCode: atlas.ScCode, SaName: '移动' })).body.data;
    const moved = await admin.call<Article>('/Xcx1/UpdateStandardArticleInAdmin', { Id: a.Id, ScCode: laws.ScCode });
    expect(moved.body.data.type).toBe(1);
    expect((await admin.call('/Xcx1/DelStandardArticleInAdmin', { Id: a.Id })).body.msg).toBe('删除成功!');
    expect((await admin.call('/Xcx1/GetStandardArticleInfoInAdmin', { Id: a.Id })).status).toBe(404);
  });

  it('stores unified answers with sanitised question and answer on /Xcx3/', async () => {
    const sc = await createClassify('Xcx3', { ScName: '计价', type: 0 });
    const qa = await admin.call<Article>('/Xcx3/AddStandardArticleInAdmin', {
      ScCode: sc.ScCode,
      SaName: '暂列金额',
      SaProblem: '<p>如何计取？</p>',
      SaAnswer: '<p>按<b>10%</b></p><a href="javascript:alert(1)">x</a>',
    });
    expect(qa.body.data.SaAnswer).toContain('<b>10%</b>');
    expect(qa.body.data.SaAnswer).not.toContain('javascript:');
    const list = await admin.call<Article[]>('/Xcx3/GetStandardArticleListInAdmin', { ScCode: sc.ScCode });
    expect(list.body.data.map((a) => a.SaName)).toEqual(['暂列金额']);
    const docs = await admin.call<Article[]>('/Xcx1/GetStandardArticleListInAdmin', { SaName: '暂列金额' });
    expect(docs.body.total).toBe(0);
  });

  it('lists without the bodies (问题, 统一回答, content), which the info call returns', async () => {
    const big = `<p>${'很长的正文。'.repeat(2000)}</p>`;
    const tykj = await createClassify('Xcx3', { ScName: '长文', type: 0 });
    const qa = (await admin.call<Article>('/Xcx3/AddStandardArticleInAdmin', { ScCode: tykj.ScCode, SaName: '长问答', SaProblem: big, SaAnswer: big })).body.data;
    const doc = await createClassify('Xcx1', { ScName: '长文档', type: 1 });
    const article = (await admin.call<Article>('/Xcx1/AddStandardArticleInAdmin', { ScCode: doc.ScCode, SaName: '长文章', SaType: 1, SaPdfContent: big })).body.data;
    for (const [service, ScCode, id] of [['Xcx3', tykj.ScCode, qa.Id], ['Xcx1', doc.ScCode, article.Id]] as const) {
      for (const params of [{ ScCode }, { ScCode, All: 1 }]) {
        const list = await admin.call<Record<string, unknown>[]>(`/${service}/GetStandardArticleListInAdmin`, params);
        expect(list.body.data).toHaveLength(1);
        const row = list.body.data[0]!;
        expect(row.SaName).toBeDefined();
        for (const body of ['SaProblem', 'SaAnswer', 'SaPdfContent']) expect(row, `${service} ${body}`).not.toHaveProperty(body);
        expect(JSON.stringify(list.body).length).toBeLessThan(2000);
      }
      const one = await admin.call<Record<string, unknown>>(`/${service}/GetStandardArticleInfoInAdmin`, { Id: id });
      expect(String(one.body.data[service === 'Xcx3' ? 'SaAnswer' : 'SaPdfContent'])).toContain('很长的正文');
    }
    // Comments are shown with their text in the list: VmDes stays.
  });
});
