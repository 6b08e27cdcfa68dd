/** A record as the repository reads and writes it: wire field names to values. */
export type Row = Record<string, unknown>;
