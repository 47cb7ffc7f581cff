/**
 * How many terminal columns text takes, for the table output: a character of East Asian Wide or Fullwidth width
 * (https://www.unicode.org/reports/tr11/: CJK ideographs, kana, Hangul syllables, fullwidth forms) and an emoji take
 * two, a combining mark, a zero-width joiner or another format character none, anything else one (as `wcwidth` and
 * the terminals that follow it count). Text is measured by grapheme cluster (what a terminal draws as one character:
 * `👨‍👩‍👧`, `🇫🇷`, `e` + U+0301), so that an emoji sequence counts two once, and is cut only between clusters.
 *
 * The wide ranges are a compact table of UAX #11's W and F blocks (unassigned code points inside them counted wide
 * too); emoji are found by their Unicode properties (`Emoji_Presentation`, or an emoji with U+FE0F). Clusters are
 * found by the rules of UAX #29 that matter for widths — a character joins the one before it when it is a combining
 * mark, a format character (U+200D ZERO WIDTH JOINER, U+FE0F), a skin tone, or follows a joiner, and regional
 * indicators pair into flags — in one pass over the text (Intl.Segmenter took some 20 µs a cell).
 * @module
 */

// East Asian Wide and Fullwidth, as [first, last] pairs in order (emoji: by property, below)
// prettier-ignore
const WIDE: readonly number[] = [
  0x1100, 0x115f, // Hangul Jamo initial consonants
  0x2329, 0x232a, // angle brackets
  0x2e80, 0x303e, // CJK radicals, Kangxi radicals, ideographic description, CJK symbols and punctuation
  0x3041, 0x33ff, // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK strokes, enclosed and compatibility
  0x3400, 0x4dbf, // CJK Extension A
  0x4e00, 0x9fff, // CJK Unified Ideographs
  0xa000, 0xa4cf, // Yi
  0xa960, 0xa97f, // Hangul Jamo Extended-A
  0xac00, 0xd7a3, // Hangul syllables
  0xf900, 0xfaff, // CJK compatibility ideographs
  0xfe10, 0xfe19, // vertical forms
  0xfe30, 0xfe6f, // CJK compatibility forms, small form variants
  0xff00, 0xff60, // fullwidth forms
  0xffe0, 0xffe6, // fullwidth signs
  0x16fe0, 0x16fe4, // ideographic symbols
  0x16ff0, 0x16ff1,
  0x17000, 0x18cff, // Tangut, Khitan
  0x18d00, 0x18d08,
  0x1aff0, 0x1b2ff, // Kana extended, supplement, Nushu
  0x1f004, 0x1f004, // mahjong tile red dragon
  0x1f0cf, 0x1f0cf, // joker
  0x1f18e, 0x1f18e,
  0x1f191, 0x1f19a, // squared latin words
  0x1f200, 0x1f265, // enclosed ideographic supplement
  0x20000, 0x2fffd, // CJK Extensions B–F, compatibility supplement
  0x30000, 0x3fffd, // CJK Extensions G, H
];

// Characters drawn over the one before or not at all: combining marks, format characters (ZERO WIDTH JOINER, U+FE0F,
// …) and the Hangul vowels and final consonants that join an initial consonant into one syllable
const ZERO = /[\p{Mn}\p{Me}\p{Cf}\u1160-\u11ff\ud7b0-\ud7ff]/u;
// Characters drawn as an emoji, two columns: emoji presentation (😀, ⌚) and regional indicators (a flag is two)
const EMOJI = /[\p{Emoji_Presentation}\p{Regional_Indicator}]/u;
// Characters that become an emoji when U+FE0F follows them (❤, 1)
const EMOJI_BASE = /\p{Emoji}/u;
// ASCII text without controls: one column per character
const PLAIN = /^[\x20-\x7e]*$/;

