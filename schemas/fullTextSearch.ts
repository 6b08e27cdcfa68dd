// The answers of the full-text calls as the screens read them (docs/api.md): a descriptor's
// `fullText.call` (the search), and the index's state for administrators.
import type { FullTextSource } from './descriptor';

/** One hit: an (article, file, page) or an (article, rich-text field), best first. */
export interface FullTextHit {
  Id: number;
  SaCode: string;
  SaName: string;
  SaCodeName?: string | null;
  ScCode: string;
  type: number;
  Source: FullTextSource;
  FileName?: string;
  FileUrl?: string;
  /** The page of a PDF (1 the first). */
  Page?: number;
  /** Plain text (never HTML) around the best hit. */
  Snippet: string;
  /** [start, length] in UTF-16 code units of Snippet. */
  Highlights: [number, number][];
}

/** The longest search text (after trimming) the search call takes. */
export const FULL_TEXT_MAX_LENGTH = 100;
/** Hits a page of the screens' results. */
export const FULL_TEXT_PAGE_SIZE = 20;
/** Totals are exact up to this; past it the answer says `totalCapped` (shown as 1000+). */
export const FULL_TEXT_COUNT_CAP = 1000;

/** The index's state (GetFullTextIndexState): counts, and one page of the documents that failed. */
export interface FullTextIndexState {
  Indexed: number;
  Waiting: number;
  Failed: number;
  Failures: FullTextFailure[];
}

export interface FullTextFailure {
  /** The table of the record (a descriptor's `table`). */
  Table: string;
  Id: number;
  SaName: string;
  FileName: string;
  /** Why it could not be read, in Chinese. */
  Reason: string;
  /** When it failed (ISO date-time). */
  When: string;
}

export const FULL_TEXT_STATE_CALL = 'GetFullTextIndexState';
export const FULL_TEXT_RETRY_CALL = 'RetryFullTextIndex';
