// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { claimUploadSlot, UploadBusyError, uploadStore } from '../uploadQueue';
import { resumeKey, resumeStore, startVideoUpload, uploadErrorMessage, type CreatedUpload } from './videoUpload';

const file = { name: '课程.mp4', size: 1234, lastModified: 1700000000000 };
const upload: CreatedUpload = { UploadId: 'u1', Key: 'video/2026/11/x.mp4', FileUrl: '/files/video/2026/11/x.mp4', Title: '课程.mp4', PartSize: 10485760 };

afterEach(() => localStorage.clear());

describe('the remembered upload (resume after a page reload)', () => {
  it('is keyed by file name, size and last modification', () => {
    expect(resumeKey(file)).toBe('zhishi.videoUpload:课程.mp4:1234:1700000000000');
  });

  it('is found again for the same file, and not for another version of it', () => {
    resumeStore.set(file, upload, 1000);
    expect(resumeStore.get(file, 2000)).toEqual(upload);
    expect(resumeStore.get({ ...file, lastModified: 1 }, 2000)).toBeUndefined();
    resumeStore.remove(file);
    expect(resumeStore.get(file, 2000)).toBeUndefined();
  });

  it('is forgotten after 23 hours, and when malformed', () => {
    resumeStore.set(file, upload, 0);
    expect(resumeStore.get(file, 24 * 3600 * 1000)).toBeUndefined();
    expect(localStorage.getItem(resumeKey(file))).toBeNull();
    localStorage.setItem(resumeKey(file), '{"UploadId":1}');
    expect(resumeStore.get(file)).toBeUndefined();
  });
});

describe('the video upload', () => {
  it('refuses to start while another upload runs (请等待上传完成)', () => {
    const slot = claimUploadSlot({ fileName: 'a.pdf', size: 1, loaded: 0, speed: 0, percent: 0 }, () => undefined);
    try {
      const call = vi.fn();
      expect(() => startVideoUpload({ call }, new File(['x'], 'v.mp4'), { progress: vi.fn(), failed: vi.fn() })).toThrow(UploadBusyError);
      expect(call).not.toHaveBeenCalled();
    } finally {
      slot.release();
    }
    expect(uploadStore.isBusy()).toBe(false);
  });

  it('gives the server’s message of a refused part, or one from its status', () => {
    expect(uploadErrorMessage({ source: { status: 413, responseText: '{"code":413,"msg":"分片超过约定的大小"}' } })).toBe('分片超过约定的大小');
    expect(uploadErrorMessage({ source: { status: 0, responseText: '' } })).toContain('网络异常');
    expect(uploadErrorMessage({ source: { status: 500, responseText: '<Error/>' } })).toBe('上传失败（500）');
    expect(uploadErrorMessage(new Error('上传任务不存在或已结束，请重新上传'))).toBe('上传任务不存在或已结束，请重新上传');
    expect(uploadErrorMessage(new Error('Non 2xx'))).toBe('上传失败，请重试');
  });
});
