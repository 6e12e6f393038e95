// Declarative shadow DOM: a <template shadowrootmode> is not hidden markup but what a browser
// renders for its host element (server-rendered web components). The page is read as it shows:
// the host's children become its shadow tree, each <slot> replaced by the light-DOM nodes
// assigned to it (or its own fallback content); light nodes no slot takes are not rendered.

import { descendants, tagOf } from './dom-utils.js';

const isShadowRoot = (el: Element) => tagOf(el) === 'template' && (el.hasAttribute('shadowrootmode') || el.hasAttribute('shadowroot'));

/** `all`: the page's elements in document order (outer hosts first, so nested roots follow). Whether any root was flattened. */
export function flattenShadowRoots(all: readonly Element[]): boolean {
  let flattened = false;
  for (const template of all) {
    // The tag first: the parent is a getter, asked of every element of the page.
    if (!isShadowRoot(template)) continue;
    const host = template.parentElement;
    if (!host) continue;
    // Light nodes by the slot they ask for ('' = the default slot); each goes to the first such slot.
    const bySlot = new Map<string, Node[]>();
    for (const n of Array.from(host.childNodes)) {
      // Templates are never rendered light content (a second shadow root template stays inert).
      if (n.nodeType === 1 && tagOf(n as Element) === 'template') continue;
      const name = n.nodeType === 1 ? ((n as Element).getAttribute('slot') ?? '') : '';
      const list = bySlot.get(name);
      if (list) list.push(n);
      else bySlot.set(name, [n]);
    }
    // A nested shadow root's slots are its own host's, filled when its turn comes.
    const slots = descendants(template).filter((d) => tagOf(d) === 'slot' && d.closest('template') === template);
    for (const slot of slots) {
      const name = slot.getAttribute('name') ?? '';
      const assigned = bySlot.get(name);
      bySlot.delete(name);
      slot.replaceWith(...(assigned ?? Array.from(slot.childNodes)));
    }
    // The root's top-level slots were replaced above; read the template's children again.
    host.replaceChildren(...Array.from(template.childNodes));
    flattened = true;
  }
  return flattened;
}
