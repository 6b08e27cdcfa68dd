// The video upload in parts: Uppy core with @uppy/aws-s3 in multipart mode, whose hooks call the
// server's five calls (API: CreateMultipartUpload, SignUploadPart, ListUploadParts,
// CompleteMultipartUpload, AbortMultipartUpload) through the dataProvider. The bytes go straight
// to storage. Holds the app-wide upload slot of ./uploadQueue while it runs.
//
// Resume after a page reload: the upload started for a file is remembered in localStorage under
// `zhishi.videoUpload:<name>:<size>:<lastModified>` ({ Key, UploadId, FileUrl, Title, PartSize }).
// A browser cannot reopen a file by itself, so the person picks the same file again; its upload is
// then found, checked with ListUploadParts, and handed to Uppy as the file's `s3Multipart` state:
// Uppy lists the parts already stored and sends only the missing ones. An entry is dropped when
// the upload completes or is cancelled, when the server no longer knows it, and after 23 hours
// (the server forgets abandoned uploads after a day).
import Uppy, { type Body, type Meta, type UppyFile } from '@uppy/core';
import AwsS3, { type AwsS3Part } from '@uppy/aws-s3';
import type { LegacyDataProvider } from '../../dataProvider/index';
import { claimUploadSlot, type UploadProgress, type UploadSlot } from '../uploadQueue';

type Api = Pick<LegacyDataProvider, 'call'>;
type VideoFile = UppyFile<Meta, Body>;

/** `data` of CreateMultipartUpload. */
export interface CreatedUpload {
  UploadId: string;
  Key: string;
  FileUrl: string;
  Title: string;
  PartSize: number;
}

/** `data` of CompleteMultipartUpload. */
export interface VideoUploadResult {
  FileUrl: string;
  Title: string;
  PosterUrl?: string;
}

/** Retry delays of a failed part or signature (Uppy's retryDelays): 4 tries more, then a failure. */
export const RETRY_DELAYS = [0, 1000, 3000, 5000];
const RESUME_PREFIX = 'zhishi.videoUpload:';
const RESUME_MAX_AGE_MS = 23 * 3600 * 1000;

export class UploadCancelled extends Error {
  constructor() {
    super('上传已取消');
    this.name = 'UploadCancelled';
  }
}

export interface FileIdentity {
  name: string;
  size: number;
  lastModified: number;
}

// ---- What is remembered for a resume ----

export function resumeKey(file: FileIdentity): string {
  return `${RESUME_PREFIX}${file.name}:${file.size}:${file.lastModified}`;
}

interface Remembered extends CreatedUpload {
  savedAt: number;
}

function isCreated(value: unknown): value is CreatedUpload {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.UploadId === 'string' &&
    typeof v.Key === 'string' &&
    typeof v.FileUrl === 'string' &&
    typeof v.Title === 'string' &&
    typeof v.PartSize === 'number' &&
    v.PartSize > 0
  );
}

// localStorage may be missing or full (private windows): a resume is a convenience, never an error.
export const resumeStore = {
  get(file: FileIdentity, now = Date.now()): CreatedUpload | undefined {
    try {
      const text = localStorage.getItem(resumeKey(file));
      if (!text) return undefined;
      const value = JSON.parse(text) as unknown;
      const savedAt = (value as Partial<Remembered> | null)?.savedAt;
      if (!isCreated(value) || typeof savedAt !== 'number' || now - savedAt > RESUME_MAX_AGE_MS) {
        localStorage.removeItem(resumeKey(file));
        return undefined;
      }
      const { UploadId, Key, FileUrl, Title, PartSize } = value;
      return { UploadId, Key, FileUrl, Title, PartSize };
    } catch {
      return undefined;
    }
  },
  set(file: FileIdentity, upload: CreatedUpload, now = Date.now()): void {
    try {
      localStorage.setItem(resumeKey(file), JSON.stringify({ ...upload, savedAt: now } satisfies Remembered));
    } catch {
      // Without storage the upload still works; it just cannot be resumed.
    }
  },
  remove(file: FileIdentity): void {
    try {
      localStorage.removeItem(resumeKey(file));
    } catch {
      // See set().
    }
  },
};

