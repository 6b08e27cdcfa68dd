// The limits of a list call (docs/api.md, Lists), shared by the server's request schemas and the
// dataProvider, which asks for the rest of an answer the server's byte limit cut short.

/** Rows of an `All=1` answer at most; `total` still counts every matching row. */
export const MAX_ALL_ROWS = 20000;
export const MAX_PAGE_SIZE = 100;
export const MAX_PAGE_INDEX = 1000000;

/**
 * Bytes of one list answer's JSON at most, unless LIST_MAX_BYTES says otherwise: a dozen of the
 * longest comments, or a classification tree of some 18,000 rows; seven answers at once then
 * take tens of MB of the server's memory, where seven of a video's 1,000 longest comments took GB.
 */
export const DEFAULT_LIST_MAX_BYTES = 4 * 1024 * 1024;

/** The export call (导出) beside a list call: the list's own path with `/Export` (docs/api.md, Export). */
export const exportCall = (descriptor: { readonly service: string; readonly calls: { readonly list: string } }) =>
  `/${descriptor.service}/${descriptor.calls.list}/Export`;

/** The export's answer header counting the rows the file will hold, for the browser's progress. */
export const EXPORT_ROWS_HEADER = 'X-Export-Rows';
