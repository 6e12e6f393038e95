// JSON (and every `+json` type) → pretty-printed in a fenced block. Text that does not parse is
// fenced as it came, so a slightly broken document still reads.

import { fence } from '../markdown/index.js';

/**
 * Levels of nesting that are indented; deeper values are written compactly on their parent's line.
 * `JSON.stringify(value, null, 2)` indents every level: 16 KB of nested JSON became 32 MB (each
 * line repeats its depth in spaces), so indentation stops here and a line never starts with more
 * than 2 × PRETTY_DEPTH spaces.
 */
export const PRETTY_DEPTH = 8;

export function jsonToMarkdown(text: string): string {
  const source = text.replace(/^\uFEFF/, '').trim();
  if (source === '') return '';
  let body = source;
  try {
    body = pretty(JSON.parse(source), '');
  } catch {
    // Not valid JSON (or too deep to write again): keep the text as served.
  }
  return fence(body, 'json');
}

/** `JSON.stringify(value, null, 2)` down to PRETTY_DEPTH levels, `JSON.stringify(value)` below. */
function pretty(value: unknown, indent: string): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (indent.length >= 2 * PRETTY_DEPTH) return JSON.stringify(value);
  const inner = indent + '  ';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => inner + pretty(v, inner)).join(',\n')}\n${indent}]`;
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return '{}';
  const entries = keys.map((k) => `${inner}${JSON.stringify(k)}: ${pretty((value as Record<string, unknown>)[k], inner)}`);
  return `{\n${entries.join(',\n')}\n${indent}}`;
}
