// A snippet with its highlighted words, as text segments: the answer's Snippet is plain text and
// its Highlights offsets into it; the screens render the segments as text, never as HTML.
import { FULL_TEXT_COUNT_CAP } from '../../../schemas/fullText';

export interface Segment {
  text: string;
  /** A highlighted word (shown in <mark>). */
  mark: boolean;
}

/**
 * The snippet cut at the highlights: `[start, length]` in UTF-16 code units, clamped to the text;
 * empty, malformed and out-of-range ones are ignored, overlapping or touching ones joined.
 */
export function highlightSegments(snippet: string, highlights: unknown): Segment[] {
  const ranges: [number, number][] = [];
  if (Array.isArray(highlights)) {
    for (const h of highlights) {
      if (!Array.isArray(h) || !Number.isInteger(h[0]) || !Number.isInteger(h[1])) continue;
      const start = Math.max(0, h[0] as number);
      const end = Math.min(snippet.length, (h[0] as number) + (h[1] as number));
      if (start < end) ranges.push([start, end]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  const segments: Segment[] = [];
  let at = 0;
  for (const [start, end] of merged) {
    if (start > at) segments.push({ text: snippet.slice(at, start), mark: false });
    segments.push({ text: snippet.slice(start, end), mark: true });
    at = end;
  }
  if (at < snippet.length) segments.push({ text: snippet.slice(at), mark: false });
  return segments;
}

/** The address opening a hit's file: its URL, at the page for a PDF (`#page=N`, the PDF viewers' open parameter). */
export function fileHitUrl(url: string, name: string | undefined, page: number | undefined): string {
  const pdf = /\.pdf$/i.test(name ?? '') || /\.pdf(?:[?#]|$)/i.test(url);
  const bare = url.replace(/#.*$/, '');
  return pdf && page !== undefined && Number.isInteger(page) && page >= 1 ? `${bare}#page=${page}` : bare;
}

/** A total as the screens say it: exact, or 1000+ when the server stopped counting. */
export function totalText(total: number, capped: boolean): string {
  return capped ? `${FULL_TEXT_COUNT_CAP}+` : String(total);
}
