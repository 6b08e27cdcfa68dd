// 全文 (docs/api.md, Full-text search): words inside the articles' files and bodies and inside
// 统一口径 are found as a substring scan of the stored text finds them (words, phrases, fragments,
// 文号), with the list's permission and filters applied inside the query; a deleted article is never
// returned; the administrators' state and retry; a job left by a dead indexer is resumed. With
// TEST_DATABASE_URL the same queries run on PostgreSQL and on SQLite, and the answers are compared.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedUpload } from '../../schemas/types';
import type { FullTextHit, FullTextIndexState } from '../../schemas/fullText';
import { articleResource } from '../../schemas/standardArticle';
import { makeDocx } from '../fixtures/documents/makeDocx';
import { makePdf } from '../fixtures/documents/makePdf';
import { insertPages, type AnyDb } from '../../server/src/fullText/store';
import { storageEnv, type LocalS3 } from '../helpers/s3rver';
import { startServer, until, type Client, type TestServer } from '../helpers/server';

interface Classify {
  ScCode: string;
}

interface Setup {
  server: TestServer;
  admin: Client;
  ids: Record<string, number>;
  codes: Record<string, string>;
}

const search = (client: Client, service: 'Xcx1' | 'Xcx3', params: Record<string, string | number>) =>
  client.get<FullTextHit[]>(`/${service}/SearchStandardArticleFullTextInAdmin`, { PageSize: 50, ...params }) as unknown as Promise<{
    status: number;
    body: { code: number; msg: string; data: FullTextHit[]; total: number; totalCapped: boolean };
  }>;

async function upload(server: TestServer, admin: Client, FileName: string, bytes: Uint8Array<ArrayBuffer>, ContentType: string) {
  const signed = await admin.call<SignedUpload>('/Ajax/SignUpload', { FileName, Size: bytes.length, Kind: 'handout', ContentType });
  expect(signed.status, signed.body.msg).toBe(200);
  const url = signed.body.data.Url.startsWith('/') ? server.url + signed.body.data.Url : signed.body.data.Url;
  const put = await fetch(url, { method: 'PUT', headers: signed.body.data.Headers, body: bytes });
  expect(put.status).toBe(200);
  return { name: FileName, url: signed.body.data.FileUrl };
}

const indexState = async (admin: Client) => (await admin.get<FullTextIndexState>('/Ajax/GetFullTextIndexState')).body;
const indexed = (admin: Client) => until(async () => (await indexState(admin)).data.Waiting === 0, 'the index to catch up', 60_000);

