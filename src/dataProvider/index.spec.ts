import { describe, expect, it, vi } from 'vitest';
import { HttpError } from 'react-admin';
import type { HttpClient, HttpResponse } from '../http/index';
import { legacyDataProvider } from './index';
import { restOfList, toOrderName } from './listParams';
import { videoResource } from '../../schemas/index';

const API = 'http://host/api';

function answer(status: number, json: unknown): HttpResponse {
  return { status, headers: new Headers(), body: JSON.stringify(json), json };
}

/** A mock client answering each request with the next queued answer (the last one repeats). */
function mockClient(...answers: HttpResponse[]) {
  const queue = [...answers];
  const client = vi.fn<HttpClient>(async () => (queue.length > 1 ? queue.shift()! : queue[0]!));
  const request = (n = 0) => {
    const call = client.mock.calls[n];
    if (!call) throw new Error(`no request #${n}`);
    const [url, options = {}] = call;
    const headers = new Headers(options.headers);
    return {
      url,
      method: options.method,
      credentials: options.credentials,
      contentType: headers.get('Content-Type'),
      body: JSON.parse(String(options.body)) as unknown,
    };
  };
  return { client, request };
}

const ok = (data: unknown, total?: number) => answer(200, { code: 0, msg: '操作成功!', data, ...(total === undefined ? {} : { total }) });

describe('getList', () => {
  it('lists videos of a category with a name search, paged, in the default order', async () => {
    const { client, request } = mockClient(ok([{ Id: 7, VdName: '造价入门' }], 16));
    const dp = legacyDataProvider(API, client);
    const result = await dp.getList('video', {
      pagination: { page: 2, perPage: 15 },
      sort: { field: 'id', order: 'ASC' },
      filter: { VdtCode: 'T01', VdName: '造价', Unknown: 'x', VdPer: '' },
    });
    expect(request()).toEqual({
      url: 'http://host/api/Ajax/GetVideoListInAdmin',
      method: 'POST',
      credentials: 'same-origin',
      contentType: 'application/json',
      body: { pageIndex: 2, pageSize: 15, OrderName: 'IS_TOP DESC, VD_TIME DESC', VdtCode: 'T01', VdName: '造价' },
    });
    expect(result).toEqual({ data: [{ Id: 7, VdName: '造价入门', id: 7 }], total: 16 });
  });

  it('lists /Xcx1/ articles of a document type and category with 文号 search', async () => {
    const { client, request } = mockClient(ok([], 0));
    await legacyDataProvider(API, client).getList('article', {
      pagination: { page: 1, perPage: 15 },
      sort: { field: 'PublishTime', order: 'DESC' },
      filter: { type: 1, ScCode: 'C9', SaCodeName: '建标', SaName: '' },
    });
    expect(request().url).toBe('http://host/api/Xcx1/GetStandardArticleListInAdmin');
    expect(request().body).toEqual({
      pageIndex: 1,
      pageSize: 15,
      OrderName: 'PUBLISH_TIME DESC, SA_SORT ASC, IS_COMMON DESC',
      type: 1,
      ScCode: 'C9',
      SaCodeName: '建标',
    });
  });

  it('lists unified answers on /Xcx3/ and drops search fields the resource lacks', async () => {
    const { client, request } = mockClient(ok([{ Id: 1 }], 1));
    await legacyDataProvider(API, client).getList('tykjArticle', {
      pagination: { page: 3, perPage: 20 },
      sort: { field: 'SaName', order: 'ASC' },
      filter: { ScCode: 'Q1', SaName: '口径', SaCodeName: 'x' },
    });
    expect(request().url).toBe('http://host/api/Xcx3/GetStandardArticleListInAdmin');
    expect(request().body).toEqual({
      pageIndex: 3,
      pageSize: 20,
      OrderName: 'SA_NAME ASC, SA_SORT ASC, IS_COMMON DESC, PUBLISH_TIME DESC',
      ScCode: 'Q1',
      SaName: '口径',
    });
  });

  it('asks for every video type with All=1 and no paging; total is the row count', async () => {
    // 99 matching rows, of which 2 came and no more could be read: the rows that came.
    const { client, request } = mockClient(ok([{ Id: 1 }, { Id: 2 }], 99), ok([], 99));
    const result = await legacyDataProvider(API, client).getList('videoType', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'id', order: 'ASC' },
      filter: { All: 1 },
    });
    expect(request().url).toBe('http://host/api/Ajax/GetVideoTypeListInAdmin');
    expect(request().body).toEqual({ All: 1, OrderName: 'VDT_SORT ASC' });
    expect(result.total).toBe(2);
    expect(result.data.map((r) => r.id)).toEqual([1, 2]);
  });

  it('accepts All=true and keeps declared filters', async () => {
    const { client, request } = mockClient(ok([]));
    await legacyDataProvider(API, client).getList('classify', { filter: { All: true, type: 2, ScFatherCode: '0' } });
    expect(request().url).toBe('http://host/api/Xcx1/GetStandardClassifyListInAdmin');
    expect(request().body).toEqual({ All: 1, OrderName: 'SC_SORT ASC', type: 2, ScFatherCode: '0' });
  });

  it('sorts on the chosen column, then the rest of the default order', async () => {
    const { client, request } = mockClient(ok([], 0));
    await legacyDataProvider(API, client).getList('video', {
      pagination: { page: 1, perPage: 15 },
      sort: { field: 'VdNum', order: 'DESC' },
      filter: {},
    });
    expect(request().body).toMatchObject({ OrderName: 'VD_NUM DESC, IS_TOP DESC, VD_TIME DESC' });
  });

  it('falls back to the default order for a field the schema lacks', async () => {
    const { client, request } = mockClient(ok([], 0));
    await legacyDataProvider(API, client).getList('useweb', {
      pagination: { page: 1, perPage: 15 },
      sort: { field: 'Nope; DROP TABLE', order: 'DESC' },
      filter: {},
    });
    expect(request().body).toEqual({ pageIndex: 1, pageSize: 15, OrderName: 'UW_SORT ASC' });
  });

  it('uses the descriptor page size when react-admin gives no pagination', async () => {
    const { client, request } = mockClient(ok([], 0));
    await legacyDataProvider(API, client).getList('videoType', {});
    expect(request().body).toEqual({ pageIndex: 1, pageSize: 15, OrderName: 'VDT_SORT ASC' });
  });

  it('throws on an unknown resource without calling the server', async () => {
    const { client } = mockClient(ok([]));
    await expect(legacyDataProvider(API, client).getList('nothing', {})).rejects.toThrow('nothing');
    expect(client).not.toHaveBeenCalled();
  });
});

