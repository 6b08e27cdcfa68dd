import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchJson, postJson, toHttpError, type HttpClient } from './index';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('fetchJson', () => {
  it('sends same-origin credentials and parses the JSON body without rejecting on status', async () => {
    const fetchMock = vi.fn(async () => new Response('{"code":403,"msg":"无权限"}', { status: 403 }));
    vi.stubGlobal('fetch', fetchMock);
    const res = await fetchJson('/Ajax/DelVideo', { method: 'POST', body: '{"Id":1}' });
    expect(fetchMock).toHaveBeenCalledWith('/Ajax/DelVideo', { credentials: 'same-origin', method: 'POST', body: '{"Id":1}' });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ code: 403, msg: '无权限' });
  });

  it('leaves json undefined for a body that is not JSON', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('<html></html>', { status: 502 })));
    const res = await fetchJson('/x');
    expect(res.json).toBeUndefined();
    expect(res.body).toBe('<html></html>');
  });
});

describe('toHttpError', () => {
  it('uses the envelope code as the status of a 200 failure', () => {
    expect(toHttpError(200, { code: 409, msg: '该分类下还有文章' })).toMatchObject({ status: 409, message: '该分类下还有文章' });
    expect(toHttpError(200, { code: 1, msg: '失败' })).toMatchObject({ status: 500, message: '失败' });
  });

  it('ignores malformed and empty-field entries of errors', () => {
    const error = toHttpError(400, { code: 400, msg: '请检查', errors: [{ field: '', msg: 'x' }, 'junk', { field: 'VdName', msg: '必填' }] });
    expect(error.body).toEqual({ code: 400, msg: '请检查', errors: { VdName: '必填', root: { serverError: '请检查' } } });
  });

  it('leaves errors out when none names a field', () => {
    expect(toHttpError(400, { code: 400, msg: '请检查', errors: [] }).body).toEqual({ code: 400, msg: '请检查' });
  });
});

describe('postJson', () => {
  const answer = (json: unknown): HttpClient => async () => ({ status: 200, headers: new Headers(), body: JSON.stringify(json), json });

  it('keeps the total and whether it is capped (a full-text search’s 1000+)', async () => {
    await expect(postJson(answer({ code: 0, msg: '', data: [], total: 1000, totalCapped: true }), '/x')).resolves.toEqual({
      data: [],
      msg: '',
      total: 1000,
      totalCapped: true,
    });
    const exact = await postJson(answer({ code: 0, msg: '', data: [], total: 3, totalCapped: false }), '/x');
    expect(exact.totalCapped).toBeUndefined();
    expect(exact.total).toBe(3);
  });
});
