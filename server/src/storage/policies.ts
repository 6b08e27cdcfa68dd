// Per-kind upload rules (docs/api.md, "Uploads"). The server decides the key and the content type; the
// client only tells what it intends to send, and the bytes are checked again where they arrive.
import { randomUUID } from 'node:crypto';
import type { ModuleKey } from '../../../schemas/descriptor';
import { uploadModules } from '../../../schemas/index';
import type { UploadKind } from '../../../schemas/types';
import { ApiError, badRequest, tooLarge } from '../errors';
import type { SignRequest } from './types';

const MB = 1024 * 1024;

export interface KindPolicy {
  /** Largest accepted size in bytes. */
  maxBytes: number;
  /** true: the size must be strictly below maxBytes ("under 500 MB"); false: at most maxBytes. */
  exclusiveMax: boolean;
  /** Allowed extensions (lower case, no dot) and the content type the server stores them with. */
  types: Readonly<Record<string, string>>;
  tooLargeMsg: string;
  wrongTypeMsg: string;
}

export const POLICIES: Readonly<Record<UploadKind, KindPolicy>> = {
  video: {
    maxBytes: 500 * MB,
    exclusiveMax: true,
    types: { mp4: 'video/mp4' },
    tooLargeMsg: '视频须小于500MB',
    wrongTypeMsg: '视频须为MP4格式（H.264视频、AAC音频）',
  },
  image: {
    maxBytes: 10 * MB,
    exclusiveMax: false,
    // Never SVG: it is a document that can carry script.
    types: { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp' },
    tooLargeMsg: '图片不能超过10MB',
    wrongTypeMsg: '图片须为PNG、JPEG或WebP格式（不支持SVG）',
  },
  handout: {
    maxBytes: 200 * MB,
    exclusiveMax: false,
    types: {
      pdf: 'application/pdf',
      doc: 'application/msword',
      docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      xls: 'application/vnd.ms-excel',
      xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      ppt: 'application/vnd.ms-powerpoint',
      pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      zip: 'application/zip',
      rar: 'application/vnd.rar',
      '7z': 'application/x-7z-compressed',
      txt: 'text/plain',
    },
    tooLargeMsg: '附件不能超过200MB',
    wrongTypeMsg: '附件须为PDF、Word、Excel、PowerPoint、ZIP、RAR、7z或TXT文件',
  },
};

export const UPLOAD_KINDS = Object.keys(POLICIES) as UploadKind[];

/**
 * Who may upload what (codes 1 or 3, add or edit): whoever may add or edit the records that hold
 * such files, as the descriptors declare them (uploadModules in schemas/index.ts). SignUpload and
 * the multipart calls share it.
 */
export const UPLOAD_MODULES: Readonly<Record<UploadKind, readonly ModuleKey[]>> = {
  video: uploadModules('video'),
  handout: uploadModules('handout'),
  image: uploadModules('image'),
};

export function isUploadKind(value: unknown): value is UploadKind {
  return typeof value === 'string' && Object.hasOwn(POLICIES, value);
}

/** Body of SignUpload, as received (not yet trusted). */
export interface UploadInput {
  FileName?: unknown;
  Size?: unknown;
  ContentType?: unknown;
  Kind?: unknown;
}

export interface PreparedUpload extends SignRequest {
  /** Original file name, cleaned for display. */
  title: string;
}

// Browsers report these for the allowed image and video types; anything else (image/svg+xml,
// text/html…) betrays a file that is not what its extension says.
const BROWSER_TYPES: Readonly<Record<string, readonly string[]>> = {
  mp4: ['video/mp4'],
  png: ['image/png'],
  jpg: ['image/jpeg', 'image/jpg', 'image/pjpeg'],
  jpeg: ['image/jpeg', 'image/jpg', 'image/pjpeg'],
  webp: ['image/webp'],
};

// C0/C1 controls, and bidi overrides that could make "exe.mp4" display as "mp4.exe".
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The display name: no directories (old browsers sent "C:\fakepath\x"), no control characters. */
export function cleanTitle(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  return base.replace(UNSAFE_CHARS, '').trim();
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** Validates a SignUpload request and names the object; throws ApiError for anything refused. */
export function prepareUpload(input: UploadInput, now: Date = new Date()): PreparedUpload {
  const { FileName, Size, ContentType, Kind } = input;
  if (!isUploadKind(Kind)) {
    throw badRequest('上传类型无效', [{ field: 'Kind', msg: '须为 video、handout 或 image' }]);
  }
  if (typeof FileName !== 'string' || FileName.length < 1 || FileName.length > 255) {
    throw badRequest('文件名须为1到255个字符', [{ field: 'FileName', msg: '须为1到255个字符' }]);
  }
  if (typeof Size !== 'number' || !Number.isSafeInteger(Size) || Size <= 0) {
    throw badRequest('文件大小无效，请重新选择文件', [{ field: 'Size', msg: '须为正整数' }]);
  }
  if (ContentType !== undefined && ContentType !== null && typeof ContentType !== 'string') {
    throw badRequest('文件类型无效', [{ field: 'ContentType', msg: '须为字符串' }]);
  }

  const policy = POLICIES[Kind];
  const title = cleanTitle(FileName);
  const ext = extensionOf(title);
  const contentType = Object.hasOwn(policy.types, ext) ? policy.types[ext] : undefined;
  if (!contentType) throw badRequest(policy.wrongTypeMsg, [{ field: 'FileName', msg: policy.wrongTypeMsg }]);

  // The declared type is never stored, only compared: where browsers agree on a type, a different
  // one means a renamed file. Handout types vary by OS (zip, rar, empty), so they are not compared.
  const declared = typeof ContentType === 'string' ? ContentType.split(';')[0]!.trim().toLowerCase() : '';
  const expected = BROWSER_TYPES[ext];
  if (declared && expected && !expected.includes(declared)) {
    throw badRequest(policy.wrongTypeMsg, [{ field: 'ContentType', msg: policy.wrongTypeMsg }]);
  }

  if (policy.exclusiveMax ? Size >= policy.maxBytes : Size > policy.maxBytes) throw tooLarge(policy.tooLargeMsg);

  return { key: newKey(Kind, ext, now), kind: Kind, size: Size, contentType, title };
}

/** `<kind>/<yyyy>/<mm>/<uuid>.<ext>`: unguessable, and nothing of the client's file name. */
export function newKey(kind: UploadKind, ext: string, now: Date = new Date()): string {
  const yyyy = String(now.getUTCFullYear());
  const mm = String(now.getUTCMonth() + 1).padStart(2, '0');
  return `${kind}/${yyyy}/${mm}/${randomUUID()}.${ext}`;
}

const UPLOAD_KEY = /^(video|handout|image)\/\d{4}\/\d{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.([a-z0-9]{1,8})$/;

/** Kind and extension of a key made by newKey, or undefined for any other string. */
export function parseUploadKey(key: string): { kind: UploadKind; ext: string } | undefined {
  const m = UPLOAD_KEY.exec(key);
  if (!m) return undefined;
  const kind = m[1] as UploadKind;
  const ext = m[2]!;
  return Object.hasOwn(POLICIES[kind].types, ext) ? { kind, ext } : undefined;
}

// Keys given to putFile/remove/exists may come from demo data or posters, so they are not forced
// into the upload pattern; they must still stay inside the storage root and never name a dotfile.
const SAFE_KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

export function isSafeKey(key: string): boolean {
  return key.length <= 512 && SAFE_KEY.test(key);
}

export function assertSafeKey(key: string): void {
  if (!isSafeKey(key)) throw new ApiError(400, '文件路径无效');
}
