// Row types of the tables that hand-written code touches by name. The entity tables are reached
// through the generic repository, which checks every column against the entity's schema.
import type { Generated } from 'kysely';

export interface SettingTable {
  NAME: string;
  VALUE: string;
}

export interface MemberTable {
  ID: Generated<number>;
  AU_CODE: string;
  USER_NAME: string;
  AU_NAME: string;
  ORGANIZATION_NAME: string;
  IS_ADMIN: number;
  IS_BUILTIN: number;
  /** 1: disabled by an administrator (migration 005). */
  IS_DISABLED: Generated<number>;
  MODULES: string;
  PASSWORD_HASH: string;
  UPDATE_TIME: string;
}

export interface SessionTable {
  TOKEN_HASH: string;
  AU_CODE: string;
  CREATED_AT: string;
  EXPIRES_AT: string;
}

export interface LoginThrottleTable {
  THROTTLE_KEY: string;
  FAILS: number;
  WINDOW_START: string;
}

export interface UsewebTable {
  ID: Generated<number>;
  UW_NAME: string;
  UW_URL: string;
  UW_TYPE: number;
  UW_SORT: number;
}

/** A multipart upload in progress (migration 002). */
export interface UploadTable {
  UPLOAD_ID: string;
  KEY: string;
  KIND: string;
  TITLE: string;
  SIZE: number;
  PART_SIZE: number;
  CONTENT_TYPE: string;
  AU_CODE: string;
  CREATED_AT: string;
}

/** A stored file that may have lost its last record (migration 006, server/src/files/lifecycle.ts). */
export interface FileGcTable {
  KEY: string;
  /** 'queued': to decide; 'removing': decided, removal pending or retried; 'removed': tombstone. */
  STATE: string;
  DUE_AT: string;
  TRIES: Generated<number>;
}

/** An upload the server signed or started, for the daily quota (migration 006). */
export interface UploadLogTable {
  KEY: string;
  AU_CODE: string;
  /** Bytes counted against the quota: the declared size, at least 1 MiB. */
  SIZE: number;
  CREATED_AT: string;
}

/** The name an upload was made with, by its key (migration 007, server/src/storage/names.ts). */
export interface FileNameTable {
  KEY: string;
  NAME: string;
  CREATED_AT: string;
  /** Bytes, as the upload's signature allows (migration 009); null: stored before, not known. */
  SIZE: number | string | null;
}

/** Stored files per kind, kept with FILE_NAME (migration 009, server/src/storage/names.ts). */
export interface FileUsageTable {
  KIND: string;
  FILES: number | string;
  BYTES: number | string;
  /** Files among FILES whose size is not known. */
  UNSIZED: number | string;
}

export interface Database {
  USEWEB: UsewebTable;
  SETTING: SettingTable;
  MEMBER: MemberTable;
  SESSION: SessionTable;
  LOGIN_THROTTLE: LoginThrottleTable;
  UPLOAD: UploadTable;
  FILE_GC: FileGcTable;
  UPLOAD_LOG: UploadLogTable;
  FILE_NAME: FileNameTable;
  FILE_USAGE: FileUsageTable;
}