describe('answers cut short at the server\'s byte limit', () => {
  it('asks for the rest of a page from where it stopped, with a page size dividing that offset', async () => {
    const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ Id: from + i }));
    // Page 2 of 15 is rows 15..29: 4 came, then 5 (at 19: a page of 1), then the other 6.
    const { client, request } = mockClient(ok(rows(15, 4), 40), ok(rows(19, 1), 40), ok(rows(20, 10), 40));
    const result = await legacyDataProvider(API, client).getList('video', {
      pagination: { page: 2, perPage: 15 },
      sort: { field: 'id', order: 'ASC' },
      filter: { VdtCode: 'T01' },
    });
    expect(result.data.map((r) => r.Id)).toEqual(rows(15, 15).map((r) => r.Id));
    expect(result.total).toBe(40);
    const order = 'IS_TOP DESC, VD_TIME DESC';
    expect([0, 1, 2].map((n) => request(n).body)).toEqual([
      { pageIndex: 2, pageSize: 15, OrderName: order, VdtCode: 'T01' },
      { pageIndex: 20, pageSize: 1, OrderName: order, VdtCode: 'T01' },
      { pageIndex: 3, pageSize: 10, OrderName: order, VdtCode: 'T01' },
    ]);
  });

  it('completes a whole list (All=1) by pages, and stops when rows went away meanwhile', async () => {
    const { client, request } = mockClient(ok([{ Id: 1 }, { Id: 2 }], 5), ok([{ Id: 3 }, { Id: 4 }], 5), ok([], 4));
    const result = await legacyDataProvider(API, client).getList('videoType', { filter: { All: 1 }, pagination: { page: 1, perPage: 1000 }, sort: { field: 'id', order: 'ASC' } });
    expect(result.data.map((r) => r.Id)).toEqual([1, 2, 3, 4]);
    expect(request(1).body).toMatchObject({ pageIndex: 2, pageSize: 2 });
    expect(request(1).body).not.toHaveProperty('All');
    expect(request(2).body).toMatchObject({ pageIndex: 5, pageSize: 1 });
    expect(client).toHaveBeenCalledTimes(3);
  });

  it('asks for nothing more when the answer is whole: a last page, or All=1 up to its 20000 rows', () => {
    expect(restOfList({ pageIndex: 3, pageSize: 15 }, 40, 10)).toBeUndefined();
    expect(restOfList({ All: 1 }, 30000, 20000)).toBeUndefined();
    expect(restOfList({ All: 1 }, 7, 7)).toBeUndefined();
    expect(restOfList({ All: 1 }, undefined, 3)).toBeUndefined();
    expect(restOfList({ All: 1, VdCode: 'v' }, 30000, 19999)).toEqual({ params: { VdCode: 'v', pageIndex: 19999 + 1, pageSize: 1 }, wanted: 1 });
    expect(restOfList({ All: 1 }, 5000, 1200)).toEqual({ params: { pageIndex: 13, pageSize: 100 }, wanted: 3800 });
  });
});

