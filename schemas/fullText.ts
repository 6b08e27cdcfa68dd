// Full-text search (docs/api.md, Full-text search): the limits of the search call each descriptor
// with `fullText` names, its answer, and the administrators' calls on the index, shared by the
// server and the screens.
import type { FullTextSource } from './descriptor';

/** The administrators' calls, on /Ajax/. */
export const FULL_TEXT_CALLS = {
  state: 'GetFullTextIndexState',
  retry: 'RetryFullTextIndex',
} as const;

/** Characters of a search's text, after trimming. */
export const FULL_TEXT_MAX_CHARS = 100;
export const FULL_TEXT_PAGE_SIZE = 20;
export const FULL_TEXT_MAX_PAGE_SIZE = 50;
/** Matching pages counted at most; more are "1000+" (`totalCapped`). */
export const FULL_TEXT_COUNT_CAP = 1000;

/** One result: a page (or a body) of a record where the words stand. */
export interface FullTextHit {
  Id: number;
  Source: FullTextSource;
  FileName?: string;
  FileUrl?: string;
  /** The page of a PDF, from 1. */
  Page?: number;
  /** Plain text around the best hit, about 120 characters. */
  Snippet: string;
  /** [start, length] of each hit in `Snippet`, in UTF-16 code units. */
  Highlights: [number, number][];
  /** The record's code, name, and the fields of its list's search and filters (SaCode, SaName, SaCodeName, ScCode, type). */
  [field: string]: unknown;
}

export interface FullTextFailure {
  /** The record's table, and its resource and label. */
  Table: string;
  Resource: string;
  Label: string;
  Id: number;
  SaName: string;
  FileName: string;
  Reason: string;
  /** When it was read, ISO 8601. */
  When: string;
}

export interface FullTextIndexState {
  /** Sources (files and bodies) indexed. */
  Indexed: number;
  /** Records waiting to be indexed (new, changed, or a reindex). */
  Waiting: number;
  /** Sources that could not be read. */
  Failed: number;
  Failures: FullTextFailure[];
}
