import { createRequire } from 'node:module';
import * as linkedom from 'linkedom';
import { afterEach, describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../src/convert/html-to-markdown.js';
import { AUDITED_TOKENIZER, setTextScan, textScanApplied, tokenizerHash } from '../../src/convert/text-scan.js';

// linkedom's CommonJS build has its own htmlparser2 instance: stock, untouched by the change.
const stock = createRequire(import.meta.url)('linkedom') as typeof linkedom;

// Text and attribute values with and without entities, both quotes, a value ending the input, text
// running to the end of the input, raw-text elements, comments and CDATA.
const pages = [
  '<!doctype html><html><head><title>A &amp; B</title><script>if (a < b && c) x = "&amp;";</script></head>',
  '<body><p title="x &quot;y&quot; &amp z" data-a=\'o &lt; p\' alt=plain&amp;more>Fish &amp; chips &lt;3 &copy',
  ' caf&eacute; &#169; &#x263a; &notanentity; & alone<br>line two<!-- c & d --><![CDATA[ x & y ]]>',
  '<textarea>a &amp; b < c</textarea><style>p::after{content:"&"}</style><a href="/q?a=1&b=2&amp;c=3">l</a>',
  '<img alt="unterminated &amp; value',
  'text to the end &amp; beyond',
  `<div>${'long text without markup '.repeat(400)}&amp;${'more '.repeat(300)}</div>`,
  // The skips to one character (fastForwardTo): a script's `<`s and end tag, a comment's `-`s, a
  // CDATA's `]`s, end tags and declarations up to `>`, each also where the input ends.
  `<script>${'if (a < b) x--; '.repeat(300)}</scrip></script ><style>${'p { x: 1 } '.repeat(300)}<</style>`,
  `<!-- ${'a - b -- c '.repeat(300)} --->x<![CDATA[ ${'a ] b ]] c '.repeat(200)}]]]>y</div  junk ><!DOCTYPE html >`,
  `<script>${'var x = "<"; '.repeat(200)}`,
  `<!-- never closed ${'- '.repeat(300)}`,
];

afterEach(() => {
  setTextScan(true);
});

describe("the tokenizer's text skip (text-scan.ts)", () => {
  it('applies to the installed htmlparser2, whose tokenizer is the audited one', () => {
    htmlToMarkdown('<p>x</p>'); // loads the conversion pipeline, which applies the change
    expect(tokenizerHash(stock.parseHTML)).toBe(AUDITED_TOKENIZER);
    expect(textScanApplied()).toBe(true);
  });

  it('parses every input to the same document as the character-by-character tokenizer', () => {
    for (const html of [...pages, pages.join('')]) {
      const fast = linkedom.parseHTML(html).document.toString();
      setTextScan(false);
      const slow = linkedom.parseHTML(html).document.toString();
      setTextScan(true);
      expect(fast).toBe(slow);
      expect(fast).toBe(stock.parseHTML(html).document.toString());
    }
  });

  it('skips the inert characters: far fewer state-loop turns in text', () => {
    const html = `<p>${'plain words '.repeat(1000)}</p>`;
    let turns = 0;
    const proto = Object.prototype;
    Object.defineProperty(proto, 'onparserinit', {
      value(parser: { tokenizer: Record<string, (c: number) => void> }) {
        const t = parser.tokenizer;
        const own = t['stateText']!;
        t['stateText'] = function (this: unknown, c: number) {
          turns++;
          own.call(this, c);
        };
      },
      configurable: true,
      writable: true,
    });
    try {
      linkedom.parseHTML(html);
      const fast = turns;
      turns = 0;
      setTextScan(false);
      linkedom.parseHTML(html);
      expect(turns).toBeGreaterThan(10_000);
      expect(fast).toBeLessThan(10);
    } finally {
      delete (proto as { onparserinit?: unknown }).onparserinit;
    }
  });

  it('converts the same Markdown with it off', () => {
    const html = pages.join('');
    const md = htmlToMarkdown(html);
    expect(setTextScan(false)).toBe(false);
    expect(htmlToMarkdown(html)).toBe(md);
    expect(md).toContain('Fish & chips');
  });
});
