// JSON (and every `+json` type) → pretty-printed in a fenced block. Text that does not parse is
// fenced as it came, so a slightly broken document still reads.

import { fence } from '../markdown/index.js';

export function jsonToMarkdown(text: string): string {
  const source = text.replace(/^\uFEFF/, '').trim();
  if (source === '') return '';
  let body = source;
  try {
    body = JSON.stringify(JSON.parse(source), null, 2);
  } catch {
    // Not valid JSON: keep the text as served.
  }
  return fence(body, 'json');
}
