import { afterEach, describe, expect, it, vi } from 'vitest';
import { BUSY_MESSAGE, uploadFile, uploadStore, UploadBusyError } from './uploadQueue';

/** A stand-in for the browser's XMLHttpRequest whose progress and end the test drives. */
class FakeXhr {
  static last: FakeXhr | undefined;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  responseText = '';
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(key: string, value: string) {
    this.headers[key] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
}

const signed = {
  Method: 'PUT' as const,
  Url: '/upload/image/x.png?sig=1',
  Headers: { 'Content-Type': 'image/png' },
  Fields: {},
  FileUrl: '/files/image/x.png',
  Title: 'cover.png',
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('uploadFile', () => {
  it('signs, sends the file with its headers, reports progress, and refuses a second upload meanwhile', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const call = vi.fn(async () => ({ data: signed, msg: '' }));
    const file = new File([new Uint8Array(1000)], 'cover.png', { type: 'image/png' });

    const first = uploadFile({ call } as never, file, 'image');
    await expect(uploadFile({ call } as never, file, 'image')).rejects.toThrow(UploadBusyError);
    await expect(uploadFile({ call } as never, file, 'image')).rejects.toThrow(BUSY_MESSAGE);

    await vi.waitFor(() => expect(FakeXhr.last?.method).toBe('PUT'));
    const xhr = FakeXhr.last as FakeXhr;
    expect(call).toHaveBeenCalledTimes(1);
    expect(call).toHaveBeenCalledWith('Ajax', 'SignUpload', { FileName: 'cover.png', Size: 1000, ContentType: 'image/png', Kind: 'image' });
    expect(xhr.url).toBe(signed.Url);
    expect(xhr.headers).toEqual(signed.Headers);
    expect(xhr.body).toBe(file);

    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 500 });
    expect(uploadStore.getSnapshot()).toMatchObject({ fileName: 'cover.png', size: 1000, loaded: 500, percent: 50 });

    xhr.status = 200;
    xhr.onload?.();
    await expect(first).resolves.toEqual({ FileUrl: signed.FileUrl, Title: signed.Title });
    expect(uploadStore.isBusy()).toBe(false);
  });

  it('frees the queue when storage refuses the bytes', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const call = vi.fn(async () => ({ data: signed, msg: '' }));
    const pending = uploadFile({ call } as never, new File(['x'], 'a.png'), 'image');
    await vi.waitFor(() => expect(FakeXhr.last?.body).toBeDefined());
    const xhr = FakeXhr.last as FakeXhr;
    xhr.status = 400;
    xhr.responseText = JSON.stringify({ code: 400, msg: '图片须为PNG、JPEG或WebP格式（不支持SVG）' });
    xhr.onload?.();
    await expect(pending).rejects.toThrow('图片须为PNG');
    expect(uploadStore.isBusy()).toBe(false);
  });
});
