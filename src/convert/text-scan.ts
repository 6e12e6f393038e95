// htmlparser2 10's tokenizer reads text and quoted attribute values one character per turn of its
// state loop (a switch, a method call, an index step) when it decodes entities, as linkedom asks:
// its `fastForwardTo` skip is only taken with decoding off. A character that is neither `<` nor `&`
// (nor the closing quote) does nothing in those states, so here they skip to the character before the
// next one that does something, in a plain loop; the loop's own `index++` then lands on it. Everything
// else is htmlparser2's own code, but for its skip to one character (`fastForwardTo`: through a
// script's or style's text to the next `<`, a comment to its next `-`, an end tag to its `>`), which
// stepped the tokenizer's index field one character at a time: indexOf finds the same character
// (~6 % of linkedom's parse on trafilatura-eval, whose pages are ~28 % inline script).
//
// htmlparser2's Tokenizer is reached as htmlparser2-parts.ts says, guarded by a hash of the sources it
// relies on (the state loop, the two states, `fastForwardTo`); any other htmlparser2 keeps its own.

import { parseHTML } from 'linkedom';
import { membersHash, prototypeWith, sampleParser } from './htmlparser2-parts.js';

/** SHA-256 of the Tokenizer members below in htmlparser2 10.1.0 (ESM and CommonJS builds alike). */
export const AUDITED_TOKENIZER = '1d074bfff745404b6acbd3bc6fc16a766687f7ee51b0b6909e8aa59ac2976b5f';

const MEMBERS = ['parse', 'shouldContinue', 'stateText', 'handleInAttributeValue', 'fastForwardTo'] as const;

interface TokenizerState {
  buffer: string;
  offset: number;
  index: number;
  decodeEntities: boolean;
}
type Proto = Record<string, (this: TokenizerState, ...args: number[]) => void>;

/** The prototype of the tokenizer linkedom's parser uses (of the given linkedom instance). */
function tokenizerPrototype(parse: typeof parseHTML = parseHTML): Proto | undefined {
  return prototypeWith<Proto>(sampleParser(parse)?.tokenizer, MEMBERS);
}

export function tokenizerHash(parse: typeof parseHTML = parseHTML): string | undefined {
  const proto = tokenizerPrototype(parse);
  return proto && membersHash(proto, MEMBERS);
}

/** Index of the last character before the next `a` or `b` at or after `from` (or the buffer's last). */
function skipTo(t: TokenizerState, a: number, b: number): void {
  const buffer = t.buffer;
  const n = buffer.length;
  let i = t.index - t.offset;
  while (++i < n) {
    const c = buffer.charCodeAt(i);
    if (c === a || c === b) break;
  }
  t.index = i - 1 + t.offset;
}

let patched: { proto: Proto; stock: Record<string, unknown>; fast: Record<string, unknown> } | null | undefined;

function prepare(): typeof patched {
  if (patched !== undefined) return patched;
  const proto = tokenizerPrototype();
  if (!proto || tokenizerHash() !== AUDITED_TOKENIZER) return (patched = null);
  const stateText = proto['stateText']!;
  const handleInAttributeValue = proto['handleInAttributeValue']!;
  const fastForwardTo = proto['fastForwardTo']!;
  const fast = {
    // The skip to one character (a script's or style's next `<`, a comment's next `-`, a tag's `>`):
    // htmlparser2 steps its own index field one character a turn; indexOf finds the same place.
    fastForwardTo(this: TokenizerState, c: number): boolean {
      const found = this.buffer.indexOf(String.fromCharCode(c), this.index + 1 - this.offset);
      if (found < 0) {
        this.index = this.buffer.length + this.offset - 1;
        return false;
      }
      this.index = found + this.offset;
      return true;
    },
    stateText(this: TokenizerState, c: number): void {
      if (c === 60 /* < */ || c === 38 /* & */ || !this.decodeEntities) stateText.call(this, c);
      else skipTo(this, 60, 38);
    },
    handleInAttributeValue(this: TokenizerState, c: number, quote: number): void {
      if (c === quote || c === 38 /* & */ || !this.decodeEntities) handleInAttributeValue.call(this, c, quote);
      else skipTo(this, quote, 38);
    },
  };
  return (patched = { proto, stock: { stateText, handleInAttributeValue, fastForwardTo }, fast });
}

let on = false;

/** Skips inert text and attribute characters (true) or reads them one by one as htmlparser2 does (false). */
export function setTextScan(enable: boolean): boolean {
  const p = prepare();
  if (!p) return false;
  for (const [name, fn] of Object.entries(enable ? p.fast : p.stock))
    Object.defineProperty(p.proto, name, { value: fn, writable: true, configurable: true, enumerable: false });
  on = enable;
  return on;
}

export function textScanApplied(): boolean {
  return on;
}
