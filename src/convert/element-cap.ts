// Bounds the elements one conversion builds. Conversion is linear, but each element still costs a DOM
// node (linkedom), and each text block the classifier's features: ~60–70 µs and ~2 KiB of heap per
// table cell. A 10 MiB page of tiny cells (800,000 of them) needed ~1.75 GiB and a minute. At 50,000
// a page converts in ~3 s within ~130 MiB of heap. The largest WCXB page has ~16,000 start tags, the
// largest trafilatura-eval page ~10,000: no page of the benchmarks reaches the cap.
//
// Which 50,000 are kept: the page's first HEAD_ELEMENTS (its head, its top, and where most pages put
// their main content), then the stretch of the rest with the most prose — the window of the remaining
// budget whose text runs of at least PROSE_RUN characters add up to the most. Cutting only the tail
// lost the whole article of a page whose content lies deep (60,000 menu or list items before it);
// element-heavy, text-poor stretches (menus, tiny cells, link lists) are what a window skips. When no
// later stretch has more prose than the one right after the head, the page is cut at the cap as a
// reader stops scrolling (the parser closes what the cut leaves open).

export const MAX_CONVERTED_ELEMENTS = 50_000;
/** Start tags always kept from the top of a page over the cap. */
export const HEAD_ELEMENTS = 10_000;
/** Text between two tags counts as prose from this many characters (a menu item's label is shorter). */
export const PROSE_RUN = 40;

export interface CappedHtml {
  /** The page up to the cap, or up to HEAD_ELEMENTS when a deeper stretch is kept. */
  html: string;
  /** A deeper stretch kept beside it: parsed on its own and appended to the body (so its elements nest as they would alone). */
  deep?: string;
}

/** `html` within `max` start tags (see above); unchanged when it has no more. */
export function capElements(html: string, max = MAX_CONVERTED_ELEMENTS, head = Math.min(HEAD_ELEMENTS, max)): CappedHtml {
  if (!overCap(html, max)) return { html };
  const { starts, proseBefore, prose } = scanStartTags(html);
  const n = starts.length;
  if (n <= max) return { html }; // the quick count saw tags inside scripts or styles
  const budget = max - head;
  const proseOf = (k: number) => (k + budget < n ? proseBefore[k + budget]! : prose) - proseBefore[k]!;
  let best = head;
  let bestProse = proseOf(head);
  for (let k = head + 1; k + budget <= n; k++) {
    const p = proseOf(k);
    if (p > bestProse) [best, bestProse] = [k, p];
  }
  if (best === head) return { html: html.slice(0, starts[max]) };
  const end = best + budget < n ? starts[best + budget] : html.length;
  return { html: html.slice(0, starts[head]), deep: html.slice(starts[best], end) };
}

/** More than `max` of `<` followed by an ASCII letter (an indexOf loop: a regex match per tag allocated one array each). */
function overCap(html: string, max: number): boolean {
  let count = 0;
  for (let lt = html.indexOf('<'); lt >= 0; lt = html.indexOf('<', lt + 1)) {
    const c = html.charCodeAt(lt + 1) | 32; // lower-cased if a letter
    if (c >= 97 && c <= 122 && ++count > max) return true;
  }
  return false;
}

const RAW_TEXT = ['script', 'style'];

/**
 * Where each start tag begins, and the prose before it. One pass with indexOf, each search resumed
 * rather than repeated: no step rescans the rest of the page for each of many scripts or comments.
 */
function scanStartTags(html: string): { starts: number[]; proseBefore: number[]; prose: number } {
  const starts: number[] = [];
  const proseBefore: number[] = [];
  const find = forwardSearch(html);
  let prose = 0;
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    const textEnd = lt < 0 ? html.length : lt;
    if (textEnd - i >= PROSE_RUN && html.slice(i, textEnd).trim().length >= PROSE_RUN) prose += textEnd - i;
    if (lt < 0) break;
    const c = html.charCodeAt(lt + 1);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (!letter && c !== 47 && c !== 33 && c !== 63) {
      i = lt + 1; // a literal '<' in text
      continue;
    }
    const gt = html.indexOf('>', lt);
    if (gt < 0) break;
    i = gt + 1;
    if (!letter) continue; // an end tag, comment, doctype or processing instruction
    starts.push(lt);
    proseBefore.push(prose);
    if (c !== 115 && c !== 83) continue; // not s/S: neither <script nor <style
    const raw = RAW_TEXT.find(
      (name) => html.slice(lt + 1, lt + 1 + name.length).toLowerCase() === name && !/[\w-]/.test(html[lt + 1 + name.length] ?? ''),
    );
    if (raw === undefined) continue;
    // A script's or style's content is not markup: skip to its end tag (either case), or to the end.
    const lowerClose = find(`</${raw}`, i);
    const upperClose = find(`</${raw.toUpperCase()}`, i);
    const close = lowerClose < 0 ? upperClose : upperClose < 0 ? lowerClose : Math.min(lowerClose, upperClose);
    if (close < 0) break;
    i = close;
  }
  return { starts, proseBefore, prose };
}

/** indexOf for searches whose start only moves forward: a needle's last answer is reused while it still lies ahead. */
function forwardSearch(text: string): (needle: string, from: number) => number {
  const last = new Map<string, number>();
  return (needle, from) => {
    const known = last.get(needle);
    if (known !== undefined && (known < 0 || known >= from)) return known;
    const found = text.indexOf(needle, from);
    last.set(needle, found);
    return found;
  };
}
