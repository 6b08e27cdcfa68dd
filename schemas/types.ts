// TypeScript types of the records, inferred from the schemas (never written by hand).
import type { FromSchema } from 'json-schema-to-ts';
import type { memberSchema } from './member';
import type { standardArticleSchema } from './standardArticle';
import type { standardClassifySchema } from './standardClassify';
import type { usewebSchema } from './useweb';
import type { videoCommentSchema } from './videoComment';
import type { videoSchema } from './video';
import type { videoTypeSchema } from './videoType';
import type { FileKind, ModuleKey } from './descriptor';

export type Video = FromSchema<typeof videoSchema>;
export type VideoType = FromSchema<typeof videoTypeSchema>;
export type VideoComment = FromSchema<typeof videoCommentSchema>;
export type Useweb = FromSchema<typeof usewebSchema>;
export type StandardArticle = FromSchema<typeof standardArticleSchema>;
export type StandardClassify = FromSchema<typeof standardClassifySchema>;
export type Member = FromSchema<typeof memberSchema>;

/** A file of a handout or article file list (`VdEnclosure`, `SaPdfUrl`). */
export interface FileEntry {
  name: string;
  url: string;
}

/** `data` of GetCurrentMember. */
export interface CurrentMember {
  AuCode: string;
  AuName: string;
  UserName: string;
  IsAdmin: 0 | 1;
  OrganizationName: string;
  Modules: Partial<Record<ModuleKey, string>>;
}

/** The success envelope of every call. */
export interface Envelope<T> {
  code: 0;
  msg: string;
  data: T;
  total?: number;
}

/** The failure envelope. */
export interface ErrorEnvelope {
  code: number;
  msg: string;
  errors?: { field: string; msg: string }[];
}

/** `data` of SignUpload. */
export interface SignedUpload {
  Method: 'PUT' | 'POST';
  Url: string;
  Headers: Record<string, string>;
  Fields: Record<string, string>;
  FileUrl: string;
  Title: string;
}

export type UploadKind = FileKind;
