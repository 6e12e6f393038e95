// Words for ranking: lowercase runs of Unicode letters, marks and digits. Text in scripts written
// without spaces (Chinese, Japanese, Thai…) becomes overlapping pairs of characters, the usual unit of
// search in those scripts (no dictionary needed; a query's pairs meet the page's). Latin-script words
// lose a plural -s (a light S-stemmer); a short list of English function words is left out, unless
// the query is made of nothing else.

const NO_SPACE = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}';
/** A run of no-space-script characters, or a run of other letters, marks and digits. */
const WORD = new RegExp(`([${NO_SPACE}]+)|((?:(?![${NO_SPACE}])[\\p{L}\\p{N}\\p{M}])+)`, 'gu');

const STOP = new Set(('a an and are as at be been but by can did do does for from had has have he her his how i if in into is it its ' +
  'me my no not of on or our she so than that the their them then there these they this to too us was we were what when where which ' +
  'who whom why will with would you your').split(' '));

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
  for (const m of text.toLowerCase().matchAll(WORD)) {
    if (m[1] !== undefined) {
      const chars = Array.from(m[1]);
      if (chars.length === 1) out.push(chars[0]!);
      for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
    } else if (keepStop || !STOP.has(m[2]!)) {
      out.push(stem(m[2]!));
    }
  }
  return out;
}

/** The distinct words of a query; its function words only when it has no other. */
export function queryTerms(query: string): string[] {
  const words = tokens(query);
  return [...new Set(words.length > 0 ? words : tokens(query, true))];
}