/** The same records on a server: two article trees (a category with a child), another type, 统一口径, a file, a body. */
async function fill(server: TestServer): Promise<Setup> {
  const admin = await server.admin();
  const classify = async (service: string, body: Record<string, unknown>) => {
    const res = await admin.call<Classify>(`/${service}/CreateStandardClassifyInAdmin`, { ScSort: 0, IsShow: 1, ScIsFirst: 0, ...body });
    expect(res.status, res.body.msg).toBe(200);
    return res.body.data.ScCode;
  };
  const codes: Record<string, string> = {};
  codes.norms = await classify('Xcx1', { ScName: '计价规范', type: 0 });
  codes.child = await classify('Xcx1', { ScName: '清单计价', type: 0, ScFatherCode: codes.norms });
  codes.laws = await classify('Xcx1', { ScName: '法律法规', type: 1 });
  codes.tykj = await classify('Xcx3', { ScName: '造价口径', type: 0 });
  const ids: Record<string, number> = {};
  const add = async (service: string, key: string, body: Record<string, unknown>) => {
    const res = await admin.call<{ Id: number }>(`/${service}/AddStandardArticleInAdmin`, body);
    expect(res.status, res.body.msg).toBe(200);
    ids[key] = res.body.data.Id;
  };
  await add('Xcx1', 'body', {
    ScCode: codes.child,
    SaName: '建设工程工程量清单计价规范',
    SaType: 1,
    SaCodeName: '建标〔2013〕44号',
    SaPdfContent:
      '<p>依据建标〔2013〕44号文件，建设工程造价由分部分项工程费、措施项目费组成。</p><p>招标控制价应按清单计价规范编制。</p>',
  });
  const text = new TextEncoder().encode('标准图集 16G101 说明\n\n施工单位应按图集施工，工程造价按定额计算。\n招标控制价不得上浮。');
  const file = await upload(server, admin, '图集说明.txt', text, 'text/plain');
  await add('Xcx1', 'file', { ScCode: codes.norms, SaName: '图集说明', SaType: 0, SaPdfUrl: JSON.stringify([file]) });
  // A PDF of three pages whose font maps 工 and 页 to CJK radicals and whose lines are cut inside words.
  const pdf = makePdf(
    ['第一页 本图集适用于工程造价咨询。', '第二页 钢筋混凝土结构施工图平面整体表示方法制图规则和构造详图，招标控制价另计。', '第三页 附录：页码与工程量编号对照。'],
    { radicals: true, brokenLines: true },
  );
  const pdfFile = await upload(server, admin, '16G101-1.pdf', new Uint8Array(pdf), 'application/pdf');
  const docx = makeDocx(['公司通用文档', '造价咨询合同的签订与履行。']);
  const docxFile = await upload(server, admin, '合同管理.docx', new Uint8Array(docx), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  await add('Xcx1', 'pdf', { ScCode: codes.norms, SaName: '平法图集', SaType: 0, SaPdfUrl: JSON.stringify([pdfFile, docxFile]) });
  await add('Xcx1', 'law', {
    ScCode: codes.laws,
    SaName: '招标投标法',
    SaType: 1,
    // 工程，造价: a phrase does not reach over punctuation, as a substring scan does not.
    SaPdfContent: '<p>本法所称工程，造价另行规定。清单由招标人编制。</p>',
  });
  await add('Xcx3', 'tykj', {
    ScCode: codes.tykj,
    SaName: '工程造价口径',
    SaProblem: '<p>如何确定工程造价？</p>',
    SaAnswer: '<p>按清单计价规范与定额计算。</p>',
  });
  await indexed(admin);
  return { server, admin, ids, codes };
}

/** Whitespace out, brackets of every width alike: how the index reads text (server/src/fullText/tokens.ts). */
const squeeze = (text: string) => text.replace(/\s+/g, '').replace(/[〔［【]/g, '[').replace(/[〕］】]/g, ']').toLowerCase();

/** What a substring scan of the stored text of a table finds: one key per record, source, file and page. */
async function scan(server: TestServer, table: string, query: string): Promise<string[]> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the index's tables are not typed
  const db = server.app.database.db as any;
  const { rows } = (await sql`select "RECORD_ID", "SOURCE", "FILE_URL", "PAGE", "TEXT" from "FT_PAGE" where "TBL" = ${table}`.execute(db)) as {
    rows: { RECORD_ID: number; SOURCE: string; FILE_URL: string; PAGE: number; TEXT: string }[];
  };
  return [...new Set(rows.filter((r) => squeeze(r.TEXT).includes(squeeze(query))).map((r) => `${r.RECORD_ID} ${r.SOURCE} ${r.FILE_URL} ${Number(r.PAGE)}`))].sort();
}

const keyOf = (h: FullTextHit) => `${h.Id} ${h.Source} ${h.FileUrl ?? ''} ${h.Page ?? 0}`;

/** A fixed list of queries: words of two characters, a phrase, fragments, 文号 and their parts. */
const QUERIES = ['造价', '清单', '图集', '定额', '计价规范', '程造价', '招标控制价', '建标〔2013〕44号', '44号', '2013', '16G101', 'g101', '不存在的词'];

let main: Setup;

beforeAll(async () => {
  main = await fill(await startServer());
}, 180_000);

afterAll(async () => {
  await main?.server.close();
});

