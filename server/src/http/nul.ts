// PostgreSQL cannot store the NUL character in text (SQLite can, but nothing here has a use for it),
// so a request carrying one is refused up front with a field error instead of failing in the driver.

/** Top-level field of the first string (value or key) holding U+0000, `body` for a bare value; undefined if none. */
export function fieldWithNul(input: unknown): string | undefined {
  // Iterative: a JSON body may be nested deeper than the call stack allows.
  const stack: { value: unknown; field: string | undefined }[] = [{ value: input, field: undefined }];
  while (stack.length > 0) {
    const { value, field } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return field ?? 'body';
    } else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key.includes('\u0000')) return field ?? 'body';
        stack.push({ value: child, field: field ?? (Array.isArray(value) ? undefined : key) });
      }
    }
  }
  return undefined;
}
