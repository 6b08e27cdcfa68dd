import { afterEach, describe, expect, it, vi } from 'vitest';
import { sendEarly, takeEarly } from './early';
import { fetchJson } from './index';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const POST = (body: string): RequestInit => ({ method: 'POST', body });

describe('early requests', () => {
  it('sends the JSON POST at once and hands its answer to the first identical call only', async () => {
    const fetchMock = vi.fn(async () => new Response('{"code":0,"msg":"","data":1}'));
    vi.stubGlobal('fetch', fetchMock);
    sendEarly('/Ajax/GetCurrentMember', '{}');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledWith('/Ajax/GetCurrentMember', expect.objectContaining({ method: 'POST', body: '{}', credentials: 'same-origin' }));

    const first = await fetchJson('/Ajax/GetCurrentMember', POST('{}'));
    expect(first.json).toEqual({ code: 0, msg: '', data: 1 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    // Taken once: the next call asks the server.
    await fetchJson('/Ajax/GetCurrentMember', POST('{}'));
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('is not used for another body, another address or another method', () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}')));
    sendEarly('/Ajax/GetCurrentMember', '{}');
    expect(takeEarly('/Ajax/GetCurrentMember', POST('{"a":1}'))).toBeUndefined();
    expect(takeEarly('/Ajax/GetVideoList', POST('{}'))).toBeUndefined();
    expect(takeEarly('/Ajax/GetCurrentMember', { method: 'GET' })).toBeUndefined();
    expect(takeEarly('/Ajax/GetCurrentMember', POST('{}'))).toBeInstanceOf(Promise);
  });

  it('is not used once it is older than ten seconds', () => {
    vi.useFakeTimers();
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}')));
    sendEarly('/Ajax/GetCurrentMember', '{}');
    vi.advanceTimersByTime(10_001);
    expect(takeEarly('/Ajax/GetCurrentMember', POST('{}'))).toBeUndefined();
  });

  it('passes a failed request on to the call that takes it', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    sendEarly('/Ajax/GetCurrentMember', '{}');
    await expect(fetchJson('/Ajax/GetCurrentMember', POST('{}'))).rejects.toThrow('Failed to fetch');
  });
});