function isWide(cp: number): boolean {
  if (cp < 0x1100) return false;
  let lo = 0;
  let hi = WIDE.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < WIDE[2 * mid]!) hi = mid - 1;
    else if (cp > WIDE[2 * mid + 1]!) lo = mid + 1;
    else return true;
  }
  return false;
}

/**
 * Calls `take` with the end (UTF-16 offset) and the width of each grapheme cluster of `s` in turn, until it returns
 * false. A cluster's width is 2 when it is drawn as an emoji (it holds an emoji-presentation character or a regional
 * indicator, or U+FE0F after an emoji), else the sum of its characters' widths (a base and its marks: the base's).
 * @param s - the text.
 * @param take - receives each cluster; false stops.
 */
function eachCluster(s: string, take: (end: number, width: number) => boolean): void {
  let sum = 0;
  let emoji = false;
  let started = false;
  let afterJoiner = false;
  let flagHalf = false;
  let prevEmojiBase = false;
  for (let i = 0; i < s.length; ) {
    const cp = s.codePointAt(i)!;
    const ch = cp > 0xffff ? s.slice(i, i + 2) : s[i]!;
    const ri = cp >= 0x1f1e6 && cp <= 0x1f1ff;
    const zero = cp >= 0x300 && ZERO.test(ch);
    const joins = started && (afterJoiner || zero || (cp >= 0x1f3fb && cp <= 0x1f3ff) || (ri && flagHalf));
    if (!joins) {
      if (started && !take(i, emoji ? 2 : sum)) return;
      started = true;
      sum = 0;
      emoji = false;
      flagHalf = ri;
    } else if (ri) flagHalf = false;
    if (cp < 0x300) sum += cp < 0x20 || (cp >= 0x7f && cp < 0xa0) ? 0 : 1;
    else if (!zero) {
      const e = EMOJI.test(ch);
      emoji ||= e;
      sum += e || isWide(cp) ? 2 : 1;
    }
    if (cp === 0xfe0f && prevEmojiBase) emoji = true;
    prevEmojiBase = cp >= 0x23 && EMOJI_BASE.test(ch);
    afterJoiner = cp === 0x200d;
    i += ch.length;
  }
  if (started) take(s.length, emoji ? 2 : sum);
}

/**
 * The number of terminal columns a text takes (see the module's note): `'名前'` 4, `'😀'` 2, `'e\u0301'` 1.
 * @param s - the text (without control characters: the table escapes them first).
 * @returns its width in columns.
 */
export function displayWidth(s: string): number {
  if (PLAIN.test(s)) return s.length;
  let w = 0;
  eachCluster(s, (_, cw) => {
    w += cw;
    return true;
  });
  return w;
}

/**
 * A text cut to at most `width` columns, ending in `…` when cut; the cut falls between grapheme clusters, never inside
 * a surrogate pair, a combining sequence or an emoji sequence (a wide character that does not fit leaves a column
 * short, filled by the padding).
 * @param s - the text.
 * @param width - the columns it may take.
 * @returns the text itself when it fits, else its longest prefix of whole clusters that fits with `…` after it.
 */
export function cutToWidth(s: string, width: number): string {
  if (PLAIN.test(s)) return s.length <= width ? s : `${s.slice(0, Math.max(0, width - 1))}…`;
  if (displayWidth(s) <= width) return s;
  let end = 0;
  let w = 0;
  eachCluster(s, (e, cw) => {
    if (w + cw > width - 1) return false;
    w += cw;
    end = e;
    return true;
  });
  return `${s.slice(0, end)}…`;
}

/**
 * A text padded with spaces to `width` columns (already no wider).
 * @param s - the text.
 * @param width - the columns.
 * @param right - spaces before the text (right-aligned) instead of after.
 * @returns the padded text.
 */
export function padToWidth(s: string, width: number, right: boolean): string {
  const fill = width - displayWidth(s);
  if (fill <= 0) return s;
  return right ? ' '.repeat(fill) + s : s + ' '.repeat(fill);
}
