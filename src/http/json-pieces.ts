// Big answers as JSON without a long stall: an extract of ten 10 MiB pages answers 35–100 MB of JSON,
// and JSON.stringify plus the UTF-8 copy of that is 0.1–0.5 s of one piece on the event loop. Here
// the same text is made in UTF-8 pieces of about 1 MiB, one piece per turn of the loop (src/turns.ts).

import { nextTurn } from '../turns.js';

/** Characters of JSON made (and encoded) per turn: a few ms of work. */
export const JSON_PIECE_CHARS = 1024 * 1024;

/** Strings longer than this are escaped a part at a time. */
const STRING_PART_CHARS = 256 * 1024;

/** Answers whose strings hold fewer characters than this are serialized in one piece (JSON.stringify). */
export const BIG_ANSWER_CHARS = 1024 * 1024;

/** The characters of the strings in `value`, counted until `limit` is passed (a cheap size estimate). */
export function stringChars(value: unknown, limit = BIG_ANSWER_CHARS): number {
  if (typeof value === 'string') return value.length;
  return typeof value === 'object' && value !== null ? addChars(value, 0, limit) : 0;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * `total` plus the characters of the strings in the object or array `v`. Run on every answer before it
 * is serialized, so it allocates nothing (no closure, no `Object.values` array per object) and calls
 * itself only for containers: own enumerable keys, as `Object.values` and JSON.stringify see them
 * (`hasOwnProperty.call` in a for-in, a pattern V8 optimizes: `Object.hasOwn` there cost 2× the walk).
 */
function addChars(v: object, total: number, limit: number): number {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length && total <= limit; i++) {
      const item: unknown = v[i];
      if (typeof item === 'string') total += item.length;
      else if (typeof item === 'object' && item !== null) total = addChars(item, total, limit);
    }
    return total;
  }
  const object = v as Record<string, unknown>;
  for (const key in object) {
    if (total > limit) break;
    if (!hasOwn.call(object, key)) continue;
    const item = object[key];
    if (typeof item === 'string') total += item.length;
    else if (typeof item === 'object' && item !== null) total = addChars(item, total, limit);
  }
  return total;
}

/** Bytes in `pieces` (the reply's Content-Length). */
export const piecesLength = (pieces: readonly Uint8Array[]): number => pieces.reduce((n, piece) => n + piece.byteLength, 0);

/**
 * The UTF-8 bytes of `JSON.stringify(value)` (the same text), made a piece per turn of the event loop.
 * For JSON data (plain objects, arrays, strings, numbers, booleans, null, toJSON): what answers are.
 */
export async function jsonPieces(value: unknown): Promise<Uint8Array[]> {
  const pieces: Uint8Array[] = [];
  let text = '';
  for (const part of jsonParts(resolve(value, ''))) {
    text += part;
    if (text.length >= JSON_PIECE_CHARS) {
      pieces.push(Buffer.from(text, 'utf8'));
      text = '';
      await nextTurn();
    }
  }
  if (text !== '' || pieces.length === 0) pieces.push(Buffer.from(text, 'utf8'));
  return pieces;
}

/** A value as JSON sees it: through its toJSON when it has one (Dates…). */
const resolve = (v: unknown, key: string): unknown =>
  typeof (v as { toJSON?: unknown } | null)?.toJSON === 'function' ? (v as { toJSON(k: string): unknown }).toJSON(key) : v;

/** Skipped as an object member, null as an array item (as JSON.stringify does). */
const isOmitted = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/** JSON text of a resolved value, in parts: long strings are cut, containers walked. */
function* jsonParts(value: unknown): Generator<string> {
  if (typeof value === 'string' && value.length > STRING_PART_CHARS) {
    yield '"';
    for (let at = 0; at < value.length; ) {
      let end = Math.min(value.length, at + STRING_PART_CHARS);
      // Never between the two halves of a surrogate pair (each would be escaped alone).
      const last = value.charCodeAt(end - 1);
      if (end < value.length && last >= 0xd800 && last <= 0xdbff) end--;
      yield JSON.stringify(value.slice(at, end)).slice(1, -1);
      at = end;
    }
    yield '"';
  } else if (Array.isArray(value)) {
    yield '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield ',';
      const item = resolve(value[i], String(i));
      if (isOmitted(item)) yield 'null';
      else yield* jsonParts(item);
    }
    yield ']';
  } else if (
    value !== null &&
    typeof value === 'object' &&
    !(value instanceof Number || value instanceof String || value instanceof Boolean)
  ) {
    yield '{';
    let first = true;
    for (const [k, v] of Object.entries(value)) {
      const member = resolve(v, k);
      if (isOmitted(member)) continue;
      yield `${first ? '' : ','}${JSON.stringify(k)}:`;
      first = false;
      yield* jsonParts(member);
    }
    yield '}';
  } else {
    // Numbers (NaN and Infinity are null), booleans, null, short strings, boxed primitives; a BigInt throws, as JSON.stringify does.
    yield JSON.stringify(value) ?? 'null';
  }
}
