// The block classifier, in two stages of gradient-boosted trees (gbdt.ts) trained on WCXB
// dev-train by tools/train/train-blocks.ts and stored in block-model.json (block-model-file.ts): stage one scores each
// block from its own features, stage two adds what stage one thought of its neighbours and
// containers (block-context.ts). Without a usable model (none stored, or trained on another
// feature list) rule-based clean-up (boilerplate.ts) decides alone.

import { CONTEXT_FEATURES, contextFeatures } from './block-context.js';
import { type BlockRows, FEATURES, type Lexicon } from './block-features.js';
import { type Calibration, readModelFile } from './block-model-file.js';
import { type GbdtModel, predictRows } from './gbdt.js';

export type { Calibration };

export interface BlockClassifier {
  stageOne: GbdtModel | null;
  stageTwo: GbdtModel | null;
  calibration: Calibration;
  lexicon: Lexicon;
}

const usable = (m: GbdtModel | null, names: readonly string[]) => (m && m.features.join(',') === names.join(',') ? m : null);

/** A classifier from stored parts; a stage trained on another feature list is left out. */
export function blockClassifier(parts: BlockClassifier): BlockClassifier {
  const stageOne = usable(parts.stageOne, FEATURES);
  return { ...parts, stageOne, stageTwo: stageOne && usable(parts.stageTwo, [...FEATURES, ...CONTEXT_FEATURES]) };
}

let shipped: BlockClassifier | undefined;

/** The shipped model, read from its data file on first use (~10 ms, once per thread). */
export function defaultClassifier(): BlockClassifier {
  if (!shipped) {
    const file = readModelFile();
    shipped = blockClassifier({ stageOne: file.stageOne, stageTwo: file.stageTwo, calibration: file.calibration, lexicon: file.lexicon });
  }
  return shipped;
}

/**
 * Rows scored per call of predictRows: a chunk's features (~90 KB for stage one) stay in cache while
 * each tree walks them; a page's whole table would be read once per tree (a 49,000-cell table's
 * 17 MB, 120 times).
 */
const CHUNK = 256;

/** Final log-odds per row; null without a usable model. */
export function blockScores(rows: BlockRows, c: BlockClassifier = defaultClassifier()): Float64Array | null {
  if (!c.stageOne) return null;
  const cols = FEATURES.length;
  const n = rows.blocks.length;
  const first = new Float64Array(n);
  for (let r = 0; r < n; r += CHUNK) {
    const m = Math.min(CHUNK, n - r);
    predictRows(c.stageOne, rows.x.subarray(r * cols, (r + m) * cols), cols, m, first.subarray(r, r + m));
  }
  if (!c.stageTwo) return first;
  const context = contextFeatures(
    rows,
    first,
    rows.blocks.map((b) => b.tokens),
  );
  const cc = CONTEXT_FEATURES.length;
  // Stage two's rows are a row's features then its context features, joined a chunk at a time.
  const width = cols + cc;
  const both = new Float32Array(Math.min(CHUNK, n) * width);
  const out = new Float64Array(n);
  // Copied cell by cell (a subarray view per row and part was ~30 KB of garbage a page), as the
  // float32s' bits: an Int32Array copy is the same cells without a conversion to float64 and back.
  const to32 = new Int32Array(both.buffer);
  const x = new Int32Array(rows.x.buffer, rows.x.byteOffset, rows.x.length);
  const context32 = new Int32Array(context.buffer, context.byteOffset, context.length);
  for (let r = 0; r < n; r += CHUNK) {
    const m = Math.min(CHUNK, n - r);
    for (let k = 0; k < m; k++) {
      const to = k * width;
      const from = (r + k) * cols;
      for (let i = 0; i < cols; i++) to32[to + i] = x[from + i]!;
      const fromContext = (r + k) * cc;
      for (let i = 0; i < cc; i++) to32[to + cols + i] = context32[fromContext + i]!;
    }
    predictRows(c.stageTwo, both, width, m, out.subarray(r, r + m));
  }
  return out;
}

/**
 * The rows kept: those that make the page's expected F1 highest. With p the probability that a
 * block is content and t its tokens, keeping a set S expects 2·Σ_S p·t / (Σ_S t + Σ_all p·t); the
 * best S holds the most probable blocks, so one pass over them sorted finds it. On a page the model
 * is sure of, this keeps the blocks with p ≥ ½; where it is less sure everywhere, the cut falls
 * with it (the page's best region is still its content). A page from which the model expects
 * almost nothing (see hasNoContent) keeps nothing. Ties and blocks without tokens go with the
 * cut's probability.
 */
