// The packed trees' walk (gbdt.ts predictRows) as one small WebAssembly function, assembled here at
// load from the few instructions it needs (no toolchain, no binary file). Why: the walk is a chain
// of loads and a comparison per level, and JavaScript pays a bounds check per typed-array read and
// a float32-to-float64 widening per cell and threshold; WebAssembly reads float32 memory and
// compares it as float32 with neither. Same steps, same sums in the same order: bit-identical to the
// JavaScript walk (test/convert/gbdt.test.ts).
//
// Memory: each model's tables are written once (per thread) at the bottom, the rows and sums of a
// call above them (up to 1 MB of rows at a time). Per model:
//   trees  — per tree: i32 first node number, i32 depth;
//   nodes  — per node, 8 bytes: i32 feature × 4 (the cell's byte offset in a row), f32 threshold
//            (rounded down to float32, as predictRows' JavaScript walk compares);
//   values — per node, f64 leaf value (same node numbering, so the same byte offset finds it).

/** A model's tables in the walker's memory (byte addresses). */
export interface PlacedTrees {
  trees: number;
  count: number;
  nodes: number;
  values: number;
}

/** The tables of one packed model, as gbdt.ts lays them out. */
export interface TreeTables {
  depth: Int32Array;
  base: Int32Array;
  feature: Int32Array;
  threshold32: Float32Array;
  value: Float64Array;
}

// A few opcodes of the WebAssembly binary format (core spec, "Instructions").
const OP = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  select: 0x1b,
  get: 0x20,
  set: 0x21,
  tee: 0x22,
  i32Load: 0x28,
  f32Load: 0x2a,
  f64Load: 0x2b,
  f64Store: 0x39,
  i32Const: 0x41,
  i32Eqz: 0x45,
  i32Eq: 0x46,
  i32GeU: 0x4f,
  i32LeU: 0x4d,
  f32Le: 0x5f,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32Mul: 0x6c,
  i32Shl: 0x74,
  f64Add: 0xa0,
} as const;
const VOID = 0x40;
const I32 = 0x7f;
const F64 = 0x7c;

/** Unsigned LEB128. */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** Signed LEB128 (small constants only). */
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const name = (s: string): number[] => [...uleb(s.length), ...[...s].map((c) => c.charCodeAt(0))];

/** Rows walking a tree together: independent chains of loads the CPU overlaps. */
const LANES = 8;

/**
 * walk(trees, count, nodes, values, x, stride, rows, out): for each group of eight rows (row r's
 * cells at x + r·stride bytes; a last group of fewer walks its last row in the missing lanes and
 * writes their sums past out[rows - 1], into room the caller leaves), then each tree, each row walks `depth` levels — node j's children are 2j+1 (cell ≤
 * threshold) and 2j+2 (else, NaN too) — and adds its leaf's value to its sum, which starts as out[r]
 * (f64) and is written back after the last tree. Rows outer: a group's eight row addresses and sums
 * stay in registers across the trees (0.57× the JavaScript walk; trees outer, as that walk was, 0.63×).
 * A 6-deep tree (the trainer's) is walked written out (0.48×); other depths in a loop.
 */
