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

export interface Database {
  USEWEB: UsewebTable;
  SETTING: SettingTable;
  MEMBER: MemberTable;
  SESSION: SessionTable;
  LOGIN_THROTTLE: LoginThrottleTable;
  UPLOAD: UploadTable;
}
