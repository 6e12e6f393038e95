// A GBDT model compiled once to straight-line code: each tree becomes nested conditionals with its
// features and thresholds as constants, so a row's score is comparisons and additions only, with no
// node tables to load (the packed walk in gbdt.ts loads a feature, a threshold and the row's value
// per level). Each row's sum is built in the same order as predictRaw's (baseScore, then tree 0, 1,
// …): bit-identical scores.
//
// The trees are grouped into functions of a few trees each, and every group scores all the page's
// rows before the next group runs: one group's machine code stays in the CPU's instruction cache
// across the rows (the whole model's code does not fit). 0.4× the packed walk's CPU on
// trafilatura-eval's rows (bench/block-scores-speed.ts).
//
// A row may be split over two buffers (features [0, split) in `x`, the rest in `y`), so the second
// stage reads a row's features and its context features where they are, without a joined copy.
//
// Where code cannot be generated from strings (node --disallow-code-generation-from-strings), the
// packed walk is used instead.

import { type GbdtModel, type GbdtTree, predictRaw } from './gbdt.js';

/**
 * Scores `rows` rows into `out`: row r's features [0, split) are `x[r * xStride + f]`, the rest
 * `y[r * yStride + f - split]`.
 */
export type RowsScorer = (
  x: ArrayLike<number>,
  xStride: number,
  y: ArrayLike<number>,
  yStride: number,
  rows: number,
  out: Float64Array,
) => void;

/** A group of trees: adds their leaves, in order, to `s` for the row at `xo` / `yo`. */
type Group = (x: ArrayLike<number>, xo: number, y: ArrayLike<number>, yo: number, s: number) => number;

/**
 * Splits per generated function: V8 optimises a function only below a bytecode size (~60 KB); a
 * split takes ~50 bytes, and groups of 8–20 of the shipped model's trees (~450–1,100 splits) measured
 * alike while 30 trees were not optimised and ran 1.3× the packed walk.
 */
const SPLITS_PER_GROUP = 700;

const compiled = new WeakMap<GbdtModel, Map<number, RowsScorer>>();

/** The model's scorer for rows split at `split` (default: the whole row in `x`); built on first use. */
export function rowsScorer(model: GbdtModel, split = model.features.length): RowsScorer {
  let bySplit = compiled.get(model);
  if (!bySplit) compiled.set(model, (bySplit = new Map()));
  let scorer = bySplit.get(split);
  if (!scorer) bySplit.set(split, (scorer = compile(model, split)));
  return scorer;
}

function compile(model: GbdtModel, split: number): RowsScorer {
  const width = model.features.length;
  const groups: Group[] = [];
  try {
    let code: string[] = [];
    let splits = 0;
    const close = () => {
      groups.push(new Function('x', 'xo', 'y', 'yo', 's', `${code.join('\n')}\nreturn s;`) as Group);
      code = [];
      splits = 0;
    };
    for (const tree of model.trees) {
      const inner = tree.feature.filter((f) => f !== -1).length;
      if (code.length > 0 && splits + inner > SPLITS_PER_GROUP) close();
      code.push(`s += ${treeCode(tree, 0, split, width)};`);
      splits += inner;
    }
    if (code.length > 0) close();
  } catch (err) {
    if (!(err instanceof EvalError)) throw err;
    return packedScorer(model, split);
  }
  const base = model.baseScore;
  return (x, xStride, y, yStride, rows, out) => {
    out.fill(base, 0, rows);
    for (const group of groups) for (let r = 0; r < rows; r++) out[r] = group(x, r * xStride, y, r * yStride, out[r]!);
  };
}

/** A number as a literal that reads back as the same double. */
function literal(v: number): string {
  // Only numbers reach the generated code (the model file is data).
  if (typeof v !== 'number') throw new TypeError('gbdt: a non-numeric threshold or leaf value');
  if (Number.isNaN(v)) return 'NaN';
  if (Object.is(v, -0)) return '-0';
  return `(${String(v)})`; // String(±Infinity) is ±Infinity, a valid literal
}

function treeCode(t: GbdtTree, i: number, split: number, width: number): string {
  const f = t.feature[i]!;
  if (f === -1) return literal(t.value[i]!);
  if (!Number.isInteger(f) || f < 0 || f >= width) throw new RangeError(`gbdt: feature index ${f} outside the model's ${width}`);
  const read = f < split ? `x[xo + ${f}]` : `y[yo + ${f - split}]`;
  // `<=` is false for NaN, so a missing value goes right, as in predictRaw.
  return `(${read} <= ${literal(t.threshold[i]!)} ? ${treeCode(t, t.left[i]!, split, width)} : ${treeCode(t, t.right[i]!, split, width)})`;
}

/** The packed walk behind the same interface (a row split over two buffers is joined first). */
function packedScorer(model: GbdtModel, split: number): RowsScorer {
  const width = model.features.length;
  const row = new Float64Array(width);
  return (x, xStride, y, yStride, rows, out) => {
    for (let r = 0; r < rows; r++) {
      if (split >= width) {
        out[r] = predictRaw(model, x, r * xStride);
        continue;
      }
      for (let f = 0; f < split; f++) row[f] = x[r * xStride + f]!;
      for (let f = split; f < width; f++) row[f] = y[r * yStride + f - split]!;
      out[r] = predictRaw(model, row);
    }
  };
}
