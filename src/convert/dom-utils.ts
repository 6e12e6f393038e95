// Small DOM helpers. The project's `lib` has no DOM.Iterable, so NodeLists are turned into arrays
// here (which also makes removal while iterating safe).

export function qsa(root: ParentNode, selector: string): Element[] {
  return Array.from(root.querySelectorAll(selector));
}

export function childElements(el: Element): Element[] {
  const out: Element[] = [];
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) out.push(c);
  return out;
}
