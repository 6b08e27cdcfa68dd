// The one tokenizer of the full-text index, shared by SQLite (FTS5) and PostgreSQL (tsvector), by
// the writer and by the search: both databases index and match the same tokens, so a query finds
// the same pages on both (docs/fullText.md).
//
// - Each Han character (and kana, hangul) is a token of its own: a word of any length, and a fragment
//   of a word (程造价 of 工程造价), is the phrase of its characters. No segmenter: a segmenter's
//   words miss every fragment.
// - Each digit is a token of its own too, so that 44号 is found in 建标〔2013〕44号 and 2013 in 2013年.
// - Other letters make words (GB, pdf), lower-cased, matched whole.
// - Punctuation and symbols are tokens (`p` and the code point in hex), so that a phrase does not
//   reach over them: 程造价 is not found in 工程，造价. Brackets and quotes of every width count as
//   one: 建标[2013]44号 finds 建标〔2013〕44号.
// - Spaces and line breaks are no tokens: words broken by the layout of a page are still found.

export interface Token {
  /** The token as indexed. */
  text: string;
  /** Its place in the source text, UTF-16 offsets (end exclusive). */
  start: number;
  end: number;
}

/** A token is at most this long (a run of letters): PostgreSQL's lexemes are bounded. */
const MAX_TOKEN = 60;

const SINGLE = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]$/u;
const LETTERS = /^[\p{L}\p{M}]+$/u;
const DIGIT = /^\p{N}$/u;
const SPACE = /^[\s\p{Z}\p{Cc}\p{Cf}]+$/u;

/** Brackets, quotes and dashes of every width and script, as one each. */
const CANONICAL: Record<string, string> = {};
for (const c of '(（〔［[【〖〘｛{⦅〈《「『') CANONICAL[c] = '(';
for (const c of ')）〕］]】〗〙｝}⦆〉》」』') CANONICAL[c] = ')';
for (const c of '"“”„‟\'‘’‚‛＂＇') CANONICAL[c] = '"';
for (const c of '-‐‑‒–—―－−') CANONICAL[c] = '-';

const punctuation = (c: string) => `p${(CANONICAL[c] ?? c).codePointAt(0)!.toString(16)}`;

const isAsciiLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

/** The tokens of a text, in order, with where each stands. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let word: Token | undefined;
  let i = 0;
  while (i < text.length) {
    const start = i;
    const c = text.charCodeAt(i);
    // The common characters without normalising (a search ranks hundreds of pages at once).
    if (c >= 0x4e00 && c <= 0x9fff) {
      word = undefined;
      i++;
      out.push({ text: text[start]!, start, end: i });
      continue;
    }
    if (c < 0x80) {
      i++;
      if (isAsciiLetter(c)) {
        const lower = String.fromCharCode(c | 0x20);
        if (word && word.end === start) {
          if (word.text.length < MAX_TOKEN) word.text += lower;
          word.end = i;
        } else {
          word = { text: lower, start, end: i };
          out.push(word);
        }
        continue;
      }
      word = undefined;
      if (c >= 0x30 && c <= 0x39) out.push({ text: text[start]!, start, end: i });
      else if (c > 0x20 && c !== 0x7f) out.push({ text: punctuation(text[start]!), start, end: i });
      continue;
    }
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    i += ch.length;
    const folded = ch.normalize('NFKC').toLowerCase();
    if (LETTERS.test(folded) && !SINGLE.test(folded)) {
      if (word && word.end === start) {
        if (word.text.length < MAX_TOKEN) word.text += folded;
        word.end = i;
      } else {
        word = { text: folded, start, end: i };
        out.push(word);
      }
      continue;
    }
    word = undefined;
    if (folded === '' || SPACE.test(folded)) continue;
    if (SINGLE.test(folded) || DIGIT.test(folded)) out.push({ text: folded, start, end: i });
    else out.push({ text: punctuation(folded.length === 1 ? folded : ch), start, end: i });
  }
  return out;
}

/** What FTS5 indexes of a text: its tokens separated by spaces (unicode61 then splits them as they are). */
export function spacedText(tokens: readonly Token[]): string {
  return tokens.map((t) => t.text).join(' ');
}

/** A token written into NORM: escaped so that no character of it stands for a token of its own. */
const wrapped = (text: string) => ` ${[...text].map((c) => (SINGLE.test(c) ? `_${c.codePointAt(0)!.toString(16)}_` : c)).join('')} `;

/**
 * The tokens as one string in which a phrase is a substring (NORM of FT_PAGE; the query's the
 * same way): a Han character (kana, hangul) as itself, any other token between spaces, so that
 * `strpos`/`instr` and `replace` of the database find and count the phrase exactly as the index
 * matches it (at whole tokens, whitespace between them ignored), without reading the tokens again.
 */