function walkFunction(): number[] {
  // Locals: the eight parameters, then these.
  const [TREES, COUNT, NODES, VALUES, X, STRIDE, ROWS, OUT] = [0, 1, 2, 3, 4, 5, 6, 7];
  const T = 8; // trees left
  const NODE0 = 9; // byte address of the tree's node 0
  const VALUE0 = 10; // byte address of the tree's node 0's value
  const R = 11;
  const LEVEL = 12; // levels left
  const LAST = 13; // byte address of the last row
  const SUM = 14; // byte address of out[r]
  const ADDR = 15;
  const TREE = 16; // byte address of the tree's record
  const ROW = 17; // o0..o7: byte address of each lane's row
  const J = ROW + LANES; // j0..j7: each lane's node number × 8
  const I32_LOCALS = J + LANES - 8;
  const S = J + LANES; // s0..s7 (f64): each lane's sum
  const c: number[] = [];
  const get = (i: number) => c.push(OP.get, i);
  const set = (i: number) => c.push(OP.set, i);
  const i32 = (n: number) => c.push(OP.i32Const, ...sleb(n));
  // last = x + (rows - 1) * stride
  get(X);
  get(ROWS);
  i32(1);
  c.push(OP.i32Sub);
  get(STRIDE);
  c.push(OP.i32Mul, OP.i32Add);
  set(LAST);
  c.push(OP.block, VOID, OP.loop, VOID); // groups of rows
  get(R);
  get(ROWS);
  c.push(OP.i32GeU, OP.brIf, 1);
  // o0 = x + r * stride; ok = min(o(k-1) + stride, last)
  get(X);
  get(R);
  get(STRIDE);
  c.push(OP.i32Mul, OP.i32Add);
  set(ROW);
  for (let k = 1; k < LANES; k++) {
    get(ROW + k - 1);
    get(STRIDE);
    c.push(OP.i32Add, OP.tee, ROW + k);
    get(LAST);
    get(ROW + k);
    get(LAST);
    c.push(OP.i32LeU, OP.select);
    set(ROW + k);
  }
  get(OUT);
  get(R);
  i32(3);
  c.push(OP.i32Shl, OP.i32Add);
  set(SUM);
  for (let k = 0; k < LANES; k++) {
    get(SUM);
    c.push(OP.f64Load, 3, ...uleb(8 * k));
    set(S + k);
  }
  get(TREES);
  set(TREE);
  get(COUNT);
  set(T);
  c.push(OP.block, VOID, OP.loop, VOID); // trees
  get(T);
  c.push(OP.i32Eqz, OP.brIf, 1);
  // The tree's record: first node number (× 8 gives both tables' offsets), depth.
  get(TREE);
  c.push(OP.i32Load, 2, 0);
  i32(3);
  c.push(OP.i32Shl, OP.tee, NODE0);
  get(VALUES);
  c.push(OP.i32Add);
  set(VALUE0);
  get(NODE0);
  get(NODES);
  c.push(OP.i32Add);
  set(NODE0);
  get(TREE);
  c.push(OP.i32Load, 2, 4);
  set(LEVEL);
  for (let k = 0; k < LANES; k++) {
    i32(0);
    set(J + k);
  }
  // One level of every lane's walk.
  const level = () => {
    for (let k = 0; k < LANES; k++) {
      // j = 2j + 16 - 8·(cell <= threshold), in bytes of 8 per node
      get(J + k);
      i32(1);
      c.push(OP.i32Shl);
      i32(16);
      c.push(OP.i32Add);
      get(ROW + k);
      get(NODE0);
      get(J + k);
      c.push(OP.i32Add, OP.tee, ADDR);
      c.push(OP.i32Load, 2, 0);
      c.push(OP.i32Add, OP.f32Load, 2, 0);
      get(ADDR);
      c.push(OP.f32Load, 2, 4);
      c.push(OP.f32Le);
      i32(3);
      c.push(OP.i32Shl, OP.i32Sub);
      set(J + k);
    }
  };
  get(LEVEL);
  i32(6);
  c.push(OP.i32Eq, OP.if, VOID);
  for (let l = 0; l < 6; l++) level();
  c.push(OP.else);
  c.push(OP.block, VOID, OP.loop, VOID); // levels
  get(LEVEL);
  c.push(OP.i32Eqz, OP.brIf, 1);
  level();
  get(LEVEL);
  i32(1);
  c.push(OP.i32Sub);
  set(LEVEL);
  c.push(OP.br, 0, OP.end, OP.end);
  c.push(OP.end);
  for (let k = 0; k < LANES; k++) {
    get(S + k);
    get(VALUE0);
    get(J + k);
    c.push(OP.i32Add, OP.f64Load, 3, 0, OP.f64Add);
    set(S + k);
  }
  get(TREE);
  i32(8);
  c.push(OP.i32Add);
  set(TREE);
  get(T);
  i32(1);
  c.push(OP.i32Sub);
  set(T);
  c.push(OP.br, 0, OP.end, OP.end);
  // out[r + k] = lane k's sum (past the last row, into the room left above the sums)
  for (let k = 0; k < LANES; k++) {
    get(SUM);
    get(S + k);
    c.push(OP.f64Store, 3, ...uleb(8 * k));
  }
  get(R);
  i32(LANES);
  c.push(OP.i32Add);
  set(R);
  c.push(OP.br, 0, OP.end, OP.end);
  c.push(OP.end);
  const body = [
    ...vec([
      [...uleb(I32_LOCALS), I32],
      [...uleb(LANES), F64],
    ]),
    ...c,
  ];
  return [...uleb(body.length), ...body];
}

