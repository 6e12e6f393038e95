// A page's real-time work (fetch, render, conversion on a worker) told to the clock when it listens
// (Clock.track), so a test's ManualClock holds still while it runs instead of jumping to the deadline.

import type { PageSourceDeps } from '../core/extract/page-source.js';
import type { Clock } from '../types/index.js';

/** `pages` with its loader, renderer and converter reporting their work to `clock.track`; as is without it. */
export function trackedPages(pages: PageSourceDeps, clock: Clock): PageSourceDeps {
  if (!clock.track) return pages;
  const track = <T>(work: Promise<T>): Promise<T> => {
    clock.track!(work);
    return work;
  };
  const { loader, renderer, convert } = pages;
  return {
    ...pages,
    loader: { load: (url, options) => track(loader.load(url, options)) },
    renderer: renderer && { render: (url, options) => track(renderer.render(url, options)), close: () => renderer.close() },
    convert: (doc, run) => track(convert(doc, run)),
  };
}
