// Plain text from the small HTML fragments providers put in titles and snippets (<b>, <strong>,
// Wikipedia's searchmatch spans, entities). linkedom parses them, so every named entity decodes.

import { parseHTML } from 'linkedom';

let scratch: { innerHTML: string; textContent: string | null; querySelectorAll(s: string): ArrayLike<{ remove(): void }> } | undefined;

function element() {
  if (!scratch) {
    const { document } = parseHTML('<!doctype html><html><body><div></div></body></html>');
    scratch = document.querySelector('div') as unknown as typeof scratch;
  }
  return scratch!;
}

/** Collapses runs of whitespace (including no-break spaces) and trims. */
export function cleanText(text: string): string {
  return text.replace(/[\s\u00a0]+/g, ' ').trim();
}

/** Text content of an HTML fragment, tags removed, entities decoded, whitespace collapsed. */
export function htmlToText(fragment: string): string {
  if (!/[<&]/.test(fragment)) return cleanText(fragment);
  const el = element();
  el.innerHTML = fragment;
  const dropped = el.querySelectorAll('script,style,template');
  for (let i = 0; i < dropped.length; i++) dropped[i]?.remove();
  const text = el.textContent ?? '';
  el.innerHTML = '';
  return cleanText(text);
}
