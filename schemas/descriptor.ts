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
 * A screen as an entity file writes it: its path defaults to `/<resource>`, its label to the
 * entity's label and its module to the entity's module.
 */
export type ScreenInput = Omit<ScreenDeclaration, 'path' | 'label' | 'module'> & Partial<Pick<ScreenDeclaration, 'path' | 'label' | 'module'>>;

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

/** A column of a generated table: a field of the schema, shown as its shape calls for (src/components/schemaFields.ts). */
export interface ListColumn {
  /** Record field shown in the column. */
  readonly field: string;
}

/** Fields of the schema a screen leaves out; the rest show in the schema's order. */
export interface HiddenFields {
  /** Not a column of the generated table. */
  readonly list?: readonly string[];
  /** Not an input of the add/edit dialog. */
  readonly form?: readonly string[];
}

export interface ResourceDescriptor<S extends ObjectSchema = ObjectSchema> {
  /** react-admin resource name, unique across services. */
  readonly resource: string;
  /** Chinese name of the entity, for messages and menus: the schema's title unless given. */
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
  /**
   * What the generated table and dialog leave out. Every other field shows, in the schema's order:
   * columns all but the record's Id and code, passwords, nested values and rich text; inputs every
   * field the server does not own (readOnly).
   */
  readonly hidden?: HiddenFields;
  /** The field naming a record: the name a reference to it shows, and the audit log's. */
  readonly nameField?: string;
  /** "Contains" search fields (docs/api.md). */
  readonly searchFields: readonly string[];
  /**
   * Fields a table may be sorted by (its column headers): each gets an index of its own, under
   * every filter the lists use (generated migrations), read forwards or backwards.
   */
  readonly sortable?: readonly string[];
  /** Equality filters a list call accepts (VdtCode, ScCode…). */
  readonly filters: readonly string[];
  /** Further parameters of the list call beyond filters and search fields (the audit log's time range). */
  readonly listParams?: readonly string[];
  readonly pageSize: number;
  /** The add/edit dialog: its width and title (default `<label>详情`). */
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
  /**
   * Sets of fields no two rows share (a video's daily figures: one row per video and day): each a
   * unique index of the table (generated migrations), which a write may name as the target of an
   * upsert. Existing rows are not checked: a set added to a table with rows is a hand-written migration.
   */
  readonly unique?: readonly (readonly string[])[];
  /** Fields set at creation and never changed afterwards (the server drops them from updates). */
  readonly fixedFields?: readonly string[];
  /** Values a new record gets when the call leaves them out: today's date, or after the last row. */
  readonly createDefaults?: Readonly<Record<string, 'today' | 'last'>>;
  readonly ownership?: Ownership;
  /** Writes are logged in the audit log, each record named by its `nameField`. */
  readonly audit?: boolean;
  /**
   * A content type the start page counts, for members who may view one of its menu screens: its
   * records in all, and per value of `by` when given (the filter of its screen's tabs or menu
   * entries: a video's category, an article's document type). The totals are the kept ones (ROW_COUNT).
   */
  readonly homeCount?: { readonly by?: string };
  /**
   * Further indexes a special call reads, each its fields' columns in order (generated
   * migrations): the start page's sums per day read a video's daily figures from one alone.
   */
  readonly indexes?: readonly (readonly string[])[];
  /**
   * Search inside the records' documents (docs/api.md, Full-text search): the search call (on the
   * entity's service), the file-list fields whose files are read (PDF, DOCX, text), and the rich-text
   * fields, each with the `Source` a result of it names. The server keeps an index of their text
   * (server/src/fullText/), updated in the transaction of each write.
   */
  readonly fullText?: FullTextOption;
}

/** Where a full-text result was found: a stored file, or one of the rich-text fields. */
export type FullTextSource = 'file' | 'content' | 'problem' | 'answer';

export interface FullTextOption {
  readonly call: string;
  readonly files?: readonly string[];
  readonly richText?: readonly string[];
  /** The `Source` of each rich-text field's results. */
  readonly sources?: Readonly<Record<string, Exclude<FullTextSource, 'file'>>>;
}

/**
 * An entity file's declaration: what follows from the rest may be left out. `label` defaults to
 * the schema's title; `module` to the resource name, and then the entity introduces that module
 * (before any other its `modules` list), labelled by its first screen, as a listed module is; `table` to the resource name in upper case
 * (`videoType` → `VIDEO_TYPE`); the dialog's title to `<label>详情`; a screen's path, label and
 * module as ScreenInput says.
 */
export type ResourceDeclaration<S extends ObjectSchema = ObjectSchema> = Omit<
  ResourceDescriptor<S>,
  'label' | 'module' | 'table' | 'dialog' | 'modules' | 'screens'