describe('full-text search', () => {
  it('finds what a substring scan of the stored text finds, for every query of the list', async () => {
    for (const query of QUERIES) {
      const res = await search(main.admin, 'Xcx1', { Text: query });
      expect(res.status, res.body.msg).toBe(200);
      const expected = await scan(main.server, 'DOC_ARTICLE', query);
      expect(res.body.data.map(keyOf).sort(), query).toEqual(expected);
      expect(res.body.total, query).toBe(expected.length);
      expect(res.body.totalCapped).toBe(false);
      if (query !== '不存在的词') expect(expected.length, `${query} is in the fixture`).toBeGreaterThan(0);
    }
  });

  it('finds pages written before NORM was (empty) as well, by the index', async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the index's tables are not typed
    const db = main.server.app.database.db as any;
    const saved = (await db.selectFrom('FT_PAGE').select(['ID', 'NORM']).execute()) as { ID: number; NORM: string }[];
    await db.updateTable('FT_PAGE').set({ NORM: '' }).execute();
    try {
      for (const query of QUERIES) {
        const res = await search(main.admin, 'Xcx1', { Text: query });
        expect(res.body.data.map(keyOf).sort(), query).toEqual(await scan(main.server, 'DOC_ARTICLE', query));
      }
    } finally {
      for (const { ID, NORM } of saved) await db.updateTable('FT_PAGE').set({ NORM }).where('ID', '=', ID).execute();
    }
  });

  it('finds a 文号 typed with other brackets, and highlights the words in the snippet', async () => {
    const res = await search(main.admin, 'Xcx1', { Text: '建标[2013]44号' });
    expect(res.body.data.map((h) => h.Id)).toEqual([main.ids.body]);
    const hit = (await search(main.admin, 'Xcx1', { Text: '程造价' })).body.data.find((h) => h.Id === main.ids.body)!;
    expect(hit.Source).toBe('content');
    expect(hit.Highlights.length).toBeGreaterThan(0);
    for (const [start, length] of hit.Highlights) expect(hit.Snippet.slice(start, start + length)).toBe('程造价');
    expect(hit.SaName).toBe('建设工程工程量清单计价规范');
    expect(hit.SaCodeName).toBe('建标〔2013〕44号');
  });

  it('says which file a word is in', async () => {
    const res = await search(main.admin, 'Xcx1', { Text: '上浮' });
    expect(res.body.data).toHaveLength(1);
    const [hit] = res.body.data;
    expect(hit!.Id).toBe(main.ids.file);
    expect(hit!.Source).toBe('file');
    expect(hit!.FileName).toBe('图集说明.txt');
    expect(hit!.FileUrl).toMatch(/^\/files\/handout\//);
    expect(hit!.Snippet.slice(hit!.Highlights[0]![0], hit!.Highlights[0]![0] + hit!.Highlights[0]![1])).toBe('上浮');
  });

  it('finds words on the page of a PDF they are on (radicals read as ideographs, lines cut inside words), and in a DOCX', async () => {
    const page = async (text: string) => (await search(main.admin, 'Xcx1', { Text: text })).body.data.filter((h) => h.Id === main.ids.pdf).map((h) => [h.FileName, h.Page ?? 0]);
    expect(await page('制图规则和构造详图')).toEqual([['16G101-1.pdf', 2]]);
    expect(await page('钢筋混凝土结构施工图平面整体表示方法')).toEqual([['16G101-1.pdf', 2]]);
    // 工 and 页 came as ⼯ (U+2F2F) and ⻚ (U+2EDA).
    expect(await page('工程造价咨询')).toEqual([['16G101-1.pdf', 1]]);
    expect(await page('页码')).toEqual([['16G101-1.pdf', 3]]);
    expect(await page('签订与履行')).toEqual([['合同管理.docx', 0]]);
    const state = await indexState(main.admin);
    expect(state.data.Failures.filter((f) => f.Id === main.ids.pdf)).toEqual([]);
  });

  it('keeps to the document type and to a category with everything under it', async () => {
    const ids = async (params: Record<string, string | number>) => (await search(main.admin, 'Xcx1', { Text: '清单', ...params })).body.data.map((h) => h.Id).sort();
    expect(await ids({})).toEqual([main.ids.body, main.ids.law].sort());
    expect(await ids({ type: 1 })).toEqual([main.ids.law]);
    expect(await ids({ type: 0 })).toEqual([main.ids.body]);
    expect(await ids({ ScCode: main.codes.norms! })).toEqual([main.ids.body]);
    expect(await ids({ ScCode: main.codes.child! })).toEqual([main.ids.body]);
    expect(await ids({ ScCode: main.codes.laws! })).toEqual([main.ids.law]);
    // The root of the tree: everywhere.
    expect(await ids({ ScCode: '0' })).toEqual([main.ids.body, main.ids.law].sort());
  });

  it('follows a move to another category and type at once, in the move\'s own transaction', async () => {
    const { admin, ids, codes } = main;
    const ids_ = async (params: Record<string, string | number>) => (await search(admin, 'Xcx1', { Text: '招标人', ...params })).body.data.map((h) => h.Id);
    expect((await admin.call('/Xcx1/UpdateStandardArticleInAdmin', { Id: ids.law, ScCode: codes.child })).status).toBe(200);
    // No indexing waited for: the pages' copies moved with the record.
    expect(await ids_({ type: 1 })).toEqual([]);
    expect(await ids_({ type: 0, ScCode: codes.norms! })).toEqual([ids.law]);
    expect((await admin.call('/Xcx1/UpdateStandardArticleInAdmin', { Id: ids.law, ScCode: codes.laws })).status).toBe(200);
    expect(await ids_({ type: 1, ScCode: codes.laws! })).toEqual([ids.law]);
    expect(await ids_({ ScCode: codes.child! })).toEqual([]);
    await indexed(admin);
  });

  it('searches 统一口径 in its 问题 and 统一回答', async () => {
    const problem = await search(main.admin, 'Xcx3', { Text: '确定工程造价' });
    expect(problem.body.data.map((h) => [h.Id, h.Source])).toEqual([[main.ids.tykj, 'problem']]);
    const answer = await search(main.admin, 'Xcx3', { Text: '计价规范' });
    expect(answer.body.data.map((h) => [h.Id, h.Source])).toEqual([[main.ids.tykj, 'answer']]);
    // The articles' words are not 统一口径's.
    expect((await search(main.admin, 'Xcx3', { Text: '上浮' })).body.data).toEqual([]);
  });

  it('refuses an empty or too long text and a page too large', async () => {
    expect((await search(main.admin, 'Xcx1', { Text: '   ' })).status).toBe(400);
    expect((await search(main.admin, 'Xcx1', { Text: '造'.repeat(101) })).status).toBe(400);
    expect((await search(main.admin, 'Xcx1', { Text: '造'.repeat(100) })).status).toBe(200);
    expect((await search(main.admin, 'Xcx1', { Text: '造价', PageSize: 51 })).status).toBe(400);
    expect((await main.admin.get('/Xcx1/SearchStandardArticleFullTextInAdmin', {})).status).toBe(400);
  });

  it("answers a member as the list does: 403 without the module's view code", async () => {
    const tykjOnly = await main.server.member({ tykj: '2' });
    expect((await search(tykjOnly, 'Xcx1', { Text: '造价' })).status).toBe(403);
    expect((await search(tykjOnly, 'Xcx3', { Text: '造价' })).status).toBe(200);
    const articleViewer = await main.server.member({ article: '2' });
    expect((await search(articleViewer, 'Xcx1', { Text: '造价' })).body.data.length).toBeGreaterThan(0);
    expect((await search(articleViewer, 'Xcx3', { Text: '造价' })).status).toBe(403);
    expect((await main.server.client().get('/Xcx1/SearchStandardArticleFullTextInAdmin', { Text: '造价' })).status).toBe(401);
  });

  it('follows a change of the body, and never returns a deleted article', async () => {
    const { admin, ids, codes } = main;
    const res = await admin.call<{ Id: number }>('/Xcx1/AddStandardArticleInAdmin', { ScCode: codes.norms, SaName: '临时文章', SaType: 1, SaPdfContent: '<p>独一无二的旧词语</p>' });
    const id = res.body.data.Id;
    await indexed(admin);
    expect((await search(admin, 'Xcx1', { Text: '旧词语' })).body.data.map((h) => h.Id)).toEqual([id]);
    await admin.call('/Xcx1/UpdateStandardArticleInAdmin', { Id: id, ScCode: codes.norms, SaName: '临时文章', SaType: 1, SaPdfContent: '<p>换成了新词语</p>' });
    await indexed(admin);
    expect((await search(admin, 'Xcx1', { Text: '旧词语' })).body.data).toEqual([]);
    expect((await search(admin, 'Xcx1', { Text: '新词语' })).body.data.map((h) => h.Id)).toEqual([id]);
    // Gone with the delete's own transaction: the very next search, before any indexing.
    expect((await admin.call('/Xcx1/DelStandardArticleInAdmin', { Id: id })).status).toBe(200);
    expect((await search(admin, 'Xcx1', { Text: '新词语' })).body.data).toEqual([]);
    expect(ids.body).toBeDefined();
  });

  it('lists a file it cannot read for the administrators, and retries it', async () => {
    const { server, admin, codes } = main;
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...new Array<number>(60).fill(0)]);
    const file = await upload(server, admin, '资料.zip', zip, 'application/zip');
    const res = await admin.call<{ Id: number }>('/Xcx1/AddStandardArticleInAdmin', { ScCode: codes.norms, SaName: '压缩包文章', SaType: 0, SaPdfUrl: JSON.stringify([file]) });
    expect(res.status, res.body.msg).toBe(200);
    await indexed(admin);
    const state = await indexState(admin);
    expect(state.data.Failed).toBeGreaterThanOrEqual(1);
    expect(state.data.Indexed).toBeGreaterThanOrEqual(4);
    const failure = state.data.Failures.find((f) => f.Id === res.body.data.Id)!;
    expect(failure).toMatchObject({ Table: 'DOC_ARTICLE', Resource: 'article', SaName: '压缩包文章', FileName: '资料.zip' });
    expect(failure.Reason).not.toBe('');
    expect(Number.isNaN(Date.parse(failure.When))).toBe(false);

    const retried = await admin.call<{ Queued: number }>('/Ajax/RetryFullTextIndex', {});
    expect(retried.status, retried.body.msg).toBe(200);
    expect(retried.body.data.Queued).toBeGreaterThanOrEqual(1);
    await indexed(admin);
    expect((await indexState(admin)).data.Failures.some((f) => f.Id === res.body.data.Id)).toBe(true);

    const staff = await server.member({ article: '1,2,3,4' });
    expect((await staff.get('/Ajax/GetFullTextIndexState')).status).toBe(403);
    expect((await staff.call('/Ajax/RetryFullTextIndex', {})).status).toBe(403);
  });

  it('counts up to 1000 and says "1000+" past it, pages of 20 ranked with snippets', async () => {
    const { server, admin, codes } = main;
    const res = await admin.call<{ Id: number; ScCode: string }>('/Xcx1/AddStandardArticleInAdmin', { ScCode: codes.norms, SaName: '千页文件', SaType: 0 });
    const id = res.body.data.Id;
    await indexed(admin);
    // 1,005 pages as if read from a PDF, written by the indexer's own page writer.
    const pages = Array.from({ length: 1005 }, (_, n) => ({ source: 'file', fileName: '千页.pdf', fileUrl: '/files/handout/2026/01/x.pdf', page: n + 1, text: `第${n + 1}页 常见词${'。'.repeat(n % 7)} 常见词${n % 3 === 0 ? ' 少见词' : ''}` }));
    const database = server.app.database;
    await (database.db as unknown as AnyDb).transaction().execute((trx) => insertPages(trx, database.dialect, articleResource, { Id: id, type: 0, ScCode: codes.norms }, id, pages, { type: 0, category: codes.norms }));
    const first = await search(admin, 'Xcx1', { Text: '常见词', PageSize: 20 });
    expect(first.body.total).toBe(1000);
    expect(first.body.totalCapped).toBe(true);
    expect(first.body.data).toHaveLength(20);
    expect(first.body.data.every((h) => h.Highlights.length === 2 && h.Page! >= 1)).toBe(true);
    const tenth = await search(admin, 'Xcx1', { Text: '常见词', PageSize: 20, PageIndex: 50 });
    expect(tenth.body.data).toHaveLength(20);
    const pagesSeen = new Set([...first.body.data, ...tenth.body.data].map((h) => h.Page));
    expect(pagesSeen.size).toBe(40);
    expect((await search(admin, 'Xcx1', { Text: '常见词', PageSize: 20, PageIndex: 51 })).body.data).toEqual([]);
    // On 335 pages: counted exactly past the ranked pages, and its last page is the rest.
    const fewer = await search(admin, 'Xcx1', { Text: '少见词', PageSize: 20, PageIndex: 17 });
    expect([fewer.body.total, fewer.body.totalCapped, fewer.body.data.length]).toEqual([335, false, 15]);
    // Its pages go with it.
    expect((await admin.call('/Xcx1/DelStandardArticleInAdmin', { Id: id })).status).toBe(200);
    expect((await search(admin, 'Xcx1', { Text: '常见词' })).body.total).toBe(0);
  });

  it('resumes a job that an indexer claimed and never finished (a process that died)', async () => {
    const { server, admin, ids } = main;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the index's tables are not typed
    const db = server.app.database.db as any;
    const past = new Date(Date.now() - 60_000).toISOString();
    await db.insertInto('FT_JOB').values({ TBL: 'DOC_ARTICLE', RECORD_ID: ids.law, STATE: 'running', VERSION: 1, TRIES: 1, DUE_AT: past, LEASE_UNTIL: past }).execute();
    // Its pages as they were are kept meanwhile.
    await indexed(admin);
    expect((await search(admin, 'Xcx1', { Text: '招标人' })).body.data.map((h) => h.Id)).toEqual([ids.law]);
  });
});