describe('toOrderName', () => {
  it('does not repeat the chosen column when it is in the default order', () => {
    expect(toOrderName(videoResource, { field: 'IsTop', order: 'ASC' })).toBe('IS_TOP ASC, VD_TIME DESC');
    expect(toOrderName(videoResource, { field: 'VdTime', order: 'ASC' })).toBe('VD_TIME ASC, IS_TOP DESC');
  });

  it('ignores object, write-only and unknown fields', () => {
    expect(toOrderName(videoResource, { field: 'id', order: 'ASC' })).toBe('IS_TOP DESC, VD_TIME DESC');
    expect(toOrderName(videoResource, undefined)).toBe('IS_TOP DESC, VD_TIME DESC');
  });

  it('reads the direction case-insensitively, anything but DESC as ASC', () => {
    expect(toOrderName(videoResource, { field: 'VdName', order: 'desc' })).toBe(
      'VD_NAME DESC, IS_TOP DESC, VD_TIME DESC',
    );
    expect(toOrderName(videoResource, { field: 'VdName', order: 'sideways' })).toBe(
      'VD_NAME ASC, IS_TOP DESC, VD_TIME DESC',
    );
  });

  it('sorts a declared sortable column alone, which its own index serves', () => {
    const sortable = { ...videoResource, sortable: ['VdNum'] };
    expect(toOrderName(sortable, { field: 'VdNum', order: 'DESC' })).toBe('VD_NUM DESC');
    expect(toOrderName(sortable, { field: 'VdTime', order: 'ASC' })).toBe('VD_TIME ASC, IS_TOP DESC');
  });
});

