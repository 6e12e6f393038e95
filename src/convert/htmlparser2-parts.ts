// htmlparser2 is linkedom's dependency, not websift's: text-scan.ts and parse-depth.ts reach its
// Tokenizer and Parser through the one parser linkedom makes for a sample parse (the parser hands itself
// to its handler's `onparserinit`, which linkedom's handler object inherits for that call only), and
// each guards what it relies on by a hash of those members' sources.

import { createHash } from 'node:crypto';
import { parseHTML } from 'linkedom';

/** The parser linkedom makes (of the given linkedom instance), from one sample parse. */
export function sampleParser(parse: typeof parseHTML = parseHTML): { tokenizer?: object } | undefined {
  const objectProto = Object.prototype as { onparserinit?: unknown };
  let parser: { tokenizer?: object } | undefined;
  Object.defineProperty(objectProto, 'onparserinit', {
    value(p: { tokenizer?: object }) {
      parser ??= p;
    },
    configurable: true,
    writable: true,
    enumerable: false,
  });
  try {
    parse('<p>x</p>');
  } finally {
    delete objectProto.onparserinit;
  }
  return parser;
}

/** `object`'s prototype when it has every member in `members` as a function. */
export function prototypeWith<P extends Record<string, unknown>>(object: object | undefined, members: readonly string[]): P | undefined {
  const proto = object ? (Object.getPrototypeOf(object) as P) : undefined;
  return proto && members.every((m) => typeof proto[m] === 'function') ? proto : undefined;
}

/** SHA-256 of the members' sources, in order. */
export function membersHash(proto: Record<string, unknown>, members: readonly string[]): string {
  return createHash('sha256')
    .update(members.map((m) => String(proto[m])).join('\n'))
    .digest('hex');
}