describe.each(['local', 's3'] as const)("a hit's FileUrl on the %s driver", (driver) => {
  let server: TestServer;
  let s3: LocalS3 | undefined;

  beforeAll(async () => {
    s3 = await storageEnv(driver);
    server = await startServer(s3.env);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  it("is the URL the catalogue's own read call gives for that file, and opens it", async () => {
    const admin = await server.admin();
    const classify = await admin.call<Classify>('/Xcx1/CreateStandardClassifyInAdmin', { ScName: '图集', type: 0, ScSort: 0, IsShow: 1, ScIsFirst: 0 });
    const bytes = new TextEncoder().encode('本文件含有独有的存储测试词语。');
    const file = await upload(server, admin, '存储.txt', bytes, 'text/plain');
    // On S3, a record saved with the bucket's public URL (under S3_READ=public), read now under
    // S3_READ=private: the calls present its files as /files/<key>.
    const saved = driver === 's3' ? `${s3!.env.S3_ENDPOINT}/${s3!.env.S3_BUCKET}/${file.url.slice('/files/'.length)}` : file.url;
    const added = await admin.call<{ Id: number }>('/Xcx1/AddStandardArticleInAdmin', {
      ScCode: classify.body.data.ScCode,
      SaName: '存储文章',
      SaType: 0,
      SaPdfUrl: JSON.stringify([{ name: file.name, url: saved }]),
    });
    expect(added.status, added.body.msg).toBe(200);
    await indexed(admin);
    const one = await admin.get<{ SaPdfUrl: string }>('/Xcx1/GetStandardArticleInfoInAdmin', { Id: added.body.data.Id });
    const catalogued = (JSON.parse(one.body.data.SaPdfUrl) as { url: string }[]).map((f) => f.url);
    expect(catalogued).toEqual([file.url]);
    const hits = (await search(admin, 'Xcx1', { Text: '存储测试' })).body.data;
    expect(hits.map((h) => h.FileUrl)).toEqual(catalogued);
    // A signed-in member opens it: its bytes from this server (local), or by a presigned GET of the private bucket (S3).
    const opened = await fetch(server.url + hits[0]!.FileUrl!, { headers: { cookie: admin.cookie } });
    expect(opened.status).toBe(200);
    expect(new Uint8Array(await opened.arrayBuffer())).toEqual(bytes);
  });
});

describe('npm run reindex', () => {
  it('queues every record, reads them again beside the running server, and leaves the same answers', async () => {
    const { server, admin } = main;
    const before = (await search(admin, 'Xcx1', { Text: '造价' })).body.data.map(keyOf).sort();
    const env = { ...process.env, DATA_DIR: server.config.dataDir, ...(server.config.databaseUrl ? { DATABASE_URL: server.config.databaseUrl } : {}), REINDEX_THREADS: '1' };
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/src/fullText/reindexCli.ts'], { env, timeout: 120_000 });
    // Not a terminal: lines, not a bar.
    expect(stdout).toContain('已将全部记录加入队列');
    expect(stdout).toMatch(/完成：\d+ 条记录/);
    expect((await indexState(admin)).data.Waiting).toBe(0);
    expect((await search(admin, 'Xcx1', { Text: '造价' })).body.data.map(keyOf).sort()).toEqual(before);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('the same answers on SQLite and PostgreSQL', () => {
  let postgres: Setup;
  let sqlite: Setup;

  beforeAll(async () => {
    postgres = await fill(await startServer());
    const url = process.env.TEST_DATABASE_URL;
    delete process.env.TEST_DATABASE_URL;
    try {
      sqlite = await fill(await startServer());
    } finally {
      process.env.TEST_DATABASE_URL = url;
    }
  }, 180_000);

  afterAll(async () => {
    await sqlite?.server.close();
    await postgres?.server.close();
  });

  it('gives the same results, in the same order, for every query of the list', async () => {
    expect(postgres.server.dialect).toBe('postgres');
    expect(sqlite.server.dialect).toBe('sqlite');
    // Records are compared by their place in the fixture (their Ids may differ).
    const names = (s: Setup) => new Map(Object.entries(s.ids).map(([k, id]) => [id, k]));
    for (const [service, query] of [...QUERIES.map((q) => ['Xcx1', q] as const), ['Xcx3', '造价'] as const, ['Xcx3', '计价'] as const]) {
      const answer = async (s: Setup) => {
        const res = await search(s.admin, service, { Text: query });
        const byId = names(s);
        return { total: res.body.total, rows: res.body.data.map((h) => ({ ...h, Id: byId.get(h.Id), SaCode: undefined, ScCode: undefined, FileUrl: h.FileUrl ? 'file' : undefined })) };
      };
      expect(await answer(postgres), `${service} ${query}`).toEqual(await answer(sqlite));
    }
  });
});
