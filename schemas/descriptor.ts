// The resource descriptor: what the server, the dataProvider and the generated screens need to
// know about an entity beyond its record schema. One descriptor per (entity, service) pair.
import type { JSONSchema } from 'json-schema-to-ts';

/** Legacy service prefixes of the calls (docs/api.md). */
export type Service = 'Ajax' | 'Xcx1' | 'Xcx3';

/**
 * A permission module's key, as stored in members' permission strings. Modules are declared by the
 * entities that introduce them (`modules` below); schemas/index.ts collects them.
 */
export type ModuleKey = string;

/** Permission codes: 1 add, 2 view, 3 edit, 4 delete, 'a' sort / next level. */
export const PERMISSION_CODES = ['1', '2', '3', '4', 'a'] as const;
export type PermissionCode = (typeof PERMISSION_CODES)[number];

/** What a member does to a resource; each action needs one permission code (schemas/permissions.ts). */
export type Action = 'create' | 'list' | 'show' | 'edit' | 'delete' | 'sort' | 'nextLevel';

/** The kinds of stored files, each with its own limits (server/src/storage/policies.ts). */
export type FileKind = 'video' | 'handout' | 'image';

/** A permission module: one row of the member permission editor, one key of a permission string. */
export interface ModuleDeclaration {
  readonly key: string;
  /** Chinese name, shown in the member permission editor and the audit log. */
  readonly label: string;
}

/** One entry of the side menu (and of the start page) leading to a screen. */
export interface MenuPlacement {
  /** Menu group, as staff think of it (视频, 文章…). Groups come in the order of their first entry. */
  readonly group: string;
  /** Position in the whole menu; unique. */
  readonly order: number;
  /** Name of an @mui/icons-material icon (src/layout/menuIcons.ts holds those in use). */
  readonly icon: string;
  /** Entry label; defaults to the screen's label. */
  readonly label?: string;
  /** Where the entry goes when that differs from the screen's path (a query, a sub-path). */
  readonly to?: string;
  /** Further path prefixes under which the entry shows as the current one. */
  readonly match?: readonly string[];
}

/** A screen of the app: a route, its guard, its title and where the menu shows it. */
export interface ScreenDeclaration {
  /** Route path; the legacy product's paths are kept. May end in an optional segment (`/:type?`). */
  readonly path: string;
  /** Page title and default menu label. */
  readonly label: string;
  /** Module whose view code (2) shows the screen; 'admin' for administrators only. */
  readonly module: ModuleKey | 'admin';
  /**
   * A special screen: its file under src/resources/ without the extension ('video/VideoList'),
   * whose default export renders it. Without one the screen is the generated list and dialog.
   */
  readonly component?: string;
  /** Properties handed to the special screen (the service a shared screen works on). */
  readonly props?: Readonly<Record<string, string | number>>;
  /** Menu entries leading here; none: reached by links only (a details page). */
  readonly menu?: readonly MenuPlacement[];
}

/**
 * A field holding the code of a record of another (or the same) resource. The server checks that
 * the record exists on every write that sets the field, and keeps the rule of `onDelete` when the
 * referenced record goes.
 */
export interface Reference {
  readonly field: string;
  /** Resource name of the referenced records. */
  readonly to: string;
  /** Field of the referenced record the value matches (its code). */
  readonly toField: string;
  /** Message when the referenced record does not exist. */
  readonly missing: string;
  /** Message beside the field when that differs from `missing` (what to do about it). */
  readonly missingHint?: string;
  /** A value meaning "no parent" (the top of a tree), accepted without a record. */
  readonly root?: string;
  /** Deleting a referenced record: refused while rows point at it, or taking them with it. */
  readonly onDelete: 'refuse' | 'cascade';
  /** The 409 message of a refused delete. */
  readonly refused?: string;
  /** Fields copied from the referenced record on write (target field → this field). */
  readonly copy?: Readonly<Record<string, string>>;
  /** The message when a move would change a copied field that is fixed (`fixedFields`). */
  readonly copyMismatch?: string;
  /** A reference to the same resource forming a tree: the message refusing a cycle. */
  readonly cycle?: string;
}

/** Who owns a row, and which actions on it only its owner (or an administrator) may take. */
export interface Ownership {
  /** Field holding the owner's member code (AuCode). Rows without one are administrators'. */
  readonly field: string;
  readonly actions: readonly Action[];
  /** These actions need the owner and the view code only, not their own code (a comment's author). */
  readonly byOwnerWithView?: boolean;
}

/** The legacy calls of a resource. */
export type CallKind = 'list' | 'one' | 'create' | 'update' | 'delete';

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

  /** Permission modules this entity introduces. */
  readonly modules?: readonly ModuleDeclaration[];
  /** The app's screens for this entity. */
  readonly screens?: readonly ScreenDeclaration[];
  /** Calls written by hand in server/src/routes/ rather than generated. */
  readonly handWritten?: readonly CallKind[];
  /** Fields holding stored files, and the kind each must be. */
  readonly files?: Readonly<Record<string, FileKind>>;
  /**
   * Free-text fields where staff may paste the address of a stored file (an article's 上传地址):
   * a file linked there is kept as long as the record is (server/src/files/lifecycle.ts).
   */
  readonly links?: readonly string[];
  /** Fields pointing at other records. */
  readonly references?: readonly Reference[];
  /** Fields set at creation and never changed afterwards (the server drops them from updates). */
  readonly fixedFields?: readonly string[];
  /** Values a new record gets when the call leaves them out: today's date, or after the last row. */
  readonly createDefaults?: Readonly<Record<string, 'today' | 'last'>>;
  readonly ownership?: Ownership;
  /** Writes are logged in the audit log, the record named by this field. */
  readonly audit?: { readonly nameField: string };
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