export function normText(tokens: readonly { text: string }[] | readonly string[]): string {
  let out = '';
  for (const t of tokens) {
    const text = typeof t === 'string' ? t : t.text;
    out += SINGLE.test(text) ? text : wrapped(text);
  }
  return out;
}

const lexeme = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * The pairs of adjacent tokens, each one token (建标, 标p28, 44): the index finds a phrase made of
 * common tokens (a 文号: 建, 标, a bracket, digits) from its rare pairs, instead of checking every
 * page that holds all its tokens.
 */
export function pairsOf(tokens: readonly { text: string }[] | readonly string[]): string[] {
  const texts = tokens.map((t) => (typeof t === 'string' ? t : t.text));
  const out: string[] = [];
  for (let i = 1; i < texts.length; i++) out.push(`${texts[i - 1]}${texts[i]}`);
  return out;
}

/** What FTS5's PAIRS column holds: the pairs, separated by spaces. */
export function spacedPairs(tokens: readonly Token[]): string {
  return pairsOf(tokens).join(' ');
}

/** A pair's lexeme in PostgreSQL: marked apart from the tokens. */
const pairLexeme = (pair: string) => `~${pair}`;

/**
 * PostgreSQL's tsvector of the tokens and their pairs, as its literal (read with `::tsvector`): no
 * text search parser is involved, so the database's locale and configuration change nothing.
 * Positions start at 1 and stay within PostgreSQL's 16,383 (the writer cuts longer pages:
 * MAX_PAGE_TOKENS); pairs have none.
 */
export function tsvectorLiteral(tokens: readonly Token[]): string {
  const positions = new Map<string, number[]>();
  tokens.forEach((t, n) => {
    const list = positions.get(t.text);
    const at = Math.min(n + 1, 16383);
    if (list) list.push(at);
    else positions.set(t.text, [at]);
  });
  const pairs = new Set(pairsOf(tokens).map(pairLexeme));
  return [...[...positions].map(([text, at]) => `${lexeme(text)}:${at.join(',')}`), ...[...pairs].map(lexeme)].join(' ');
}

/** The query as a phrase of tokens (empty when it has none, such as a text of spaces). */
export function queryTokens(query: string): string[] {
  return tokenize(query).map((t) => t.text);
}

const ftsString = (text: string) => `"${text}"`;

/**
 * A token whose pairs are read back one way only: a Han character (kana, hangul), a digit, or a
 * mark whose code holds a digit. The pair of two such tokens cannot be the pair of two others (a
 * word, or a mark written in letters only such as «'s `pab`, could be cut otherwise: `pab` 中 is
 * also « 中), so a phrase of them is exactly the phrase of its pairs.
 */
const pairsExact = (token: string) => SINGLE.test(token) || DIGIT.test(token) || /^p[0-9a-f]*[0-9][0-9a-f]*$/.test(token);

/**
 * FTS5's MATCH expression, and a filter on the TAG column. A phrase of tokens whose pairs are
 * exact (pairsExact) is the phrase of its pairs in PAIRS, whose doclists are far shorter than
 * those of single characters; any other phrase is BODY's, with its pairs in PAIRS to find it fast.
 */
export function ftsMatch(phrase: readonly string[], tags?: { all?: readonly string[]; any?: readonly string[] }): string {
  const pairs = pairsOf(phrase);
  const parts =
    pairs.length > 0 && phrase.every(pairsExact)
      ? [`PAIRS : "${pairs.join(' ')}"`]
      : [`BODY : "${phrase.join(' ')}"`, ...(pairs.length > 0 ? [`PAIRS : (${[...new Set(pairs)].map(ftsString).join(' AND ')})`] : [])];
  for (const tag of tags?.all ?? []) parts.push(`TAG : ${tag}`);
  if (tags?.any) parts.push(`TAG : (${tags.any.join(' OR ')})`);
  return parts.join(' AND ');
}

/**
 * The lexemes of PostgreSQL's tsvector a page of the phrase holds: its pairs (its one token if it
 * has no pairs). Plain lexemes, so that GIN answers without reading the pages' tsvectors again.
 */
export function pairLexemes(phrase: readonly string[]): string[] {
  return phrase.length === 1 ? [phrase[0]!] : [...new Set(pairsOf(phrase).map(pairLexeme))];
}

/** PostgreSQL's tsquery of lexemes that must all be there, as its literal. */
export function tsqueryAll(lexemes: readonly string[]): string {
  return lexemes.map(lexeme).join(' & ');
}

const HAN_CHARACTER = /^\p{Script=Han}$/u;

/**
 * PostgreSQL's tsquery of a phrase, as its literal (read with `::tsquery`), with the pairs that
 * hold a digit, a word or a mark (a 文号's): PostgreSQL's planner takes each term as independent
 * and would take a long phrase of common characters with all its pairs for a rare one.
 */