export function selectRows(scores: ArrayLike<number>, tokens: ArrayLike<number>, c: Calibration, product = false): boolean[] {
  const n = scores.length;
  const shift = c.shift + (product ? (c.productShift ?? 0) : 0);
  const p = new Float64Array(n);
  for (let r = 0; r < n; r++) p[r] = 1 / (1 + Math.exp(-(c.scale * scores[r]! + shift)));
  let expected = 0;
  let total = 0;
  for (let r = 0; r < n; r++) {
    expected += p[r]! * tokens[r]!;
    total += tokens[r]!;
  }
  const keep: boolean[] = new Array(n).fill(false);
  if (hasNoContent(expected, total)) return keep;
  const order = byProbability(p);
  let hits = 0;
  let kept = 0;
  let best = -1;
  let cut = Infinity;
  for (let k = 0; k < n; k++) {
    const r = order[k]!;
    hits += p[r]! * tokens[r]!;
    kept += tokens[r]!;
    const f1 = kept + expected > 0 ? (2 * hits) / (kept + expected) : 0;
    if (f1 > best) {
      best = f1;
      cut = p[r]!;
    }
  }
  for (let r = 0; r < n; r++) keep[r] = p[r]! >= cut;
  return keep;
}

/**
 * The rows by `p`, highest first, ties in row order (what a stable sort by `p[b] - p[a]` gives: the sums
 * selectRows forms along it stay the same to the bit). A bottom-up merge sort on row numbers, comparing
 * in place: a sort with a comparison function called per pair cost more than the whole selection.
 */
function byProbability(p: Float64Array): Int32Array {
  const n = p.length;
  let from = new Int32Array(n);
  let to = new Int32Array(n);
  for (let r = 0; r < n; r++) from[r] = r;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let a = lo;
      let b = mid;
      let k = lo;
      // Left first unless the right one is higher: equal ones keep their order.
      while (a < mid && b < hi) to[k++] = p[from[b]!]! > p[from[a]!]! ? from[b++]! : from[a++]!;
      while (a < mid) to[k++] = from[a++]!;
      while (b < hi) to[k++] = from[b++]!;
    }
    const t = from;
    from = to;
    to = t;
  }
  return from;
}

/**
 * A page of 100 words or more from which the model expects fewer than ten words of content has
 * no main content: a script-rendered shop's shell, its search box, menus and footer served without
 * the product. That chrome is not the page's content; nothing kept lets extract report `empty`,
 * the cue to render the page. A short page is its content, however unsure the model (trained on
 * full pages) is of it. On WCXB dev-train 4 pages change, all shells with an empty ground truth
 * (+0.003 F1); none on validation.
 */
function hasNoContent(expected: number, total: number): boolean {
  return total >= 100 && expected < 10;
}

/** Ids of the blocks to keep. */
export function keptBlocks(rows: BlockRows, c: BlockClassifier = defaultClassifier()): Set<number> {
  const scores = blockScores(rows, c);
  const kept = new Set<number>();
  if (!scores) {
    const cleaned = feature(rows, 'in_cleaned');
    rows.blocks.forEach((b, r) => cleaned(r) === 1 && kept.add(b.id));
    return kept;
  }
  const keep = selectRows(
    scores,
    rows.blocks.map((b) => b.tokens),
    c.calibration,
    rows.offersProduct,
  );
  keepLeadingTitle(rows, keep);
  keepCodeAfterContent(rows, keep);
  keepSectionHeadings(rows, keep);
  keepDefinitionTerms(rows, keep);
  keepTableHeaders(rows, keep);
  keepTableRows(rows, keep);
  rows.blocks.forEach((b, r) => keep[r] && kept.add(b.id));
  return kept;
}

/**
 * The page's first <h1>, when it comes before the first kept block, heads the content: kept. WCXB's
 * ground truth leaves titles out (the model learned to drop them, on 701 of 1,197 dev-train pages),
 * but an extract result has no title field, so without it a product page would lose its name.
 * Measured cost: −0.001 F1 on dev-train and on validation.
 */
function keepLeadingTitle(rows: BlockRows, keep: boolean[]): void {
  const level = feature(rows, 'heading_level');
  const copy = feature(rows, 'duplicate_before');
  const h1 = keep.findIndex((_, r) => level(r) === 1);
  const first = keep.indexOf(true);
  if (h1 >= 0 && first >= 0 && h1 < first && copy(h1) === 0) keep[h1] = true;
}

