// Images the content repeats are its decoration: rating stars, check marks, badges, a lazy-loader's
// spinner, an avatar placeholder. A picture worth keeping is shown once or twice; one whose source
// comes back three times or more is ornament, and every copy of it is dropped.

import { descendants, tagOf } from '../dom-utils.js';
import { SRC_ATTR } from './links.js';

const MAX_COPIES = 2;

/** `elements`: descendants(root). */
export function dropRepeatedImages(root: Element, elements: readonly Element[] = descendants(root)): void {
  const images = elements.filter((el) => tagOf(el) === 'img' && el.hasAttribute(SRC_ATTR));
  const copies = new Map<string, number>();
  for (const img of images) {
    const src = img.getAttribute(SRC_ATTR)!;
    copies.set(src, (copies.get(src) ?? 0) + 1);
  }
  for (const img of images) if (copies.get(img.getAttribute(SRC_ATTR)!)! > MAX_COPIES) img.remove();
}
