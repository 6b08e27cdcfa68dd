// 导出 (docs/api.md, Export): the .xlsx of a list's rows under its filters, search and order, opened
// with exceljs and read cell by cell; the kinds of field as the screens show them; no cell that can
// become a formula; the list's view code; the audit log's entry; Excel's row limit; a client that
// goes stops the export.
import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usewebResource } from '../../schemas/useweb';
import { videoResource } from '../../schemas/video';
import { toColumn } from '../../schemas/descriptor';
import { startServer, until, type Client, type TestServer } from '../helpers/server';

let server: TestServer;
let admin: Client;
let typeName = '';
let vdtCode = '';
let classifyName = '';

interface Exported {
  status: number;
  headers: Headers;
  /** The sheet's rows as values (row 1 the headers), when an .xlsx came. */
  rows: unknown[][];
  sheet?: ExcelJS.Worksheet;
  body?: { code: number; msg: string };
}

async function exportOf(client: Client, call: string, params: Record<string, unknown> = {}): Promise<Exported> {
  const res = await fetch(`${client.baseUrl}${call}/Export`, {
    method: 'POST',
    headers: { cookie: client.cookie, 'content-type': 'application/json' },
    body: JSON.stringify(params),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (!res.headers.get('content-type')?.includes('spreadsheetml')) {
    return { status: res.status, headers: res.headers, rows: [], body: JSON.parse(bytes.toString('utf8')) as Exported['body'] };
  }
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => {
    rows.push(Array.from((row.values as unknown[]).slice(1), (value) => value ?? null));
  });
  return { status: res.status, headers: res.headers, rows, sheet };
}

const day = (text: string) => new Date(`${text}T00:00:00Z`);

beforeAll(async () => {
  server = await startServer();
  admin = await server.admin();
  const type = await admin.call<{ VdtCode: string; VdtName: string }>('/Ajax/AddVideoType', { VdtName: '造价基础', VdtSort: 1 });
  vdtCode = type.body.data.VdtCode;
  typeName = type.body.data.VdtName;
  const other = await admin.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName: '其他分类', VdtSort: 2 });
  const videos = [
    { VdName: '甲：清单计价', VdPer: '张三', VdTime: '2026-03-05', IsTop: 1, VdEnclosure: JSON.stringify([{ name: '讲义一.pdf', url: 'https://cdn.example.com/1.pdf' }, { name: '附录.docx', url: 'https://cdn.example.com/2.docx' }]) },
    { VdName: '=HYPERLINK("http://evil.example/","点我")', VdPer: '@SUM(A1)', VdTime: '2026-01-20', IsTop: 0 },
    { VdName: '+1+2', VdPer: '-3', VdTime: '2025-12-31', IsTop: 0 },
    { VdName: '\tTAB开头', VdPer: '\r回车', VdTime: '2025-11-01', IsTop: 0 },
  ];
  for (const v of videos) {
    const res = await admin.call('/Ajax/AddVideo', { VdtCode: vdtCode, VdUrl: 'https://media.example.com/a.mp4', ...v });
    expect(res.status, res.body.msg).toBe(200);
  }
  // The calls trim text: a tab or a carriage return in front comes from rows written otherwise (imported legacy data).
  const raw = server.app.database.db as unknown as { updateTable(t: string): { set(v: object): { where(c: string, o: '=', v: string): { execute(): Promise<unknown> } } } };
  await raw.updateTable(videoResource.table).set({ [toColumn('VdName')]: '\tTAB开头', [toColumn('VdPer')]: '\r回车' }).where(toColumn('VdName'), '=', 'TAB开头').execute();
  await admin.call('/Ajax/AddVideo', { VdtCode: other.body.data.VdtCode, VdName: '别的分类的视频', VdUrl: 'https://media.example.com/b.mp4' });

  const classify = await admin.call<{ ScCode: string; ScName: string }>('/Xcx1/CreateStandardClassifyInAdmin', { ScName: '规范图集', ScSort: 0, IsShow: 1, ScIsFirst: 0, type: 0 });
  classifyName = classify.body.data.ScName;
  const article = await admin.call('/Xcx1/AddStandardArticleInAdmin', {
    ScCode: classify.body.data.ScCode,
    SaName: '在线文章',
    SaType: 1,
    SaCodeName: '建标〔2026〕1号',
    PublishTime: '2026-02-14',
    IsCommon: 1,
    SaPdfContent: '<p>第一段<strong>加粗</strong></p><p>第二段 &amp; 更多</p>',
  });
  expect(article.status, article.body.msg).toBe(200);
}, 120_000);

