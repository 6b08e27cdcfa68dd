// Finding our stored files in text: a file URL, a JSON file list or rich text may each hold one or
// more URLs of the forms a driver produces (`/files/<key>`, `<public base URL>/<key>`).
import { isSafeKey } from './policies';

const KEY_CHARS = /^[A-Za-z0-9._/-]{1,512}/;

/** Keys behind every occurrence of one of the prefixes in `text`, in order, without repeats. */
export function keysAfterPrefixes(text: string, prefixes: readonly string[]): string[] {
  const found = new Set<string>();
  for (const prefix of prefixes) {
    for (let i = text.indexOf(prefix); i !== -1; i = text.indexOf(prefix, i + prefix.length)) {
      const m = KEY_CHARS.exec(text.slice(i + prefix.length, i + prefix.length + 512));
      // A sentence may end right after a link: "见 /files/handout/….pdf。" or "….pdf."
      const key = m?.[0].replace(/\.+$/, '');
      if (key && isSafeKey(key)) found.add(key);
    }
  }
  return [...found];
}