/**
 * A code block right after a kept block is the content's code (the model, trained on pages where
 * code is rare, sometimes scores it just under the cut). Neutral on dev-train (38 blocks changed,
 * F1 −0.0001) and validation (3 blocks, ±0).
 */
function keepCodeAfterContent(rows: BlockRows, keep: boolean[]): void {
  const pre = feature(rows, 'tag_pre');
  for (let r = 1; r < keep.length; r++) if (!keep[r] && keep[r - 1] && pre(r) === 1) keep[r] = true;
}

/**
 * A sub-heading (h2–h6) right above a kept block heads that content: kept, so sections keep their
 * titles (the model, taught by ground truths that often leave headings out, sometimes drops a short
 * one at the top of an article). A stack of headings is kept while each heads the next (h2 over h3
 * over text); same-level titles in a row are cards, not sections (validation +0.0008). A heading
 * whose text the page already showed (a card's title after its hidden link) is a copy, not a title:
 * left to the model, here and in keepLeadingTitle (+0.0002 on both splits).
 */
function keepSectionHeadings(rows: BlockRows, keep: boolean[]): void {
  const level = feature(rows, 'heading_level');
  const copy = feature(rows, 'duplicate_before');
  for (let r = keep.length - 2; r >= 0; r--) {
    const heads = level(r + 1) === 0 || level(r) < level(r + 1);
    if (!keep[r] && keep[r + 1] && level(r) >= 2 && heads && copy(r) === 0) keep[r] = true;
  }
}

/**
 * A term (<dt>) whose definition (the <dd> right after it) is kept and says something (a sentence,
 * not a figure) names that content: kept. API references put each function's signature in a
 * <dt>, and the model sometimes drops a short one; a forum's "Posts: 120" profile pairs stay
 * with the model.
 */
const DEFINITION_WORDS = 5;

function keepDefinitionTerms(rows: BlockRows, keep: boolean[]): void {
  for (let r = 0; r < keep.length - 1; r++) {
    const term = rows.blocks[r]!.el;
    if (keep[r] || !keep[r + 1] || term.localName !== 'dt' || rows.blocks[r + 1]!.tokens < DEFINITION_WORDS) continue;
    const dd = term.nextElementSibling;
    if (dd?.localName === 'dd' && (dd === rows.blocks[r + 1]!.el || dd.contains(rows.blocks[r + 1]!.el))) keep[r] = true;
  }
}

const isCell = (el: Element) => el.localName === 'td' || el.localName === 'th';

/**
 * A header cell (<th>, or any cell of a <thead>) of a table with a kept cell names that cell's
 * column or row: kept, so a kept table keeps its header row.
 */
function keepTableHeaders(rows: BlockRows, keep: boolean[]): void {
  const tablesWithContent = new Set<Element>();
  rows.blocks.forEach((b, r) => {
    const table = keep[r] && isCell(b.el) ? b.el.closest('table') : null;
    if (table) tablesWithContent.add(table);
  });
  if (tablesWithContent.size === 0) return;
  rows.blocks.forEach((b, r) => {
    if (keep[r] || !isCell(b.el) || (b.el.localName !== 'th' && b.el.parentElement?.parentElement?.localName !== 'thead')) return;
    const table = b.el.closest('table');
    if (table && tablesWithContent.has(table)) keep[r] = true;
  });
}

/**
 * On a page that offers a product for sale, a table row with a kept cell keeps its other cells: a
 * spec row is its name and its value, and the shop pages' lower cut (productShift) can drop a
 * short value ("| Width |  |"). Runs after keepTableHeaders, so a kept spec table's row headers
 * bring their rows. Elsewhere not: an article's comparison table whose header column alone was
 * kept would come back whole (WCXB dev-train: two review pages lost 0.13 and 0.22).
 */
function keepTableRows(rows: BlockRows, keep: boolean[]): void {
  if (!rows.offersProduct) return;
  const keptRows = new Set<Element>();
  rows.blocks.forEach((b, r) => {
    if (keep[r] && isCell(b.el) && b.el.parentElement?.localName === 'tr') keptRows.add(b.el.parentElement);
  });
  if (keptRows.size === 0) return;
  rows.blocks.forEach((b, r) => {
    if (!keep[r] && isCell(b.el) && b.el.parentElement && keptRows.has(b.el.parentElement)) keep[r] = true;
  });
}

/** One feature's value by row. */
function feature(rows: BlockRows, name: (typeof FEATURES)[number]): (r: number) => number {
  const col = FEATURES.indexOf(name);
  return (r) => rows.x[r * FEATURES.length + col]!;
}
