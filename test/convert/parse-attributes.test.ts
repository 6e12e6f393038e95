import { createRequire } from 'node:module';
import * as linkedom from 'linkedom';
import { afterEach, describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../src/convert/html-to-markdown.js';
import { linkedomParser } from '../../src/convert/linkedom-parser.js';
import {
  AUDITED_ONOPENTAG,
  AUDITED_PARSER_ATTRIBUTES,
  onopentagHash,
  parseAttributesApplied,
  parserAttributesHash,
  setParseAttributes,
} from '../../src/convert/parse-attributes.js';

// linkedom's CommonJS build has its own htmlparser2 instance: stock, untouched by the change.
const stock = createRequire(import.meta.url)('linkedom') as typeof linkedom;

// Repeated names (the first wins), `__proto__`, names starting with a digit (an object orders
// integer-like keys first), classes to normalise, valueless and unquoted attributes, entities, SVG,
// void and self-closed elements, the implied <p> of `</p>` and <br> of `</br>`, upper case.
const pages = [
  '<!doctype html><html lang=en><head><meta charset=utf-8><link rel=x href="/a?b=1&amp;c=2"></head><body class=" a  b a">',
  '<div id=x ID=y id=z data-k="v" __proto__="p" constructor=c hasOwnProperty=h><p CLASS="Q q">t</p></div>',
  "<span 2=b 1=a z=c 10=d 01=e>digits</span><input disabled value='it&apos;s'><img src=a.png alt>",
  '<svg viewBox="0 0 1 1" class="i"><path d="M0 0" fill=red /><title lang=en>t</title></svg><br class=x/>',
  '</p></br><table border=1><tr><td colspan=2 class="c  c">x</table><a href=/q?a=1&b=2 title="x &quot;y&quot;">l</a>',
];

afterEach(() => {
  setParseAttributes(true);
});

/** Each element's attributes as [name, value, ownerElement is it] in node order. */
function attributesOf(doc: Document): string {
  return Array.from(doc.querySelectorAll('*'))
    .map(
      (el) =>
        `${el.localName}[${Array.from(el.attributes)
          .map((a) => `${a.name}=${a.value}${a.ownerElement === el ? '' : '!'}`)
          .join(' ')}]`,
    )
    .join('\n');
}

describe("the parser's attribute arrays (parse-attributes.ts)", () => {
  it('applies to the installed htmlparser2 and linkedom, whose Parser and handler are the audited ones', () => {
    htmlToMarkdown('<p>x</p>'); // loads the conversion pipeline, which applies the change
    expect(AUDITED_PARSER_ATTRIBUTES).toContain(parserAttributesHash(stock.parseHTML));
    expect(onopentagHash(stock.parseHTML)).toBe(AUDITED_ONOPENTAG);
    expect(parseAttributesApplied()).toBe(true);
  });

  it('parses every input to the same document and attributes as htmlparser2 and stock linkedom', () => {
    for (const html of [...pages, pages.join('')]) {
      const fast = linkedom.parseHTML(html).document as unknown as Document;
      setParseAttributes(false);
      const slow = linkedom.parseHTML(html).document as unknown as Document;
      setParseAttributes(true);
      const plain = stock.parseHTML(html).document as unknown as Document;
      expect(fast.toString()).toBe(slow.toString());
      expect(fast.toString()).toBe(plain.toString());
      expect(attributesOf(fast)).toBe(attributesOf(plain));
    }
    const doc = linkedom.parseHTML(pages.join('')).document as unknown as Document;
    expect(doc.querySelector('div')!.id).toBe('x');
    expect(doc.querySelector('div')!.getAttribute('__proto__')).toBeNull();
    expect(Array.from(doc.querySelector('span')!.attributes).map((a) => a.name)).toEqual(['1', '2', '10', 'z', '01']);
    expect(doc.querySelector('body')!.className).toBe('a b');
  });

  it('collects into one reused list, not an object per tag', () => {
    const seen = (on: boolean) => {
      setParseAttributes(on);
      const collected = new Set<unknown>();
      const proto = Object.prototype as { onparserinit?: unknown };
      Object.defineProperty(proto, 'onparserinit', {
        value(parser: { attribs: unknown; endOpenTag: (implied: boolean) => void }) {
          const own = Object.getPrototypeOf(parser).endOpenTag as (implied: boolean) => void;
          parser.endOpenTag = function (this: typeof parser, implied: boolean) {
            collected.add(this.attribs);
            own.call(this, implied);
          };
        },
        configurable: true,
        writable: true,
      });
      try {
        linkedom.parseHTML(`<html><body>${'<div class="a" id="b"><i>x</i></div>'.repeat(50)}</body></html>`);
      } finally {
        delete proto.onparserinit;
      }
      return collected.size;
    };
    expect(seen(false)).toBeGreaterThan(100);
    expect(seen(true)).toBe(1);
  });

  it('keeps the stock path while custom elements are active, and for other handlers', () => {
    const { document, customElements, HTMLElement } = linkedom.parseHTML('<html><body></body></html>');
    customElements.define('x-box', class extends HTMLElement {});
    const host = document.createElement('div');
    const html = '<x-box a="1" a="2"></x-box><p is="x-box" class="c">t</p>';
    host.innerHTML = html;
    const fast = host.innerHTML;
    setParseAttributes(false);
    host.innerHTML = html;
    expect(fast).toBe(host.innerHTML);
    expect(fast).toContain('<x-box a="1">');
    const Parser = (linkedomParser() as object).constructor as new (cbs: object) => { write(s: string): void; end(): void };
    const got: unknown[] = [];
    const parser = new Parser({ onopentag: (name: string, attrs: Record<string, string>) => got.push(name, { ...attrs }) });
    parser.write('<div class="a" id=b class=c><br x>');
    parser.end();
    expect(got).toEqual(['div', { class: 'a', id: 'b' }, 'br', { x: '' }]);
  });

  it('converts the same Markdown with it off', () => {
    const html = pages.join('');
    const md = htmlToMarkdown(html);
    expect(setParseAttributes(false)).toBe(false);
    expect(htmlToMarkdown(html)).toBe(md);
  });
});