afterAll(() => server?.close());

describe('an export of the videos', () => {
  it('has the schema titles as headers and the cells as the screens show them', async () => {
    const out = await exportOf(admin, '/Ajax/GetVideoListInAdmin', { VdtCode: vdtCode, OrderName: 'VD_TIME DESC' });
    expect(out.status).toBe(200);
    expect(out.headers.get('x-export-rows')).toBe('4');
    expect(out.rows[0]).toEqual(['视频分类', '视频名称', '视频主讲人', '视频时间', '是否置顶', '点击量', '视频', '讲义']);
    expect(out.rows).toHaveLength(5);
    const first = out.rows[1]!;
    expect(first[0]).toBe(typeName);
    expect(first[1]).toBe('甲：清单计价');
    expect(first[2]).toBe('张三');
    expect(first[3]).toEqual(day('2026-03-05'));
    expect(out.sheet!.getCell('D2').type).toBe(ExcelJS.ValueType.Date);
    expect(out.sheet!.getCell('D2').numFmt).toBe('yyyy-mm-dd');
    expect(first[4]).toBe('置顶');
    expect(first[5]).toBe(0);
    expect(out.sheet!.getCell('F2').type).toBe(ExcelJS.ValueType.Number);
    expect(first[6]).toBe('https://media.example.com/a.mp4');
    expect(first[7]).toBe('讲义一.pdf\n附录.docx');
    expect(out.rows[2]![4]).toBe('不置顶');
    // Another category's video is not in the file: the filter applies.
    expect(out.rows.flat()).not.toContain('别的分类的视频');
  });

  it('is named after the screen and the business day', async () => {
    const out = await exportOf(admin, '/Ajax/GetVideoListInAdmin', {});
    const disposition = out.headers.get('content-disposition') ?? '';
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: server.config.timeZone }).format(new Date());
    expect(decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(disposition)?.[1] ?? '')).toBe(`视频学习编辑-${today}.xlsx`);
    const named = await exportOf(admin, '/Ajax/GetVideoListInAdmin', { Screen: '在线视频' });
    expect(decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(named.headers.get('content-disposition') ?? '')?.[1] ?? '')).toBe(`在线视频-${today}.xlsx`);
  });

  it('honours the search and the order', async () => {
    const searched = await exportOf(admin, '/Ajax/GetVideoListInAdmin', { VdName: '清单' });
    expect(searched.rows.slice(1).map((r) => r[1])).toEqual(['甲：清单计价']);
    const oldest = await exportOf(admin, '/Ajax/GetVideoListInAdmin', { VdtCode: vdtCode, OrderName: 'VD_TIME ASC' });
    expect(oldest.rows.slice(1).map((r) => r[3])).toEqual([day('2025-11-01'), day('2025-12-31'), day('2026-01-20'), day('2026-03-05')]);
    const bad = await exportOf(admin, '/Ajax/GetVideoListInAdmin', { OrderName: 'VD_TIME; drop table VIDEO' });
    expect(bad.status).toBe(400);
  });

  it('writes no cell that can become a formula: = + - @ tab and CR start a text with an apostrophe', async () => {
    const out = await exportOf(admin, '/Ajax/GetVideoListInAdmin', { VdtCode: vdtCode, OrderName: 'VD_TIME DESC' });
    const cells = out.rows.slice(2).flatMap((r) => [r[1], r[2]]);
    // XML reads a carriage return back as a line feed.
    expect(cells).toEqual(['\'=HYPERLINK("http://evil.example/","点我")', "'@SUM(A1)", "'+1+2", "'-3", "'\tTAB开头", "'\n回车"]);
    out.sheet!.eachRow((row) =>
      row.eachCell((cell) => {
        expect(cell.type).not.toBe(ExcelJS.ValueType.Formula);
        expect(cell.formula).toBeUndefined();
      }),
    );
  });
});