function moduleBytes(): Uint8Array<ArrayBuffer> {
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec([[0x60, ...vec(Array.from({ length: 8 }, () => [I32])), 0]])),
    ...section(3, vec([[0]])),
    ...section(5, vec([[0x00, 1]])),
    ...section(
      7,
      vec([
        [...name('walk'), 0x00, 0],
        [...name('memory'), 0x02, 0],
      ]),
    ),
    ...section(10, vec([walkFunction()])),
  ]);
}

type Walk = (trees: number, count: number, nodes: number, values: number, x: number, stride: number, rows: number, out: number) => void;

interface Walker {
  walk: Walk;
  memory: WebAssembly.Memory;
  /** First free byte above the placed models. */
  top: number;
  placed: WeakMap<TreeTables, PlacedTrees>;
}

/** Models' tables past this many bytes start the placement over (a trainer making models without end). */
let maxPlaced = 64 << 20;

/** Sets the placement's bound (tests); returns the one before. */
export function setPlacementLimit(bytes: number): number {
  const before = maxPlaced;
  maxPlaced = bytes;
  return before;
}
const PAGE = 65536;

let walker: Walker | null | undefined;

/** The walker of this thread, made on first use; null where WebAssembly cannot run. */
function getWalker(): Walker | null {
  if (walker !== undefined) return walker;
  try {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(moduleBytes()));
    const { walk, memory } = instance.exports as { walk: Walk; memory: WebAssembly.Memory };
    walker = { walk, memory, top: 0, placed: new WeakMap() };
  } catch {
    walker = null;
  }
  return walker;
}

const align8 = (n: number) => (n + 7) & ~7;

/** Room for `bytes` from `from` on, growing the memory when short. */
function reserve(w: Walker, from: number, bytes: number): void {
  const need = from + bytes - w.memory.buffer.byteLength;
  if (need > 0) w.memory.grow(Math.ceil(need / PAGE));
}

function place(w: Walker, p: TreeTables): PlacedTrees {
  const count = p.depth.length;
  const nodes = p.feature.length;
  const size = align8(count * 8) + nodes * 8 + nodes * 8;
  if (w.top + size > maxPlaced) {
    w.top = 0;
    w.placed = new WeakMap();
  }
  const at: PlacedTrees = { trees: w.top, count, nodes: w.top + align8(count * 8), values: 0 };
  at.values = at.nodes + nodes * 8;
  reserve(w, w.top, size);
  const buffer = w.memory.buffer;
  const trees = new Int32Array(buffer, at.trees, count * 2);
  for (let t = 0; t < count; t++) {
    trees[2 * t] = p.base[t]!;
    trees[2 * t + 1] = p.depth[t]!;
  }
  const feature = new Int32Array(buffer, at.nodes, nodes * 2);
  const threshold = new Float32Array(buffer, at.nodes, nodes * 2);
  for (let j = 0; j < nodes; j++) {
    feature[2 * j] = p.feature[j]! * 4;
    threshold[2 * j + 1] = p.threshold32[j]!;
  }
  new Float64Array(buffer, at.values, nodes).set(p.value);
  w.top += size;
  w.placed.set(p, at);
  return at;
}

/** Rows copied into the memory per walk: at most this many bytes of them (a big call walks in pieces). */
const PIECE_BYTES = 1 << 20;

/**
 * Adds to out[0, rows) each row's leaf values, tree 0 first (out holds the base score): true when
 * done here, false where WebAssembly cannot run (the caller walks the trees itself).
 */
export function walkTrees(p: TreeTables, x: Float32Array, stride: number, rows: number, out: Float64Array): boolean {
  const w = getWalker();
  if (!w) return false;
  const at = w.placed.get(p) ?? place(w, p);
  const piece = Math.max(1, Math.floor(PIECE_BYTES / (stride * 4)));
  for (let r = 0; r < rows; r += piece) {
    const m = Math.min(piece, rows - r);
    const cells = m * stride;
    const xAt = w.top;
    const sumAt = align8(xAt + cells * 4);
    reserve(w, xAt, sumAt - xAt + (m + LANES) * 8);
    const buffer = w.memory.buffer;
    new Float32Array(buffer, xAt, cells).set(x.subarray(r * stride, r * stride + cells));
    // The last group's lanes past the last row read and write the LANES sums above it.
    const sums = new Float64Array(buffer, sumAt, m);
    sums.set(out.subarray(r, r + m));
    w.walk(at.trees, at.count, at.nodes, at.values, xAt, stride * 4, m, sumAt);
    out.set(sums, r);
  }
  return true;
}
