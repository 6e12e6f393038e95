// Walks up from a row's element over the features' records (BlockRows.names: every row's element and
// its ancestors up to body, each with its parent's record and a number): pointer steps and typed
// arrays where the rule passes after the classifier walked linkedom's parentElement getter and kept
// a Map per element (their walks were most of those passes' time).

import type { BlockRows, ElementRecord } from './block-features.js';

/**
 * memoizedAncestorTest (dom-utils.ts) over the records of `rows`: whether `el` (a row's element or an
 * ancestor of one) or an element above it matches, stopping below the first for which `stop` holds.
 * Above the records' top (body) the elements are asked through `above` (their DOM walk), once.
 */
export function recordAncestorTest(
  rows: BlockRows,
  match: (a: ElementRecord) => boolean,
  stop: ((a: ElementRecord) => boolean) | null = null,
  above: () => boolean = () => false,
): (el: Element) => boolean {
  const names = rows.names;
  // Per record: 0 not asked, 1 no, 2 yes.
  const memo = new Uint8Array(names.size);
  const walked: ElementRecord[] = [];
  let top = 0;
  return (el) => {
    let result = false;
    let a: ElementRecord | null = names.get(el)!;
    for (; a && !stop?.(a); a = a.up) {
      const m = memo[a.index]!;
      if (m !== 0) {
        result = m === 2;
        break;
      }
      walked.push(a);
      if (match(a)) {
        result = true;
        break;
      }
    }
    if (a === null) {
      if (top === 0) top = above() ? 2 : 1;
      result = top === 2;
    }
    for (const w of walked) memo[w.index] = result ? 2 : 1;
    walked.length = 0;
    return result;
  };
}

/** Whether `match` holds for an element above the records' top (body), walked in the DOM up to the first `stop` holds for. */
export const aboveRecords =
  (rows: BlockRows, match: (e: Element) => boolean, stop: (e: Element) => boolean = () => false): (() => boolean) =>
  () => {
    const first = rows.blocks[0];
    let a = first ? rows.names.get(first.el) : undefined;
    while (a?.up) a = a.up;
    for (let e = a ? a.el.parentElement : null; e && !stop(e); e = e.parentElement) if (match(e)) return true;
    return false;
  };

/** `container.contains(el)` for rows' elements, memoised over the records of `rows`. */
export const recordInside = (rows: BlockRows, container: Element): ((el: Element) => boolean) =>
  recordAncestorTest(
    rows,
    (a) => a.el === container,
    null,
    aboveRecords(rows, (e) => e === container),
  );