export function tsqueryLiteral(phrase: readonly string[]): string {
  const rare = pairsOf(phrase).filter((_, i) => !HAN_CHARACTER.test(phrase[i]!) || !HAN_CHARACTER.test(phrase[i + 1]!));
  const pairs = [...new Set(rare)].map((p) => lexeme(pairLexeme(p)));
  const words = phrase.map(lexeme).join(' <-> ');
  return pairs.length > 0 ? `${pairs.join(' & ')} & (${words})` : words;
}

/** The token a single character is on its own: '' for a space, `\0` for a letter (part of a word). */
const charTokens = new Map<string, string>();
function charToken(ch: string): string {
  let token = charTokens.get(ch);
  if (token === undefined) {
    const [t] = tokenize(ch);
    token = t === undefined ? '' : LETTERS.test(t.text) && !SINGLE.test(t.text) ? '\0' : t.text;
    if (charTokens.size < 10_000) charTokens.set(ch, token);
  }
  return token;
}

/** A token of one character (a Han character, a digit, a punctuation mark), as opposed to a word. */
const isCharToken = (token: string) => !LETTERS.test(token) || SINGLE.test(token);

/**
 * Where the phrase stands in a text: [start, end) of each occurrence, in order. A phrase of
 * characters (no words of letters) is looked for from its first character on, without tokenizing
 * the whole text: a search ranks hundreds of pages at once.
 */
export function phraseHits(text: string, phrase: readonly string[]): [number, number][] {
  if (phrase.length === 0) return [];
  if (phrase.every(isCharToken)) {
    const hits = characterPhraseHits(text, phrase);
    // Nothing found the quick way (a character NFKC changes): the whole text's tokens decide.
    if (hits.length > 0) return hits;
  }
  return tokenPhraseHits(text, phrase);
}

function characterPhraseHits(text: string, phrase: readonly string[]): [number, number][] {
  const hits: [number, number][] = [];
  const first = phrase[0]!;
  // A Han character or a digit stands for itself; a punctuation token for several characters.
  const plain = !first.startsWith('p') || first.length === 1;
  let i = 0;
  while (i < text.length) {
    let start: number;
    if (plain) {
      start = text.indexOf(first, i);
      if (start < 0) break;
    } else {
      start = i;
      if (charToken(String.fromCodePoint(text.codePointAt(i)!)) !== first) {
        i += text.codePointAt(i)! > 0xffff ? 2 : 1;
        continue;
      }
    }
    let j = start + (text.codePointAt(start)! > 0xffff ? 2 : 1);
    let end = j;
    let k = 1;
    while (k < phrase.length && j < text.length) {
      const ch = String.fromCodePoint(text.codePointAt(j)!);
      const token = charToken(ch);
      j += ch.length;
      if (token === '') continue;
      if (token !== phrase[k]) break;
      end = j;
      k++;
    }
    if (k === phrase.length) {
      hits.push([start, end]);
      i = end;
    } else {
      i = start + 1;
    }
  }
  return hits;
}

function tokenPhraseHits(text: string, phrase: readonly string[]): [number, number][] {
  const tokens = tokenize(text);
  const hits: [number, number][] = [];
  for (let i = 0; i + phrase.length <= tokens.length; i++) {
    let k = 0;
    while (k < phrase.length && tokens[i + k]!.text === phrase[k]) k++;
    if (k === phrase.length) {
      hits.push([tokens[i]!.start, tokens[i + phrase.length - 1]!.end]);
      i += phrase.length - 1;
    }
  }
  return hits;
}

/** Characters of a result's snippet, about. */
export const SNIPPET_CHARS = 120;
/** Characters of context before the first hit shown. */
const BEFORE = 30;

export interface Snippet {
  Snippet: string;
  Highlights: [number, number][];
}

/** A snippet of plain text around the first hit, with each hit inside it as [start, length]. */
export function snippetOf(text: string, hits: readonly [number, number][]): Snippet {
  const first = hits[0]?.[0] ?? 0;
  let start = Math.max(0, first - BEFORE);
  let end = Math.min(text.length, start + SNIPPET_CHARS);
  start = Math.max(0, Math.min(start, end - SNIPPET_CHARS));
  // Never half a surrogate pair.
  if (start > 0 && /[\uDC00-\uDFFF]/.test(text[start]!)) start--;
  if (end < text.length && /[\uDC00-\uDFFF]/.test(text[end]!)) end++;
  const head = start > 0 ? '…' : '';
  const body = text.slice(start, end).replace(/[\r\n\t]/g, ' ');
  const Highlights: [number, number][] = hits
    .filter(([s, e]) => s >= start && e <= end)
    .map(([s, e]) => [s - start + head.length, e - s]);
  return { Snippet: `${head}${body}${end < text.length ? '…' : ''}`, Highlights };
}