describe('an export of the articles', () => {
  it('shows choices by label, references by name, rich text as plain text and flags as 是/否', async () => {
    const out = await exportOf(admin, '/Xcx1/GetStandardArticleListInAdmin', { type: 0, Screen: '文章目录管理' });
    expect(out.status).toBe(200);
    const headers = out.rows[0]!;
    expect(headers).toEqual(['所属分类', '内容类型', '文章名称', '文号', '排序', '发布时间', '是否置顶', '文件', '内容', '问题', '统一回答']);
    const row = Object.fromEntries(headers.map((h, i) => [h, out.rows[1]![i]]));
    expect(row['所属分类']).toBe(classifyName);
    expect(row['内容类型']).toBe('在线编辑');
    expect(row['文章名称']).toBe('在线文章');
    expect(row['发布时间']).toEqual(day('2026-02-14'));
    expect(row['是否置顶']).toBe('是');
    expect(row['内容']).toBe('第一段加粗 第二段 & 更多');
    expect(row['文件'] ?? null).toBeNull();
  });
});

describe('who may export', () => {
  it('needs the list view code (2): a member without it is refused, one with only it exports', async () => {
    const none = await server.member({});
    expect((await exportOf(none, '/Ajax/GetVideoListInAdmin')).status).toBe(403);
    const writer = await server.member({ video: '1,3,4' });
    const refused = await exportOf(writer, '/Ajax/GetVideoListInAdmin');
    expect(refused.status).toBe(403);
    expect(refused.body?.msg).toMatch(/无权限/);
    const viewer = await server.member({ video: '2', useweb: '1' });
    const out = await exportOf(viewer, '/Ajax/GetVideoListInAdmin', { VdtCode: vdtCode });
    expect(out.status).toBe(200);
    expect(out.rows).toHaveLength(5);
    expect((await exportOf(viewer, '/Ajax/GetUsewebListInAdmin')).status).toBe(403);
    // Administrators' lists stay theirs.
    expect((await exportOf(viewer, '/Ajax/GetAuditLogListInAdmin')).status).toBe(403);
    expect((await exportOf(viewer, '/Ajax/GetMemberListInAdmin')).status).toBe(403);
    expect((await exportOf(server.client(), '/Ajax/GetVideoListInAdmin')).status).toBe(401);
  });

  it('is recorded in the audit log: who, which list, how many rows, under which conditions', async () => {
    const viewer = await server.member({ video: '2' });
    await exportOf(viewer, '/Ajax/GetVideoListInAdmin', { VdName: '清单' });
    const log = await admin.call<{ AuName: string; Action: string; Resource: string; RecordName: string; Changes: { field: string; after: unknown }[] }[]>(
      '/Ajax/GetAuditLogListInAdmin',
      { Action: 'export', pageIndex: 1, pageSize: 50 },
    );
    const entry = log.body.data.find((e) => e.AuName === viewer.auName);
    expect(entry).toBeDefined();
    expect(entry!.Resource).toBe('video');
    expect(entry!.RecordName).toMatch(/^视频学习编辑-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const changes = Object.fromEntries(entry!.Changes.map((c) => [c.field, c.after]));
    expect(changes).toMatchObject({ rows: 1, total: 1, params: { VdName: '清单' } });
    expect(changes.result).toBeUndefined();
  });

  it('exports the audit log itself, within a time range', async () => {
    const out = await exportOf(admin, '/Ajax/GetAuditLogListInAdmin', { Action: 'create', AtFrom: '2000-01-01' });
    expect(out.status).toBe(200);
    expect(out.rows[0]).toEqual(['时间', '操作人', '操作', '对象', '名称']);
    expect(out.rows.length).toBeGreaterThan(1);
    expect(new Set(out.rows.slice(1).map((r) => r[2]))).toEqual(new Set(['新增']));
    expect(out.rows[1]![0]).toBeInstanceOf(Date);
    const none = await exportOf(admin, '/Ajax/GetAuditLogListInAdmin', { AtFrom: '2099-01-01' });
    expect(none.rows).toHaveLength(1);
    const bad = await exportOf(admin, '/Ajax/GetAuditLogListInAdmin', { AtFrom: '2026-02-01', AtTo: '2026-01-01' });
    expect(bad.status).toBe(400);
  });
});

describe('limits', () => {
  it('refuses, before any row, more rows than a sheet holds (EXPORT_MAX_ROWS lowered for the test)', async () => {
    const small = await startServer({ EXPORT_MAX_ROWS: '2' });
    try {
      const a = await small.admin();
      for (const n of [1, 2, 3]) await a.call('/Ajax/AddUseweb', { UwName: `网站${n}`, UwUrl: `https://w${n}.example.com/` });
      const refused = await exportOf(a, '/Ajax/GetUsewebListInAdmin');
      expect(refused.status).toBe(400);
      expect(refused.body?.msg).toBe('共3行，超过导出上限2行（Excel 每个工作表最多 1,048,576 行），请先筛选或搜索缩小范围');
    } finally {
      await small.close();
    }
  }, 60_000);

  it('stops reading when the client goes: the audit entry says how few rows went', async () => {
    // Enough incompressible rows that the file outlasts the socket's buffers.
    const ROWS = 20_000;
    const db = server.app.database.db as unknown as { insertInto(t: string): { values(v: unknown[]): { execute(): Promise<unknown> } } };
    const column = (field: string) => toColumn(field);
    for (let start = 0; start < ROWS; start += 500) {
      const values = Array.from({ length: 500 }, (_, i) => ({
        [column('UwName')]: `网站${start + i}`,
        [column('UwUrl')]: `https://example.com/${randomBytes(400).toString('hex')}`,
        [column('UwType')]: 0,
        [column('UwSort')]: start + i,
      }));
      await db.insertInto(usewebResource.table).values(values).execute();
    }
    const controller = new AbortController();
    const res = await fetch(`${server.url}/Ajax/GetUsewebListInAdmin/Export`, {
      method: 'POST',
      headers: { cookie: admin.cookie, 'content-type': 'application/json' },
      body: '{}',
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('x-export-rows'))).toBeGreaterThanOrEqual(ROWS);
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    type Entry = { Resource: string; Changes: { field: string; after: unknown }[] };
    let entry: Entry | undefined;
    await until(async () => {
      const log = await admin.call<Entry[]>('/Ajax/GetAuditLogListInAdmin', { Action: 'export', pageIndex: 1, pageSize: 50 });
      entry = log.body.data.find((e) => e.Resource === 'useweb');
      return entry !== undefined;
    }, 'the cancelled export in the audit log');
    const changes = Object.fromEntries(entry!.Changes.map((c) => [c.field, c.after]));
    expect(changes.result).toBe('已取消');
    expect(changes.rows as number).toBeLessThan(ROWS);
    if (server.dialect === 'postgres') {
      // The cursor's transaction has ended: no connection is left inside it.
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`.execute(server.app.database.db);
      expect(rows[0]!.n).toBe(0);
    }
    // The cursor is closed and its connection free: the next export runs whole.
    const whole = await exportOf(admin, '/Ajax/GetUsewebListInAdmin', { OrderName: 'UW_SORT ASC' });
    expect(whole.rows).toHaveLength(ROWS + 1);
  }, 180_000);
});
