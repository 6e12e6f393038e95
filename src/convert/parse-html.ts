// HTML text → linkedom Document with a guaranteed <html>/<head>/<body> shape. linkedom builds no
// implied elements: a fragment becomes the documentElement itself and `document.body` then throws
// or comes back empty, so the shape is repaired here once for every caller.

import { capElements } from './element-cap.js';
import { setFastNodes } from './fast-nodes.js';
import { applyLazyListeners } from './lazy-listeners.js';
import { applyLinkedomReads, commentsBelow } from './linkedom-reads.js';
import { capNesting, MAX_PARSE_DEPTH } from './nesting-cap.js';
import { parseWatched } from './parse-depth.js';
import { setTextScan } from './text-scan.js';
import { parseDocument } from './tree-builder.js';

// Before the first parse: linkedom's nodes then build no listener Map each (lazy-listeners.ts).
applyLazyListeners();
// And class reads and element walks skip linkedom's detours (linkedom-reads.ts).
applyLinkedomReads();
// And parsed nodes are built by plain constructors, without the listener Map (fast-nodes.ts).
setFastNodes(true);
// And the tokenizer skips text characters that do nothing (text-scan.ts).
setTextScan(true);

/**
 * The depth past which a parse of the page as it came is given up for capNesting's replay
 * (parse-depth.ts): half the cap, a margin against any difference between the replay and the parser
 * (no corpus page nests deeper than ~60).
 */
const WATCHED_DEPTH = MAX_PARSE_DEPTH / 2;

const HEAD_ONLY = new Set(['title', 'meta', 'link', 'base', 'style', 'script', 'noscript', 'template']);

export function parseHtmlDocument(source: string): Document {
  const capped = capElements(source);
  let html = capped.html;
  // Most pages are parsed once, as they came; a deep one (or one with CDATA) takes the replay first.
  const watched = parseWatched(() => parseDocument(html), WATCHED_DEPTH);
  // No CDATA section parsed and no comment starting `[CDATA[`: no comment for reopenCdata (most
  // pages whose `<![CDATA[` sits in a script), unless another parse below adds some.
  let cdataFree = watched !== undefined && !watched.cdataComments;
  let document: Document;
  if (watched) document = watched.value;
  else {
    html = capNesting(html);
    document = parseDocument(html);
  }
  if (document.documentElement?.localName !== 'html') {
    const body = html.replace(/^\s*<!doctype[^>]*>/i, '');
    const wrapped = /<body[\s>]/i.test(body) ? `<html>${body}</html>` : `<html><head></head><body>${body}</body></html>`;
    document = parseDocument(wrapped);
    cdataFree = false;
  }
  ensureHeadAndBody(document);
  if (capped.deep !== undefined) {
    appendDeep(document, capNesting(capped.deep));
    cdataFree = false;
  }
  if (!cdataFree && (html.includes('<![CDATA[') || capped.deep?.includes('<![CDATA['))) reopenCdata(document);
  return document;
}

/**
 * The deeper stretch the element cap kept (element-cap.ts): parsed on its own, so it does not nest
 * inside whatever the head part left open, then appended to the body.
 */
function appendDeep(doc: Document, deep: string): void {
  const holder = doc.createElement('div');
  holder.innerHTML = deep.replace(/<\/?(?:html|head|body)\b[^<>]*>/gi, '');
  while (holder.firstChild) doc.body.appendChild(holder.firstChild);
}

// Elements whose `<![CDATA[` really is CDATA to a browser.
const FOREIGN = new Set(['svg', 'math']);

/**
 * In HTML content a browser reads `<![CDATA[` as a bogus comment ended by the first `>`, and
 * parses what follows; linkedom reads a CDATA section up to `]]>`, which hid whole page bodies
 * (a forum template wraps its body in one). Such sections are put back as the browser sees them.
 */
function reopenCdata(doc: Document): void {
  // Most pages that hold `<![CDATA[` hold it in a script, where it is text: the body's comments are
  // read off linkedom's node list in one pass (linkedom-reads.ts), else walked.
  const comments = commentsBelow(doc.body, (el) => FOREIGN.has(el.localName)) ?? walkComments(doc.body);
  for (const comment of comments) {
    if (!comment.data.startsWith('[CDATA[')) continue;
    const end = comment.data.indexOf('>');
    if (end < 0) continue;
    const holder = doc.createElement('div');
    holder.innerHTML = comment.data
      .slice(end + 1)
      .replace(/\]\]$/, '')
      .replace(/<\/?(?:html|head|body)\b[^>]*>/gi, '');
    while (holder.firstChild) comment.parentNode!.insertBefore(holder.firstChild, comment);
    comment.remove();
  }
}

/** The comments below `root`, none inside SVG or MathML. */
function walkComments(root: Node): Comment[] {
  const found: Comment[] = [];
  // Iterative: a recursive walk overflowed the stack under ~20,000 nested elements.
  const stack: Node[] = [root];
  while (stack.length > 0) {
    for (let c = stack.pop()!.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 8) found.push(c as Comment);
      else if (c.nodeType === 1 && !FOREIGN.has((c as Element).localName)) stack.push(c);
    }
  }
  return found;
}

/** Moves stray children of <html> into <head>/<body> so `document.body` holds all page content. */
function ensureHeadAndBody(doc: Document): void {
  const root = doc.documentElement;
  let head: Element | null = null;
  let body: Element | null = null;
  for (let c = root.firstElementChild; c; c = c.nextElementSibling) {
    if (c.localName === 'head' && !head) head = c;
    else if (c.localName === 'body' && !body) body = c;
  }
  if (!head) {
    head = doc.createElement('head');
    root.insertBefore(head, root.firstChild);
  }
  if (!body) {
    body = doc.createElement('body');
    root.appendChild(body);
  }
  const strays: Node[] = [];
  // A page with no <body> tag whose head is never closed (2008 news templates): linkedom nests the
  // whole page in <head>, where a browser closes the head at the first element or text that cannot
  // be in one and shows the rest as the body. What follows that point moves out, ahead of the rest.
  let open: Node | null = head.firstChild;
  while (
    open &&
    (open.nodeType === 8 ||
      (open.nodeType === 3 && (open.nodeValue ?? '').trim() === '') ||
      (open.nodeType === 1 && HEAD_ONLY.has((open as Element).localName)))
  )
    open = open.nextSibling;
  for (; open; open = open.nextSibling) strays.push(open);
  for (let c = root.firstChild; c; c = c.nextSibling) if (c !== head && c !== body) strays.push(c);
  // Content after </html> (a template printing past its end) is body content to a browser.
  for (let c = root.nextSibling; c; c = c.nextSibling) strays.push(c);
  const bodyStart = body.firstChild;
  for (const node of strays) {
    const isHeadOnly = node.nodeType === 1 && HEAD_ONLY.has((node as Element).localName);
    const fromHead = node.parentNode === head;
    if (isHeadOnly && !fromHead && !body.firstChild) head.appendChild(node);
    else if (node.nodeType === 1 || (node.nodeType === 3 && (node.nodeValue ?? '').trim() !== ''))
      body.insertBefore(node, fromHead ? bodyStart : null);
    else node.parentNode?.removeChild(node);
  }
}
