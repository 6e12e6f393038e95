// Bounds the elements one conversion builds. Conversion is linear, but each element still costs a DOM
// node (linkedom), and each text block the classifier's features: ~60–70 µs and ~2 KiB of heap per
// table cell. A 10 MiB page of tiny cells (800,000 of them) needed ~1.75 GiB and a minute. Past the cap
// the page is cut before its next start tag and the part before it converted, the way a reader stops
// scrolling: the main content of a page comes early, and the parser closes what the cut leaves open.
// At 50,000 a page converts in ~3 s within ~130 MiB of heap. The largest WCXB page has ~16,000 start
// tags, the largest trafilatura-eval page ~10,000: no page of the benchmarks reaches the cap.

export const MAX_CONVERTED_ELEMENTS = 50_000;

/** `html` up to (not including) its start tag number `max + 1`; unchanged when it has fewer. */
export function capElements(html: string, max = MAX_CONVERTED_ELEMENTS): string {
  const startTag = /<[a-zA-Z]/g;
  let count = 0;
  while (startTag.exec(html) !== null) {
    if (++count > max) return html.slice(0, startTag.lastIndex - 2);
  }
  return html;
}
