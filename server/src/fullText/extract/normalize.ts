// The text as the index keeps it, whatever it was read from. Two traps of Chinese PDFs are undone
// here: radicals where a font's ToUnicode map gives them for ideographs (⼯ for 工, ⻚ for 页: they
// look alike and a search for 工程 would miss them), and words cut at line ends (工程造\n价).

/**
 * CJK Radicals Supplement (U+2E80–U+2EFF), each followed by its unified ideograph: Unicode's
 * EquivalentUnifiedIdeograph.txt for the block (written out from Perl's Unicode::UCD, Unicode 14;
 * the block has had no change since 3.0). NFKC maps only ⺟ and ⻳ of it; U+2E80 has no ideograph.
 */
const SUPPLEMENT_PAIRS =
  '⺁厂⺂乛⺃乚⺄乙⺅亻⺆冂⺇𠘨⺈刀⺉刂⺊卜⺋㔾⺌小⺍小⺎兀⺏尣⺐尢⺑𡯂⺒巳⺓幺⺔彑⺕彐⺖忄⺗心⺘扌' +
  '⺙攵⺛旡⺜日⺝月⺞歺⺟母⺠民⺡氵⺢氺⺣灬⺤爫⺥爫⺦丬⺧牛⺨犭⺩王⺪𤴔⺫目⺬示⺭礻⺮𥫗⺯糹⺰纟⺱罓' +
  '⺲罒⺳㓁⺴冗⺵𦉫⺶羊⺷𦍌⺸𦍋⺹耂⺺肀⺻聿⺼肉⺽𦥑⺾艹⺿艹⻀艹⻁虎⻂衤⻃覀⻄西⻅见⻆角⻇𧢲⻈讠⻉贝' +
  '⻊𧾷⻋车⻌辶⻍辶⻎辶⻏邑⻐钅⻑長⻒镸⻓长⻔门⻕𨸏⻖阝⻗雨⻘青⻙韦⻚页⻛风⻜飞⻝食⻞𩙿⻟飠⻠饣⻡𩠐' +
  '⻢马⻣骨⻤鬼⻥鱼⻦鸟⻧卤⻨麦⻩黄⻪黾⻫斉⻬齐⻭歯⻮齿⻯竜⻰龙⻱龜⻲亀⻳龟';

const SUPPLEMENT = new Map<string, string>();
{
  const chars = Array.from(SUPPLEMENT_PAIRS);
  for (let i = 0; i < chars.length; i += 2) SUPPLEMENT.set(chars[i]!, chars[i + 1]!);
}

/**
 * Characters that stand for an ideograph: the radicals (Kangxi U+2F00–U+2FDF, whose NFKC is the
 * ideograph; the Supplement, by the table) and the CJK compatibility ideographs (some fonts map 不
 * to U+F967), whose canonical form is the unified one. NFKC is not applied to the whole text: it
 * would also rewrite full-width punctuation and digits that the snippets show as written.
 */
const IDEOGRAPH_VARIANT = /[\u2e80-\u2eff\u2f00-\u2fdf\uf900-\ufaff\u{2f800}-\u{2fa1f}]/gu;

function unify(c: string): string {
  return c < '\u2f00' ? (SUPPLEMENT.get(c) ?? c) : c.normalize('NFKC');
}

/** Shows nothing: soft hyphen, zero-width spaces and joiners, word joiner, BOM. */
const INVISIBLE = /[\u00ad\u200b-\u200d\u2060\ufeff]/g;
/** Control characters other than tab and the line breaks (pdf.js gives NULs for unmapped glyphs). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]/g;
const PARAGRAPH_SEPARATOR = /\u2029/g;
// eslint-disable-next-line no-control-regex -- vertical tab and form feed are line breaks here
const LINE_BREAK = /\r\n?|[\u000b\u000c\u0085\u2028]/g;
/** Horizontal white space, ideographic space (U+3000) and no-break spaces included. */
const SPACES = /[\t \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+/g;
const SPACE_AROUND_BREAK = / ?\n ?/g;
const PARAGRAPH_BREAK = /\n{2,}/;

/**
 * Wide characters, whose lines join without a space (CSS Text 3's segment break rule, for Chinese):
 * Han (radicals included), kana, bopomofo, CJK symbols and punctuation, full-width forms, and the
 * punctuation that Chinese text sets wide (—, “”, ‘’, …, ·).
 */
const WIDE =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Bopomofo}\u2e80-\u2fdf\u3000-\u303f\u3190-\u31ff\u3200-\u33ff\ufe10-\ufe1f\ufe30-\ufe4f\uff01-\uff60\uffe0-\uffe6\u00b7\u2014\u2015\u2018\u2019\u201c\u201d\u2025\u2026]/u;
/**
 * A space between two Han characters (or CJK punctuation): letter-spaced headings (总, two ideographic spaces, 则) and
 * justified lines; Chinese puts no space between words, so the words read whole again.
 */
const SPACE_IN_HAN = /(?<=[\p{Script=Han}\u3000-\u303f\uff01-\uff60]) (?=[\p{Script=Han}\u3000-\u303f\uff01-\uff60])/gu;
const LATIN_LETTER = /\p{Script=Latin}/u;
const LATIN_LOWER = /(?=\p{Script=Latin})\p{Ll}/u;
const HYPHENS = new Set(['-', '\u2010']);

/**
 * The text the index keeps: radicals and compatibility ideographs as the unified ideographs,
 * invisible and control characters dropped, white space collapsed to one space, a line break
 * inside a paragraph joined (no space when a wide character is on either side, 工程造\n价 →
 * 工程造价; a hyphenated Latin word whole again, inter-\nnational → international; otherwise one
 * space), and a paragraph break (an empty line) kept as "\n\n". Idempotent.
 */
export function normalizeText(text: string): string {
  const flat = text
    .replace(IDEOGRAPH_VARIANT, unify)
    .replace(INVISIBLE, '')
    .replace(PARAGRAPH_SEPARATOR, '\n\n')
    .replace(LINE_BREAK, '\n')
    .replace(CONTROL, '')
    .replace(SPACES, ' ')
    .replace(SPACE_AROUND_BREAK, '\n');
  const paragraphs: string[] = [];
  for (const paragraph of flat.split(PARAGRAPH_BREAK)) {
    const joined = joinLines(paragraph.split('\n')).replace(SPACE_IN_HAN, '').trim();
    if (joined) paragraphs.push(joined);
  }
  return paragraphs.join('\n\n');
}

function joinLines(lines: string[]): string {
  let out = '';
  for (const line of lines) {
    if (!line) continue;
    if (!out) {
      out = line;
      continue;
    }
    const last = lastChar(out);
    const first = String.fromCodePoint(line.codePointAt(0)!);
    if (HYPHENS.has(last) && out.length > 1) {
      const beforeHyphen = lastChar(out.slice(0, -1));
      if (LATIN_LETTER.test(beforeHyphen) && LATIN_LOWER.test(first)) out = out.slice(0, -1) + line; // inter-|national
      else if (beforeHyphen === ' ') out += ' ' + line; // a dash between words
      else out += line; // 50001-|2017: the hyphen is part of the text
    } else if (WIDE.test(last) || WIDE.test(first)) out += line;
    else out += ' ' + line;
  }
  return out;
}

function lastChar(text: string): string {
  const code = text.charCodeAt(text.length - 1);
  // A low surrogate: the character is the pair.
  return code >= 0xdc00 && code <= 0xdfff && text.length > 1 ? text.slice(-2) : text.slice(-1);
}
