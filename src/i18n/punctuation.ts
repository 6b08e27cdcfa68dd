// Chinese text takes full-width punctuation (，。：！？；（）“”). A half-width mark beside a Chinese
// character is a slip of the legacy pack or of a message written by hand; these find them.

/** Messages the product spells with half-width marks on purpose: the legacy wording, kept exactly. */
export const LEGACY_MESSAGES: readonly string[] = [
  '操作成功!',
  '删除成功!',
  '发布成功!',
  '请上传视频!',
  '此操作将永久删除该记录, 是否继续?',
];

const HAN = '\\u3400-\\u9fff\\uf900-\\ufaff';
const HALF_WIDTH = ',.!?:;()"';
/** A half-width mark with a Chinese character on either side (a space between allowed). */
const BESIDE_HAN = new RegExp(`[${HAN}] ?[${HALF_WIDTH}]+|[${HALF_WIDTH}]+ ?[${HAN}]`, 'gu');

/**
 * The half-width marks beside Chinese characters in `text`, each with its neighbour ([] when
 * none). A placeholder (`%{name}`) counts as a Chinese word: it stands for one in the sentence.
 * The legacy messages are accepted as they are.
 */
export function halfWidthPunctuation(text: string): string[] {
  if (LEGACY_MESSAGES.includes(text)) return [];
  const filled = text.replace(/%\{\w+\}/g, '字');
  if (!new RegExp(`[${HAN}]`, 'u').test(filled)) return [];
  return filled.match(BESIDE_HAN) ?? [];
}
