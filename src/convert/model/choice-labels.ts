// Labels of live checkboxes and radios are controls, not content: a shop's filters ("GeForce RTX
// 4090", "Size M"), a form's options. They are found while the inputs still exist (clean-up
// removes every <input>), and a kept block whose whole text is such a label is dropped.

import { descendants, tagOf } from '../dom-utils.js';
import { nodeListLinks } from '../linkedom-reads.js';
import type { Block } from './blocks.js';
import { wordsOf } from './text-stats.js';

const CHOICE = /^(?:checkbox|radio)$/i;

/** A disabled box is a task list's tick beside its text, not a control. */
const isLiveChoice = (el: Element | undefined | null): boolean =>
  !!el && tagOf(el) === 'input' && CHOICE.test(el.getAttribute('type') ?? '') && !el.hasAttribute('disabled');

/**
 * CSS-only accordions toggle each answer with a hidden checkbox whose label is the question
 * ("How long does shipping take?"): content. "Remember me?" is a control.
 */
const isQuestion = (text: string): boolean => /\?\s*$/.test(text) && wordsOf(text).length >= 4;

/** The <label>s below `root` that name a live checkbox or radio (by `for`, or by holding it). `elements`: descendants(root). */
export function findChoiceLabels(root: Element, elements?: readonly Element[]): Set<Element> {
  // One pass sorts out the page's <input>s and <label>s (in document order): over the caller's element
  // list, else on linkedom's node list when it can be read (no page-wide array). Only a five-letter
  // name lower-cases to either (a name that grows when lower-cased gains a non-ASCII unit).
  const inputs: Element[] = [];
  const candidates: Element[] = [];
  const sort = (el: Element) => {
    const name = el.localName;
    if (name.length !== 5) return;
    const tag = name.toLowerCase();
    if (tag === 'input') inputs.push(el);
    else if (tag === 'label') candidates.push(el);
  };
  const links = nodeListLinks();
  const stop = links ? (root as unknown as Linked)[links.end] : undefined;
  if (elements) for (const el of elements) sort(el);
  else if (links && stop) {
    for (let n = (root as unknown as Linked)[links.next]; n && n !== stop; n = n[links.next])
      if (n.nodeType === 1) sort(n as unknown as Element);
  } else for (const el of descendants(root)) sort(el);
  const labels = new Set<Element>();
  if (candidates.length === 0) return labels;
  const byId = new Map<string, Element>();
  for (const el of inputs) if (isLiveChoice(el) && el.id) byId.set(el.id, el);
  for (const el of candidates) {
    const target = el.getAttribute('for');
    const choice = target ? byId.has(target) : isLiveChoice(el.querySelector('input'));
    if (choice && !isQuestion(el.textContent ?? '')) labels.add(el);
  }
  return labels;
}

interface Linked {
  nodeType: number;
  [key: symbol]: Linked;
}

/** Removes from `kept` the blocks inside a choice label, or whose own words all belong to the ones they hold. */
export function dropChoiceLabels(blocks: readonly Block[], kept: Set<number>, labels: ReadonlySet<Element>): void {
  if (labels.size === 0) return;
  const byElement = new Map(blocks.map((b) => [b.el, b]));
  // Each label's words go to the block whose own text holds them: its nearest block ancestor.
  const labelWords = new Map<Block, Set<string>>();
  for (const label of labels) {
    let e: Element | null = label;
    while (e && !byElement.has(e)) e = e.parentElement;
    if (!e) continue;
    const block = byElement.get(e)!;
    const words = labelWords.get(block) ?? new Set<string>();
    for (const w of wordsOf(label.textContent ?? '')) words.add(w);
    labelWords.set(block, words);
  }
  for (const b of blocks) {
    if (!kept.has(b.id)) continue;
    const words = labelWords.get(b);
    // The block's own words only where a label's words went (few blocks): splitting every kept
    // block's text was most of this pass on a page with a live checkbox.
    if (insideLabel(b.el, labels) || (words && allIn(wordsOf(b.text), words))) kept.delete(b.id);
  }
}

function insideLabel(el: Element, labels: ReadonlySet<Element>): boolean {
  for (let e: Element | null = el.parentElement; e; e = e.parentElement) if (labels.has(e)) return true;
  return false;
}

/** Some words, every one of them in `words`. */
const allIn = (own: readonly string[], words: ReadonlySet<string>): boolean => own.length > 0 && own.every((w) => words.has(w));
