// htmlparser2 is linkedom's dependency, not websift's (importing it would break an install that does
// not hoist it), so its Parser and Tokenizer are reached through the one parser linkedom makes for a
// sample parse: the parser hands itself to its handler's `onparserinit`, which linkedom's handler
// object inherits from `Object.prototype` for that call only. text-scan.ts and parse-attributes.ts
// change the classes' prototypes found this way.

import { parseHTML } from 'linkedom';

export interface SampleParser {
  tokenizer?: object;
}

/** The htmlparser2 parser a parse by the given linkedom instance builds (undefined if none was seen). */
export function linkedomParser(parse: typeof parseHTML = parseHTML): SampleParser | undefined {
  const objectProto = Object.prototype as { onparserinit?: unknown };
  let parser: SampleParser | undefined;
  Object.defineProperty(objectProto, 'onparserinit', {
    value(p: SampleParser) {
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