describe('getOne and getMany', () => {
  it('reads a video by Id', async () => {
    const { client, request } = mockClient(ok({ Id: 5, VdName: 'a' }));
    const result = await legacyDataProvider(API, client).getOne('video', { id: 5 });
    expect(request()).toMatchObject({
      url: 'http://host/api/Ajax/GetSingleVideoInAdmin',
      method: 'POST',
      body: { Id: 5 },
    });
    expect(result.data).toEqual({ Id: 5, VdName: 'a', id: 5 });
  });

  it('reads an article by Id and also sends Code when meta.code is given', async () => {
    const { client, request } = mockClient(ok({ Id: 3, SaCode: 'SA3' }));
    const dp = legacyDataProvider(API, client);
    await dp.getOne('article', { id: 3, meta: { code: 'SA3' } });
    await dp.getOne('tykjArticle', { id: 4 });
    expect(request(0)).toMatchObject({ url: 'http://host/api/Xcx1/GetStandardArticleInfoInAdmin', body: { Id: 3, Code: 'SA3' } });
    expect(request(1)).toMatchObject({ url: 'http://host/api/Xcx3/GetStandardArticleInfoInAdmin', body: { Id: 4 } });
  });

  it('finds a website in the whole list, since there is no single-record call', async () => {
    const { client, request } = mockClient(ok([{ Id: 1 }, { Id: 2, UwName: 'b' }]));
    const result = await legacyDataProvider(API, client).getOne('useweb', { id: '2' });
    expect(request()).toMatchObject({
      url: 'http://host/api/Ajax/GetUsewebListInAdmin',
      body: { All: 1, OrderName: 'UW_SORT ASC' },
    });
    expect(result.data).toEqual({ Id: 2, UwName: 'b', id: 2 });
  });

  it('answers 404 when the fallback list lacks the record', async () => {
    const { client } = mockClient(ok([{ Id: 1 }]));
    await expect(legacyDataProvider(API, client).getOne('videoType', { id: 9 })).rejects.toMatchObject({
      status: 404,
      message: '记录不存在或已被删除',
    });
  });

  it('reads many videos one by one', async () => {
    const { client, request } = mockClient(ok({ Id: 1 }), ok({ Id: 2 }));
    const result = await legacyDataProvider(API, client).getMany('video', { ids: [1, 2] });
    expect(request(0).body).toEqual({ Id: 1 });
    expect(request(1).body).toEqual({ Id: 2 });
    expect(result.data.map((r) => r.id)).toEqual([1, 2]);
  });

  it('reads many video types with a single All=1 list', async () => {
    const { client } = mockClient(ok([{ Id: 1 }, { Id: 2 }, { Id: 3 }]));
    const result = await legacyDataProvider(API, client).getMany('videoType', { ids: [3, 1] });
    expect(client).toHaveBeenCalledTimes(1);
    expect(result.data.map((r) => r.id)).toEqual([3, 1]);
  });

  it('lists the comments of a video through getManyReference', async () => {
    const { client, request } = mockClient(ok([{ Id: 1 }], 1));
    await legacyDataProvider(API, client).getManyReference('videoComment', {
      target: 'VdCode',
      id: 'V1',
      pagination: { page: 1, perPage: 15 },
      sort: { field: 'VmTime', order: 'DESC' },
      filter: { All: 1 },
    });
    expect(request()).toMatchObject({
      url: 'http://host/api/Ajax/GetVideoMessageListInAdmin',
      body: { All: 1, OrderName: 'VM_TIME DESC', VdCode: 'V1' },
    });
  });

  it('refuses a reference target that is not a declared filter', async () => {
    const { client } = mockClient(ok([]));
    await expect(
      legacyDataProvider(API, client).getManyReference('video', {
        target: 'VdPer',
        id: 'x',
        pagination: { page: 1, perPage: 15 },
        sort: { field: 'id', order: 'ASC' },
        filter: {},
      }),
    ).rejects.toThrow();
    expect(client).not.toHaveBeenCalled();
  });
});

