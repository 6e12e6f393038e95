// Whether a parsed page has any text a reader could see: the `html` format's test for an empty page
// (the Markdown formats test their output instead). Text inside scripts, styles, templates and
// noscript fallbacks does not count: a shell of scripts is not a page of text.

const NOT_TEXT = new Set(['script', 'style', 'template', 'noscript']);

export function hasReadableText(doc: Document): boolean {
  // Iterative: a recursive walk overflows the stack on deeply nested pages.
  const stack: Node[] = [doc.body];
  while (stack.length > 0) {
    for (let c = stack.pop()!.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3 && /\S/.test(c.nodeValue ?? '')) return true;
      if (c.nodeType === 1 && !NOT_TEXT.has((c as Element).localName)) stack.push(c);
    }
  }
  return false;
}
