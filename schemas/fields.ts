// Reusable field shapes, so that every entity states "a 1/0 flag" or "an http(s) link" the same way.
// Widget hints use standard keywords where JSON Schema has one: `contentMediaType: 'text/html'` marks
// rich text and `contentMediaType: 'application/json'` marks a JSON list of files; `readOnly` marks
// fields the server owns, `writeOnly` fields never returned; `description` is the hint under an
// input. Our own keywords (SCHEMA_KEYWORDS) annotate and never change what is valid but for the
// date range.

/** Links accept only http and https. */
export const HTTP_URL_PATTERN = '^https?://[^\\s<>"]+$';
/**
 * A stored file: an http(s) URL or a path served by this server's local storage. No `.` or `..`
 * segment: a browser resolves `/files/../Ajax/…` to another path of this origin.
 */
export const FILE_URL_PATTERN = '^(https?://[^\\s<>"]+|/files/(?!(?:.*/)?\\.\\.?(?:/|$))[A-Za-z0-9._/-]+)$';

export const OPTIONAL_FILE_URL_PATTERN = '^(|https?://[^\\s<>"]+|/files/(?!(?:.*/)?\\.\\.?(?:/|$))[A-Za-z0-9._/-]+)$';

/** Our keywords beside JSON Schema's (see the top of this file). */
export const SCHEMA_KEYWORDS = ['requiredMessage', 'formatMinimum', 'formatMaximum', 'enumLabels'] as const;

/** The wording of a broken rule, the same in the dialog and in the server's field errors (docs/api.md). */
export const FIELD_MESSAGES = {
  required: '必填',
  minLength: (n: number) => `至少${n}个字符`,
  maxLength: (n: number) => `不能超过${n}个字符`,
  minimum: (n: number) => `不能小于${n}`,
  maximum: (n: number) => `不能大于${n}`,
  earliest: (day: string) => `不能早于${day}`,
  latest: (day: string) => `不能晚于${day}`,
  date: '日期格式应为YYYY-MM-DD',
  link: '请输入以 http:// 或 https:// 开头的链接',
} as const;

/** Sort numbers: never negative, and five digits are room for any list of the product. */
export const SORT_MINIMUM = 0;
export const SORT_MAXIMUM = 99999;

/** Dates (a video's, an article's publication) fall in this century. */
export const DATE_MINIMUM = '2000-01-01';
export const DATE_MAXIMUM = '2099-12-31';

export const idField = { type: 'integer', title: 'ID', readOnly: true } as const;

export const codeField = (title: string) => ({ type: 'string', title, maxLength: 64, readOnly: true }) as const;

/**
 * A 1/0 flag: a switch in the dialog, a tag in the table (是 / 否 unless `labels` says, 1 first),
 * a 是 / 否 filter.
 */
export const flagField = (title: string, defaultValue: 0 | 1 = 0, labels: readonly [string, string] = ['是', '否']) =>
  ({ type: 'integer', title, enum: [0, 1], default: defaultValue, enumLabels: { 1: labels[0], 0: labels[1] } }) as const;

/**
 * One of a few values, each with its Chinese label (`enumLabels`, in the order shown): a select in
 * the dialog, a coloured tag in the table, a select as a filter. The first value is the default.
 */
export const choiceField = <const L extends Readonly<Record<string, string>>>(title: string, labels: L) => {
  const values = Object.keys(labels) as (keyof L & string)[];
  return { type: 'string', title, enum: values, enumLabels: labels, default: values[0]! } as const;
};

export const sortField = (title: string) =>
  ({ type: 'integer', title, minimum: SORT_MINIMUM, maximum: SORT_MAXIMUM, default: 0 }) as const;

export const counterField = (title: string) => ({ type: 'integer', title, minimum: 0, readOnly: true }) as const;

/**
 * A day, 'YYYY-MM-DD'. Its range is `formatMinimum` / `formatMaximum` (DATE_MINIMUM..DATE_MAXIMUM):
 * the server refuses days outside it, the dialog's validator and date picker read the same keywords.
 */
export const dateField = (title: string) =>
  ({ type: 'string', title, format: 'date', formatMinimum: DATE_MINIMUM, formatMaximum: DATE_MAXIMUM }) as const;

export const timestampField = (title: string) => ({ type: 'string', title, readOnly: true }) as const;

export const textField = <const N extends number>(title: string, maxLength: N) =>
  ({ type: 'string', title, maxLength }) as const;

export const requiredTextField = <const N extends number>(title: string, maxLength: N) =>
  ({ type: 'string', title, minLength: 1, maxLength }) as const;

/**
 * Longest rich text, in characters of HTML: the longest documents the catalogues hold fit with room
 * (a model contract of some 60,000 characters is about 70,000 of the editor's HTML; a table of 100
 * rows by 6 columns about 27,000). The server sanitises the longest in 0.1 to 2 s of its rich-text
 * worker (server/src/richText.ts, measured on a loaded 2-core host): the limit bounds that time and
 * the worker's memory.
 */
export const RICH_TEXT_MAX_LENGTH = 100000;

export const richTextField = (title: string) =>
  ({ type: 'string', title, maxLength: RICH_TEXT_MAX_LENGTH, contentMediaType: 'text/html' }) as const;

/** Chinese labels of an `enum`'s values (choiceField does this for text values). */
export const withLabels = <const F extends { readonly enum: readonly (string | number)[] }, const L extends Readonly<Record<string, string>>>(field: F, enumLabels: L) =>
  ({ ...field, enumLabels }) as const;

/** A JSON list of stored files `[{ name, url }]`; the descriptor's `files` says their kind. */
export const fileListField = (title: string) =>
  ({ type: 'string', title, maxLength: 20000, contentMediaType: 'application/json', default: '[]' }) as const;

/** A field's hint shown under its input (JSON Schema's `description`). */
export const withHint = <const F extends object, const H extends string>(field: F, description: H) => ({ ...field, description }) as const;

export const httpUrlField = (title: string) =>
  ({ type: 'string', title, maxLength: 1000, pattern: HTTP_URL_PATTERN }) as const;

/** A file URL that may be empty (no image chosen). */
export const optionalFileUrlField = (title: string) =>
  ({ type: 'string', title, maxLength: 1000, pattern: OPTIONAL_FILE_URL_PATTERN, default: '' }) as const;

export const fileUrlField = (title: string) =>
  ({ type: 'string', title, maxLength: 1000, pattern: FILE_URL_PATTERN }) as const;

/** A field whose message when it is required and left out or blank is its own (`requiredMessage`), not 必填. */
export const withRequiredMessage = <const F extends object, const M extends string>(field: F, requiredMessage: M) =>
  ({ ...field, requiredMessage }) as const;