> &
  Partial<Pick<ResourceDescriptor<S>, 'label' | 'module' | 'table'>> & {
    readonly dialog: { readonly width: number; readonly title?: string };
    readonly modules?: readonly (Omit<ModuleDeclaration, 'label'> & Partial<Pick<ModuleDeclaration, 'label'>>)[];
    readonly screens?: readonly ScreenInput[];
  };

/** `VdTime` → `VD_TIME`, `ScPageimg` → `SC_PAGEIMG`, `type` → `TYPE`. */
export function toColumn(field: string): string {
  return field
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toUpperCase();
}

/**
 * The descriptor of an entity file's declaration, with what it left out filled in
 * (ResourceDeclaration); keeps the literal type of the schema.
 */
export function defineResource<const S extends ObjectSchema>(d: ResourceDeclaration<S>): ResourceDescriptor<S> {
  const title = (d.schema as { title?: unknown }).title;
  const label = d.label ?? (typeof title === 'string' ? title : d.resource);
  const module = d.module ?? d.resource;
  const screens: ScreenDeclaration[] = (d.screens ?? []).map((s) => ({ ...s, path: s.path ?? `/${d.resource}`, label: s.label ?? label, module: s.module ?? module }));
  const screenLabelOf = (key: string) => screens.find((s) => s.module === key)?.label ?? label;
  // An entity without a `module` of another has one of its own, besides any it lists.
  const own: { key: string; label?: string }[] = d.module === undefined && !d.modules?.some((m) => m.key === module) ? [{ key: module }] : [];
  const declared = [...own, ...(d.modules ?? [])];
  const modules = declared.map((m) => ({ key: m.key, label: m.label ?? screenLabelOf(m.key) }));
  const { modules: _modules, screens: _screens, ...rest } = d;
  return {
    ...rest,
    label,
    module,
    table: d.table ?? toColumn(d.resource),
    dialog: { width: d.dialog.width, title: d.dialog.title ?? `${label}详情` },
    ...(modules.length > 0 ? { modules } : {}),
    ...(screens.length > 0 ? { screens } : {}),
  };
}

interface FieldShape {
  readonly type?: unknown;
  readonly readOnly?: boolean;
  readonly writeOnly?: boolean;
  readonly contentMediaType?: string;
}

const shapeOf = (descriptor: ResourceDescriptor, field: string) => descriptor.schema.properties[field] as FieldShape;

const isRichText = (shape: FieldShape) => shape.contentMediaType === 'text/html';

/**
 * The generated table's columns, in the schema's order: every field but `hidden.list`, the record's
 * Id and code, passwords (writeOnly) and nested values. Rich text shows as a 预览 (its body is read
 * with the record's call when a list answer leaves it out).
 */
export function listFields(descriptor: ResourceDescriptor): string[] {
  const hidden = new Set([...(descriptor.hidden?.list ?? []), 'Id', ...(descriptor.codeField ? [descriptor.codeField] : [])]);
  return Object.keys(descriptor.schema.properties).filter((field) => {
    const shape = shapeOf(descriptor, field);
    return !hidden.has(field) && !shape.writeOnly && shape.type !== 'object' && shape.type !== 'array';
  });
}

/**
 * The columns of a list's export (导出): what staff see of a record, the table's columns, the
 * dialog's inputs and the records it points at (by name), in the schema's order. The table leaves
 * out what another part of its screen shows (a tab's category, a tree's branch, the files on the
 * details page); a spreadsheet has no such part. Never the Id or code, passwords (writeOnly) or
 * nested values.
 */
export function exportFields(descriptor: ResourceDescriptor): string[] {
  const shown = new Set([...listFields(descriptor), ...formFields(descriptor), ...(descriptor.references ?? []).map((r) => r.field)]);
  const never = new Set(['Id', ...(descriptor.codeField ? [descriptor.codeField] : [])]);
  return Object.keys(descriptor.schema.properties).filter((field) => {
    const shape = shapeOf(descriptor, field);
    return shown.has(field) && !never.has(field) && !shape.writeOnly && shape.type !== 'object' && shape.type !== 'array';
  });
}

/** The generated dialog's inputs, in the schema's order: every field the server does not own (readOnly), but `hidden.form`. */
export function formFields(descriptor: ResourceDescriptor): string[] {
  const hidden = new Set(descriptor.hidden?.form ?? []);
  return Object.keys(descriptor.schema.properties).filter((field) => !hidden.has(field) && !shapeOf(descriptor, field).readOnly);
}

/**
 * Fields a list answer leaves out: rich text, when the single-record call (`calls.one`) can read it
 * (an article's 问题, 统一回答 and body). A page of 100 articles would otherwise carry every body;
 * the screens that show or edit a body read it from there. An entity without that call (a video's
 * comments) lists its rich text.
 */
export function detailOnlyFields(descriptor: ResourceDescriptor): string[] {
  if (!descriptor.calls.one) return [];
  return Object.keys(descriptor.schema.properties).filter((field) => isRichText(shapeOf(descriptor, field)));
}
