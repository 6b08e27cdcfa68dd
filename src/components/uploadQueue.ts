// One upload at a time in the whole app (video and handout uploads block each other):
// SignUpload through the dataProvider's `call`, then the bytes straight to storage with
// XMLHttpRequest, whose upload events give the progress that fetch cannot. While an upload runs,
// closing or reloading the page asks first (the browser's own beforeunload question).
import type { LegacyDataProvider } from '../dataProvider/index';
import type { SignedUpload, UploadKind } from '../../schemas/types';

export const BUSY_MESSAGE = '请等待上传完成';

/**
 * What leaving a form mid-upload does, asked before it happens: the transfer stops and what storage
 * received is dropped (AbortMultipartUpload for a video; a single upload's partial file never stays).
 */
export function leaveQuestion(kind: UploadKind | null): string {
  return `${kind === 'video' ? '视频' : '文件'}正在上传，关闭后上传将被取消，已上传的部分会被删除。确定关闭吗？`;
}

export interface UploadProgress {
  fileName: string;
  size: number;
  loaded: number;
  /** Bytes per second since the start. */
  speed: number;
  /** 0..100 */
  percent: number;
}

export interface UploadResult {
  FileUrl: string;
  Title: string;
}

export class UploadBusyError extends Error {
  constructor() {
    super(BUSY_MESSAGE);
    this.name = 'UploadBusyError';
  }
}

type Listener = () => void;

let current: UploadProgress | null = null;
let currentKind: UploadKind | null = null;
let abortCurrent: (() => void) | null = null;
const listeners = new Set<Listener>();

/** The browser's own "leave this page?" question (its text cannot be chosen). */
function askBeforeUnload(event: BeforeUnloadEvent) {
  event.preventDefault();
}

function publish(next: UploadProgress | null, kind: UploadKind | null = currentKind) {
  if (typeof window !== 'undefined' && (current === null) !== (next === null)) {
    if (next) window.addEventListener('beforeunload', askBeforeUnload);
    else window.removeEventListener('beforeunload', askBeforeUnload);
  }
  current = next;
  currentKind = next ? kind : null;
  for (const listener of listeners) listener();
}

export const uploadStore = {
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getSnapshot(): UploadProgress | null {
    return current;
  },
  isBusy(): boolean {
    return current !== null;
  },
  /** Kind of the running upload, if any. */
  kind(): UploadKind | null {
    return currentKind;
  },
  /** Stops the running upload (its promise rejects). */
  abort(): void {
    abortCurrent?.();
  },
};

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

export function formatSpeed(bytesPerSecond: number): string {
  return `${formatSize(Math.round(bytesPerSecond))}/s`;
}

/** XMLHttpRequest's answer as a Chinese message (storage answers are not the legacy envelope). */
function failure(xhr: XMLHttpRequest): Error {
  let msg = '';
  try {
    const body = JSON.parse(xhr.responseText) as { msg?: unknown };
    if (typeof body.msg === 'string') msg = body.msg;
  } catch {
    // S3 answers XML; the status says enough.
  }
  if (!msg) msg = xhr.status === 413 ? '文件过大' : xhr.status === 0 ? '上传失败，请检查网络' : `上传失败（${xhr.status}）`;
  return new Error(msg);
}

function send(signed: SignedUpload, file: File, onProgress: (loaded: number) => void): { done: Promise<void>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const done = new Promise<void>((resolve, reject) => {
    xhr.open(signed.Method, signed.Url);
    xhr.upload.onprogress = (event) => onProgress(event.lengthComputable ? event.loaded : 0);
    xhr.onload = () => (xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(failure(xhr)));
    xhr.onerror = () => reject(failure(xhr));
    xhr.onabort = () => reject(new Error('上传已取消'));
    if (signed.Method === 'POST') {
      // A presigned POST: the policy fields first, the file last.
      const form = new FormData();
      for (const [key, value] of Object.entries(signed.Fields ?? {})) form.append(key, value);
      form.append('file', file);
      xhr.send(form);
    } else {
      for (const [key, value] of Object.entries(signed.Headers ?? {})) xhr.setRequestHeader(key, value);
      xhr.send(file);
    }
  });
  return { done, abort: () => xhr.abort() };
}

/** The app-wide slot held by an upload that sends its bytes itself (the video's multipart upload). */
export interface UploadSlot {
  update(progress: UploadProgress): void;
  release(): void;
}

/**
 * Takes the one upload slot for an upload run elsewhere, so that every other upload waits (and
 * submit buttons stay disabled); throws UploadBusyError while another upload runs.
 */
export function claimUploadSlot(initial: UploadProgress, abort: () => void, kind: UploadKind = 'video'): UploadSlot {
  if (current) throw new UploadBusyError();
  let held = true;
  abortCurrent = abort;
  publish(initial, kind);
  return {
    update(progress) {
      if (held) publish(progress);
    },
    release() {
      if (!held) return;
      held = false;
      abortCurrent = null;
      publish(null);
    },
  };
}

/**
 * Uploads one file; refuses with UploadBusyError while another upload runs anywhere in the app.
 */
export async function uploadFile(dataProvider: Pick<LegacyDataProvider, 'call'>, file: File, kind: UploadKind): Promise<UploadResult> {
  if (current) throw new UploadBusyError();
  const started = Date.now();
  publish({ fileName: file.name, size: file.size, loaded: 0, speed: 0, percent: 0 }, kind);
  try {
    const { data: signed } = await dataProvider.call<SignedUpload>('Ajax', 'SignUpload', {
      FileName: file.name,
      Size: file.size,
      ContentType: file.type,
      Kind: kind,
    });
    const request = send(signed, file, (loaded) => {
      const seconds = Math.max((Date.now() - started) / 1000, 0.001);
      publish({
        fileName: file.name,
        size: file.size,
        loaded,
        speed: loaded / seconds,
        percent: file.size > 0 ? Math.min(100, Math.round((loaded / file.size) * 100)) : 100,
      });
    });
    abortCurrent = request.abort;
    await request.done;
    return { FileUrl: signed.FileUrl, Title: signed.Title };
  } finally {
    abortCurrent = null;
    publish(null);
  }
}
