// Values no column can hold, refused with a field error instead of failing in the database driver:
// - NUL characters: PostgreSQL refuses them in text (SQLite stores them, but nothing here needs one);
// - non-finite numbers: Ajv's type coercion turns the text "Infinity" or "1e400" into a number and
//   then skips `minimum`/`maximum`, which only apply to finite numbers.
import type { FieldError } from '../errors';

/** The first unstorable value of a parsed body or query string, named by its top-level field. */
export function unstorableValue(input: unknown): FieldError | undefined {
  // Iterative: a JSON body may be nested deeper than the call stack allows.
  const stack: { value: unknown; field: string | undefined }[] = [{ value: input, field: undefined }];
  while (stack.length > 0) {
    const { value, field } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return { field: field ?? 'body', msg: '不能包含空字符' };
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return { field: field ?? 'body', msg: '须为有效数字' };
    } else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key.includes('\u0000')) return { field: field ?? 'body', msg: '不能包含空字符' };
        stack.push({ value: child, field: field ?? (Array.isArray(value) ? undefined : key) });
      }
    }
  }
  return undefined;
}
