// The resource descriptor: what the server, the dataProvider and the generated screens need to
// know about an entity beyond its record schema. One descriptor per (entity, service) pair.
import type { JSONSchema } from 'json-schema-to-ts';

/** Legacy service prefixes of the calls (docs/api.md). */
export type Service = 'Ajax' | 'Xcx1' | 'Xcx3';

/** Permission modules (docs/api.md), one per screen. */
export const MODULES = ['video', 'videoView', 'videoType', 'useweb', 'tykj', 'article', 'classify'] as const;
export type ModuleKey = (typeof MODULES)[number];

/** Permission codes: 1 add, 2 view, 3 edit, 4 delete, 'a' sort / next level. */
export const PERMISSION_CODES = ['1', '2', '3', '4', 'a'] as const;
export type PermissionCode = (typeof PERMISSION_CODES)[number];

/** Chinese names of the modules, for menus and the member permission editor. */
export const MODULE_LABELS: Record<ModuleKey, string> = {
  video: '视频学习编辑',
  videoView: '在线视频',
  videoType: '视频分类',
  useweb: '常用网站管理',
  tykj: '统一口径',
  article: '文章目录',
  classify: '分类管理',
};

export interface ObjectSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, Exclude<JSONSchema, boolean>>>;
  readonly required?: readonly string[];
  readonly [key: string]: unknown;
}

export interface ListColumn {
  /** Record field shown in the column. */
  readonly field: string;
  /** Column header; defaults to the field's schema title. */
  readonly label?: string;
  /** How to render it; defaults from the schema (flag, date, link, number, text). */
  readonly render?: 'text' | 'date' | 'datetime' | 'flag' | 'number' | 'link' | 'image';
  /** Labels of a 1/0 flag (1 first). */
  readonly flagLabels?: readonly [string, string];
}

export interface ResourceDescriptor<S extends ObjectSchema = ObjectSchema> {
  /** react-admin resource name, unique across services. */
  readonly resource: string;
  /** Chinese name of the entity, for messages and menus. */
  readonly label: string;
  readonly service: Service;
  /** SQL table holding the records of this (entity, service) pair. */
  readonly table: string;
  readonly schema: S;
  /** Server-generated code field (VdCode, ScCode…), if the entity has one. */
  readonly codeField?: string;
  /** Legacy call names. `one` reads a single record by `oneParam`. */
  readonly calls: {
    readonly list: string;
    readonly one?: string;
    readonly create?: string;
    readonly update?: string;
    readonly delete?: string;
  };
  /** Parameter of the single-record call: `Id`, or the code (`Code`). */
  readonly oneParam?: 'Id' | 'Code';
  /** Default `OrderName` of the list call (docs/api.md). */
  readonly defaultOrder: string;
  /** Module whose permission string guards the calls; 'admin' means administrators only. */
  readonly module: ModuleKey | 'admin';
  /** Further modules whose view code (2) also allows reading (a screen that shows these records). */
  readonly readModules?: readonly ModuleKey[];
  /** Module guarding writes when it differs from `module` (classifications: managed in 2.9). */
  readonly writeModule?: ModuleKey;
  readonly listColumns: readonly ListColumn[];
  /** "Contains" search fields (docs/api.md). */
  readonly searchFields: readonly string[];
  /** Equality filters a list call accepts (VdtCode, ScCode…). */
  readonly filters: readonly string[];
  /** Further parameters of the list call beyond filters and search fields (the audit log's time range). */
  readonly listParams?: readonly string[];
  readonly pageSize: number;
  readonly dialog: { readonly width: number; readonly title: string };
}

/** `VdTime` → `VD_TIME`, `ScPageimg` → `SC_PAGEIMG`, `type` → `TYPE`. */
export function toColumn(field: string): string {
  return field
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toUpperCase();
}

/** Keeps the literal type of a descriptor while checking its shape. */
export function defineResource<const S extends ObjectSchema>(d: ResourceDescriptor<S>): ResourceDescriptor<S> {
  return d;
}

/**
 * Fields a list answer leaves out: rich text that no list column shows (an article's 问题, 统一回答
 * and body). A page of 100 articles would otherwise carry every body; the single-record call
 * (`calls.one`) returns them, and the screens that show or edit a body read it from there.
 */
export function detailOnlyFields(descriptor: ResourceDescriptor): string[] {
  const listed = new Set(descriptor.listColumns.map((c) => c.field));
  return Object.entries(descriptor.schema.properties)
    .filter(([field, property]) => (property as { contentMediaType?: string }).contentMediaType === 'text/html' && !listed.has(field))
    .map(([field]) => field);
}