// ---- Messages ----

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/** A Chinese message for what went wrong: the server's msg, or one from the part's HTTP status. */
export function uploadErrorMessage(error: unknown): string {
  const source = (error as { source?: unknown } | null)?.source;
  if (source && typeof source === 'object' && 'status' in source) {
    const xhr = source as { status: number; responseText?: string };
    try {
      const body = JSON.parse(xhr.responseText ?? '') as { msg?: unknown };
      if (typeof body.msg === 'string' && body.msg !== '') return body.msg;
    } catch {
      // S3 answers XML: the status says enough.
    }
    if (xhr.status === 0) return '网络异常，上传中断，请检查网络后重试';
    if (xhr.status === 413) return '文件过大';
    return `上传失败（${xhr.status}）`;
  }
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message === 'string' && /[\u4e00-\u9fff]/.test(message)) return message;
  return '上传失败，请重试';
}

// ---- The upload ----

export interface VideoUploadEvents {
  progress(progress: UploadProgress): void;
  /** Every retry of a part failed (or a call was refused): the upload waits for retry() or cancel(). */
  failed(message: string): void;
  /** Resuming an upload remembered from an earlier page. */
  resumed?(uploadedBytes: number): void;
}

export interface VideoUpload {
  /** Resolves with the stored file; rejects with UploadCancelled, or with a refusal before any byte. */
  readonly done: Promise<VideoUploadResult>;
  /** Stops the transfer and drops everything sent so far (server and browser). */
  cancel(): void;
  /** After `failed`: continues from the parts already stored. Throws UploadBusyError when the slot is taken. */
  retry(): void;
}

/** An upload known to the server for this file: the remembered one if still alive, else a new one. */
async function openUpload(api: Api, file: File): Promise<{ upload: CreatedUpload; uploadedBytes: number }> {
  const remembered = resumeStore.get(file);
  if (remembered) {
    try {
      const { data } = await api.call<AwsS3Part[]>('Ajax', 'ListUploadParts', {
        Key: remembered.Key,
        UploadId: remembered.UploadId,
      });
      const uploadedBytes = Array.isArray(data) ? data.reduce((n, p) => n + (p.Size ?? 0), 0) : 0;
      return { upload: remembered, uploadedBytes };
    } catch (error) {
      // Gone (completed, aborted, expired) or not ours: start afresh. Other errors are real.
      const status = statusOf(error);
      if (status !== 404 && status !== 403) throw error;
      resumeStore.remove(file);
    }
  }
  const { data } = await api.call<CreatedUpload>('Ajax', 'CreateMultipartUpload', {
    FileName: file.name,
    Size: file.size,
    ContentType: file.type || 'video/mp4',
    Kind: 'video',
  });
  resumeStore.set(file, data);
  return { upload: data, uploadedBytes: 0 };
}

/**
 * Starts uploading a video (already checked by ./mp4Check). Throws UploadBusyError at once when
 * another upload runs anywhere in the app.
 */
