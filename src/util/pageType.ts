/** A route's `type` (query or path): a non-negative integer, 0 when missing or malformed. */
export function toPageType(value: string | null | undefined): number {
  if (value === null || value === undefined || !/^\d{1,2}$/.test(value)) return 0;
  return Number(value);
}
