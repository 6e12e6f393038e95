// Words for ranking: lowercase runs of Unicode letters, marks and digits. Text in scripts written
// without spaces (Chinese, Japanese, Thai…) becomes overlapping pairs of characters, the usual unit of
// search in those scripts (no dictionary needed; a query's pairs meet the page's). Latin-script words
// lose a plural -s (a light S-stemmer); a short list of English function words is left out, unless
// the query is made of nothing else.

const NO_SPACE =
  '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}';
const RUN = /[\p{L}\p{N}\p{M}]+/gu;
/** Every script written without spaces is at U+0E00 (Thai) or above: a run below it is one word. */
const MAYBE_NO_SPACE = /[^\u0000-\u0dff]/;
/** A run of no-space-script characters, or a run of other letters, marks and digits. */
const PARTS = new RegExp(`([${NO_SPACE}]+)|((?:(?![${NO_SPACE}])[\\p{L}\\p{N}\\p{M}])+)`, 'gu');

const STOP = new Set(
  (
    'a an and are as at be been but by can did do does for from had has have he her his how i if in into is it its ' +
    'me my no not of on or our she so than that the their them then there these they this to too us was we were what when where which ' +
    'who whom why will with would you your'
  ).split(' '),
);

/** The light S-stemmer (Harman 1991): plurals of English words to their singular. */
function stem(w: string): string {
  if (w.length < 4 || w.charCodeAt(w.length - 1) !== 115 /* s */) return w;
  if (w.endsWith('ies') && !w.endsWith('eies') && !w.endsWith('aies')) return `${w.slice(0, -3)}y`;
  if (w.endsWith('es') && !w.endsWith('aes') && !w.endsWith('ees') && !w.endsWith('oes')) return w.slice(0, -1);
  if (w.endsWith('us') || w.endsWith('ss')) return w;
  return w.slice(0, -1);
}

/** Each word of `text` in order, as the scorer counts it. `keepStop` keeps function words. */
export function tokens(text: string, keepStop = false): string[] {
  const out: string[] = [];
  const word = (w: string) => {
    if (keepStop || !STOP.has(w)) out.push(stem(w));
  };
  const lower = text.toLowerCase();
  RUN.lastIndex = 0;
  for (let m = RUN.exec(lower); m !== null; m = RUN.exec(lower)) {
    const run = m[0];
    if (!MAYBE_NO_SPACE.test(run)) {
      word(run);
      continue;
    }
    for (const [, spaceless, other] of run.matchAll(PARTS)) {
      if (spaceless === undefined) {
        word(other!);
        continue;
      }
      const chars = Array.from(spaceless);
      if (chars.length === 1) out.push(chars[0]!);
      for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
    }
  }
  return out;
}

/** The distinct words of a query; its function words only when it has no other. */
export function queryTerms(query: string): string[] {
  const words = tokens(query);
  return [...new Set(words.length > 0 ? words : tokens(query, true))];
}