describe('writes', () => {
  it('creates a video without the react-admin id and returns the server record', async () => {
    const { client, request } = mockClient(ok({ Id: 11, VdCode: 'V11', VdName: 'n' }));
    const result = await legacyDataProvider(API, client).create('video', {
      data: { id: 'tmp', VdName: 'n', VdtCode: 'T1', IsTop: 1, VdEnclosure: '[]' },
    });
    expect(request()).toMatchObject({
      url: 'http://host/api/Ajax/AddVideo',
      method: 'POST',
      body: { VdName: 'n', VdtCode: 'T1', IsTop: 1, VdEnclosure: '[]' },
    });
    expect(request().body).not.toHaveProperty('id');
    expect(result.data).toEqual({ Id: 11, VdCode: 'V11', VdName: 'n', id: 11 });
  });

  it('updates a classification on /Xcx3/ with Id', async () => {
    const { client, request } = mockClient(ok(null));
    const result = await legacyDataProvider(API, client).update('tykjClassify', {
      id: 4,
      data: { id: 4, Id: 4, ScName: '新名', ScSort: 2 },
      previousData: { id: 4, Id: 4, ScName: '旧名' },
    });
    expect(request()).toEqual({
      url: 'http://host/api/Xcx3/UpdateStandardClassifyInAdmin',
      method: 'POST',
      credentials: 'same-origin',
      contentType: 'application/json',
      body: { Id: 4, ScName: '新名', ScSort: 2 },
    });
    expect(result.data).toEqual({ Id: 4, ScName: '新名', ScSort: 2, id: 4 });
  });

  it('deletes an article on /Xcx1/ by Id and returns the previous data', async () => {
    const { client, request } = mockClient(answer(200, { code: 0, msg: '删除成功!', data: null }));
    const result = await legacyDataProvider(API, client).delete('article', { id: 8, previousData: { id: 8, SaName: 'x' } });
    expect(request()).toMatchObject({ url: 'http://host/api/Xcx1/DelStandardArticleInAdmin', body: { Id: 8 } });
    expect(result.data).toEqual({ id: 8, SaName: 'x' });
  });

  it('deletes many with the bulk call, the ids refused left out of data and the answer in meta', async () => {
    const result = { Deleted: 2, Failed: [{ Id: 2, Name: '有视频', Reason: '该视频分类下还有视频，请先删除或移走视频' }] };
    const { client, request } = mockClient(answer(200, { code: 0, msg: '已删除2条，1条未删除', data: result }));
    const deleted = await legacyDataProvider(API, client).deleteMany('videoType', { ids: [1, 2, 3] });
    expect(client).toHaveBeenCalledTimes(1);
    expect(request(0)).toMatchObject({ url: 'http://host/api/Ajax/DelVideoTypeBatch', body: { Ids: [1, 2, 3] } });
    expect(deleted).toEqual({ data: [1, 3], meta: { result } });
  });

  it('deletes every row matching a filter with the bulk call, the filter mapped as the list call maps it', async () => {
    const { client, request } = mockClient(ok({ Deleted: 40, Failed: [] }));
    await legacyDataProvider(API, client).deleteMany('article', { ids: [], meta: { filter: { type: 1, ScCode: 'C9', SaName: '图集', Unknown: 'x', SaCodeName: '' } } });
    expect(request(0)).toMatchObject({ url: 'http://host/api/Xcx1/DelStandardArticleInAdminBatch', body: { All: 1, type: 1, ScCode: 'C9', SaName: '图集' } });
  });

  it('deletes many in sequence without a bulk call (a hand-written delete), stopping at the first failure', async () => {
    const { client, request } = mockClient(ok(null), answer(400, { code: 400, msg: '不能删除自己' }));
    const dp = legacyDataProvider(API, client);
    await expect(dp.deleteMany('member', { ids: [1, 2, 3] })).rejects.toMatchObject({ status: 400 });
    expect(client).toHaveBeenCalledTimes(2);
    expect(request(0)).toMatchObject({ url: 'http://host/api/Ajax/DelMember', body: { Id: 1 } });
    expect(request(1).body).toEqual({ Id: 2 });
  });

  it('updates many, each with its own Id', async () => {
    const { client, request } = mockClient(ok(null));
    const result = await legacyDataProvider(API, client).updateMany('useweb', { ids: [1, 2], data: { UwType: 1 } });
    expect(request(0)).toMatchObject({ url: 'http://host/api/Ajax/UpdateUseweb', body: { UwType: 1, Id: 1 } });
    expect(request(1).body).toEqual({ UwType: 1, Id: 2 });
    expect(result.data).toEqual([1, 2]);
  });

  it('refuses an update on a resource that has no update call', async () => {
    const { client } = mockClient(ok(null));
    await expect(legacyDataProvider(API, client).update('videoComment', { id: 1, data: {}, previousData: { id: 1 } })).rejects.toThrow(
      '评论不支持此操作',
    );
    expect(client).not.toHaveBeenCalled();
  });
});

