import { describe, expect, it } from 'vitest';
import { createTurndown, turndownInPlace } from '../../src/convert/markdown/index.js';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';

// Every kind of element the rules tell apart: blank ones, removed ones, tables, lists, code, links.
const page = `<html><body><h2>Title <em>here</em></h2><p>Text with <b>bold</b>, <i>it</i>, <s>gone</s>, <code>x_y</code>,
  <a href="/a" data-ws-href="https://e.example/a">a link</a> and <img data-ws-src="https://e.example/i.png" alt="pic">.</p>
  <div><span> </span><span></span><p>   </p><br><hr></div><blockquote><p>Quoted</p></blockquote>
  <ol start="3"><li>three</li><li>four<ul><li>nested</li></ul></li></ol><pre data-ws-lang="js">let a = 1;</pre>
  <table data-ws-cols="2"><tr><th>k</th><th>v</th></tr><tr><td>1</td><td>2</td></tr></table>
  <dl><dt>Term</dt><dd>Definition</dd></dl><custom-el>custom</custom-el><script>gone()</script><button>Press</button>
  <table><tr><td></td></tr></table><a href="/b"></a><abbr>ABBR</abbr></body></html>`;

const markdown = (service: ReturnType<typeof createTurndown>) => turndownInPlace(service, parseHtmlDocument(page).body);

describe('the turndown service: rule look-up (turndown-service.ts)', () => {
  it('looks each element up with its name read once, choosing the same rules as turndown', () => {
    const fast = createTurndown();
    const stock = createTurndown();
    const rules = stock.rules as unknown as { forNode: unknown };
    // The look-up is the service's own, in place of turndown's (on the prototype).
    expect(Object.hasOwn(fast.rules, 'forNode')).toBe(true);
    delete rules.forNode;
    expect(Object.hasOwn(stock.rules, 'forNode')).toBe(false);
    const out = markdown(fast);
    expect(out).toBe(markdown(stock));
    expect(out).toContain('## Title *here*');
    expect(out).toContain('| 1 | 2 |');
  });
});