export function startVideoUpload(api: Api, file: File, events: VideoUploadEvents): VideoUpload {
  const base = (loaded: number, speed: number): UploadProgress => ({
    fileName: file.name,
    size: file.size,
    loaded,
    speed,
    percent: file.size > 0 ? Math.min(100, Math.floor((loaded / file.size) * 100)) : 100,
  });

  let cancelled = false;
  let finished = false;
  let uppy: Uppy<Meta, Body> | undefined;
  let fileId: string | undefined;
  let upload: CreatedUpload | undefined;
  let result: VideoUploadResult | undefined;
  let resolveDone!: (value: VideoUploadResult) => void;
  let rejectDone!: (error: unknown) => void;
  const done = new Promise<VideoUploadResult>((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
  });

  // Speed of this session (a resume starts with bytes already stored).
  let sessionStart = Date.now();
  let sessionBytes: number | undefined;

  let slot: UploadSlot = claimUploadSlot(base(0, 0), () => cancel());

  // One abort request at most, whoever asks (Uppy on cancel, or cancel() before Uppy started).
  let aborting: Promise<void> | undefined;
  const abortOnServer = (): Promise<void> => {
    if (!upload) return Promise.resolve();
    const { Key, UploadId } = upload;
    aborting ??= api.call('Ajax', 'AbortMultipartUpload', { Key, UploadId }).then(
      () => undefined,
      () => undefined,
    );
    return aborting;
  };

  function cancel() {
    if (cancelled || finished) return;
    cancelled = true;
    resumeStore.remove(file);
    // Stops every request in flight (parts, signatures) and removes the file from Uppy.
    uppy?.cancelAll();
    void abortOnServer();
    uppy?.destroy();
    slot.release();
    rejectDone(new UploadCancelled());
  }

  function fail(error: unknown) {
    if (cancelled || finished) return;
    slot.release();
    events.failed(uploadErrorMessage(error));
  }

  function retry() {
    if (cancelled || finished || !uppy || !fileId) return;
    slot = claimUploadSlot(base(0, 0), () => cancel());
    sessionStart = Date.now();
    sessionBytes = undefined;
    void uppy.retryUpload(fileId);
  }

  const run = async () => {
    const opened = await openUpload(api, file);
    if (cancelled) {
      // Cancelled while the upload was being created: it must not stay behind.
      upload = opened.upload;
      void abortOnServer();
      return;
    }
    upload = opened.upload;
    if (opened.uploadedBytes > 0) events.resumed?.(opened.uploadedBytes);
    const current = upload;

    const instance = new Uppy<Meta, Body>({
      autoProceed: false,
      allowMultipleUploadBatches: true,
      restrictions: { maxNumberOfFiles: 1 },
    });
    instance.use(AwsS3, {
      shouldUseMultipart: true,
      limit: 4,
      retryDelays: RETRY_DELAYS,
      // The server decides the part size; it signs each part for exactly that size.
      getChunkSize: () => current.PartSize,
      // Used only if Uppy lost the upload from the file's state: ask the server again.
      createMultipartUpload: async () => {
        const { data } = await api.call<CreatedUpload>('Ajax', 'CreateMultipartUpload', {
          FileName: file.name,
          Size: file.size,
          ContentType: file.type || 'video/mp4',
          Kind: 'video',
        });
        upload = data;
        resumeStore.set(file, data);
        return { key: data.Key, uploadId: data.UploadId };
      },
      signPart: async (_file, { key, uploadId, partNumber }) => {
        const { data } = await api.call<{ Url: string; Headers?: Record<string, string> }>('Ajax', 'SignUploadPart', {
          Key: key,
          UploadId: uploadId,
          PartNumber: partNumber,
        });
        return { method: 'PUT' as const, url: data.Url, headers: data.Headers ?? {} };
      },
      listParts: async (_file, { key, uploadId }) => {
        const { data } = await api.call<AwsS3Part[]>('Ajax', 'ListUploadParts', { Key: key, UploadId: uploadId ?? '' });
        return Array.isArray(data) ? data : [];
      },
      abortMultipartUpload: () => abortOnServer(),
      completeMultipartUpload: async (_file, { key, uploadId, parts }) => {
        const { data } = await api.call<VideoUploadResult>('Ajax', 'CompleteMultipartUpload', {
          Key: key,
          UploadId: uploadId,
          Parts: parts
            .map((p) => ({ PartNumber: Number(p.PartNumber), ETag: String(p.ETag) }))
            .sort((a, b) => a.PartNumber - b.PartNumber),
        });
        result = data;
        return { location: data.FileUrl };
      },
    });

    instance.on('upload-progress', (_f, progress) => {
      const loaded = progress.bytesUploaded ?? 0;
      sessionBytes ??= loaded;
      const seconds = Math.max((Date.now() - sessionStart) / 1000, 0.001);
      slot.update(base(loaded, Math.max(0, loaded - sessionBytes) / seconds));
      events.progress(base(loaded, Math.max(0, loaded - sessionBytes) / seconds));
    });
    instance.on('upload-error', (_f, error) => fail(error));
    instance.on('upload-success', () => {
      if (cancelled || finished || !result) return;
      finished = true;
      resumeStore.remove(file);
      slot.release();
      resolveDone(result);
      // After Uppy has finished its own bookkeeping of this upload.
      setTimeout(() => instance.destroy(), 0);
    });

    uppy = instance;
    fileId = instance.addFile({ name: file.name, type: file.type || 'video/mp4', data: file, source: 'local' });
    // The upload exists on the server already (new or remembered): Uppy takes its restoring path,
    // lists the stored parts and sends the rest.
    instance.setFileState(fileId, { s3Multipart: { key: current.Key, uploadId: current.UploadId } } as Partial<VideoFile>);
    await instance.upload();
  };

  run().catch((error: unknown) => {
    if (cancelled || finished) return;
    if (!uppy) {
      // Refused before any byte (no right to upload, a 400 from CreateMultipartUpload…).
      finished = true;
      slot.release();
      rejectDone(new Error(uploadErrorMessage(error)));
      return;
    }
    fail(error);
  });

  return { done, cancel, retry };
}