describe('special calls', () => {
  it('passes any call through and returns data, total and msg', async () => {
    const { client, request } = mockClient(ok(42));
    const result = await legacyDataProvider(`${API}/`, client).call('Ajax', 'UpdateVideoNumAdd', { Id: 3 });
    expect(request()).toMatchObject({ url: 'http://host/api/Ajax/UpdateVideoNumAdd', method: 'POST', body: { Id: 3 } });
    expect(result).toEqual({ data: 42, msg: '操作成功!' });
  });

  it('reads the current member', async () => {
    const member = { AuCode: 'A1', AuName: '张三', UserName: 'zs', IsAdmin: 0, OrganizationName: '一部', Modules: { video: '2' } };
    const { client, request } = mockClient(ok(member));
    expect(await legacyDataProvider(API, client).getCurrentMember()).toEqual(member);
    expect(request()).toMatchObject({ url: 'http://host/api/Ajax/GetCurrentMember', body: {} });
  });
});

describe('errors', () => {
  it('maps a 400 with field errors to an HttpError react-admin puts on the form fields', async () => {
    const envelope = {
      code: 400,
      msg: '请检查填写的内容',
      errors: [
        { field: 'SaName', msg: '必填' },
        { field: 'SaName', msg: '过长' },
        { field: 'ScCode', msg: '请选择分类' },
      ],
    };
    const { client } = mockClient(answer(400, envelope));
    const error = await legacyDataProvider(API, client)
      .create('article', { data: { SaName: '' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      message: '请检查填写的内容',
      status: 400,
      body: {
        code: 400,
        msg: '请检查填写的内容',
        errors: { SaName: '必填', ScCode: '请选择分类', root: { serverError: '请检查填写的内容' } },
      },
    });
  });

  it('keeps the server message and status of a 403 and leaves errors out', async () => {
    const { client } = mockClient(answer(403, { code: 403, msg: '无权限执行此操作' }));
    const error = (await legacyDataProvider(API, client)
      .delete('video', { id: 1 })
      .catch((e: unknown) => e)) as HttpError;
    expect(error.message).toBe('无权限执行此操作');
    expect(error.status).toBe(403);
    expect(error.body).not.toHaveProperty('errors');
  });

  it('treats a 200 answer with a non-zero code as a failure', async () => {
    const { client } = mockClient(answer(200, { code: 404, msg: '视频不存在' }));
    await expect(legacyDataProvider(API, client).getOne('video', { id: 1 })).rejects.toMatchObject({
      message: '视频不存在',
      status: 404,
    });
  });

  it('reports a network failure with a message a person can act on', async () => {
    const client = vi.fn<HttpClient>(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(legacyDataProvider(API, client).getList('video', {})).rejects.toMatchObject({
      message: '请求失败，请稍后重试',
    });
  });

  it('reports a body that is not JSON the same way', async () => {
    const client = vi.fn<HttpClient>(async () => ({
      status: 502,
      headers: new Headers(),
      body: '<html>Bad Gateway</html>',
      json: undefined,
    }));
    await expect(legacyDataProvider(API, client).getList('video', {})).rejects.toMatchObject({
      message: '请求失败，请稍后重试',
      status: 502,
    });
  });

  it('reads the envelope from a client that rejects like ra fetchUtils.fetchJson', async () => {
    const client = vi.fn<HttpClient>(async () => {
      throw new HttpError('Unauthorized', 401, { code: 401, msg: '请先登录' });
    });
    await expect(legacyDataProvider(API, client).getList('video', {})).rejects.toMatchObject({
      message: '请先登录',
      status: 401,
    });
  });

  it('lets an aborted request reject as an abort', async () => {
    const abort = Object.assign(new Error('aborted'), { name: 'AbortError' });
    const client = vi.fn<HttpClient>(async () => {
      throw abort;
    });
    const controller = new AbortController();
    await expect(legacyDataProvider(API, client).getList('video', { signal: controller.signal })).rejects.toBe(abort);
    expect(client.mock.calls[0]?.[1]?.signal).toBe(controller.signal);
  });
});
