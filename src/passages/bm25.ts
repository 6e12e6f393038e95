// BM25F over one page: the page's passages are the collection. Each passage has two fields, its own
// text and its heading path (the words of the headings it sits under, at a lower weight): a passage
// under "Installation" answers "install" even when its own text says "run npm i". Only the query's
// terms are counted, so the cost is one pass over the page's words.

/** The usual constants (Robertson & Zaragoza 2009). */
const K1 = 1.2;
const B_TEXT = 0.75;
const B_HEAD = 0.5;
/** A word of the heading path weighs this much of a word of the passage's own text. */
const HEAD_WEIGHT = 0.4;

export interface Doc {
  text: readonly string[];
  head: readonly string[];
}

/** Each document's BM25F score for the query terms (0 when it holds none of them). */
export function bm25f(docs: readonly Doc[], terms: readonly string[]): Float64Array {
  const scores = new Float64Array(docs.length);
  if (docs.length === 0 || terms.length === 0) return scores;
  const index = new Map(terms.map((t, i) => [t, i]));
  const q = terms.length;
  // Term frequencies of the query's terms only, per document and field.
  const tfText = new Float64Array(docs.length * q);
  const tfHead = new Float64Array(docs.length * q);
  const df = new Float64Array(q);
  let textSum = 0;
  let headSum = 0;
  docs.forEach((d, i) => {
    textSum += d.text.length;
    headSum += d.head.length;
    for (const w of d.text) {
      const t = index.get(w);
      if (t !== undefined) tfText[i * q + t]!++;
    }
    for (const w of d.head) {
      const t = index.get(w);
      if (t !== undefined) tfHead[i * q + t]!++;
    }
    for (let t = 0; t < q; t++) if (tfText[i * q + t]! > 0 || tfHead[i * q + t]! > 0) df[t]!++;
  });
  const avgText = Math.max(textSum / docs.length, 1);
  const avgHead = Math.max(headSum / docs.length, 1);
  const n = docs.length;
  const idf = Array.from(df, (f) => Math.log(1 + (n - f + 0.5) / (f + 0.5)));
  docs.forEach((d, i) => {
    const normText = 1 - B_TEXT + (B_TEXT * d.text.length) / avgText;
    const normHead = 1 - B_HEAD + (B_HEAD * d.head.length) / avgHead;
    let s = 0;
    for (let t = 0; t < q; t++) {
      const tf = tfText[i * q + t]! / normText + (HEAD_WEIGHT * tfHead[i * q + t]!) / normHead;
      if (tf > 0) s += (idf[t]! * tf) / (K1 + tf);
    }
    scores[i] = s;
  });
  return scores;
}
