// Values no column can hold, refused with a field error instead of failing in the database driver:
// - NUL characters: PostgreSQL refuses them in text (SQLite stores them, but nothing here needs one);
// - non-finite numbers: Ajv's type coercion turns the text "Infinity" or "1e400" into a number and
//   then skips `minimum`/`maximum`, which only apply to finite numbers;
// - bidirectional controls (U+202A–U+202E, U+2066–U+2069, LRM, RLM, ALM): they reorder what is
//   shown, so "讲义\u202Efdp.exe" reads as "讲义exe.pdf". No text of this product needs them.
import type { FieldError } from '../errors';

const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

function unstorableText(text: string): string | undefined {
  if (text.includes('\u0000')) return '不能包含空字符';
  if (BIDI_CONTROLS.test(text)) return '不能包含文字方向控制字符';
  return undefined;
}

/** The first unstorable value of a parsed body or query string, named by its top-level field. */
export function unstorableValue(input: unknown): FieldError | undefined {
  // Iterative: a JSON body may be nested deeper than the call stack allows.
  const stack: { value: unknown; field: string | undefined }[] = [{ value: input, field: undefined }];
  while (stack.length > 0) {
    const { value, field } = stack.pop()!;
    if (typeof value === 'string') {
      const msg = unstorableText(value);
      if (msg) return { field: field ?? 'body', msg };
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return { field: field ?? 'body', msg: '须为有效数字' };
    } else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        const msg = unstorableText(key);
        if (msg) return { field: field ?? 'body', msg };
        stack.push({ value: child, field: field ?? (Array.isArray(value) ? undefined : key) });
      }
    }
  }
  return undefined;
}
