// The marker lines that say where output was cut or passages were left out. Markers are not content:
// they do not count against max_chars, and stripping them gives back the exact content slice.

export type MarkerFormat = 'markdown' | 'html';

const n = (x: number): string => x.toLocaleString('en-US');

/** Appended to a piece that was cut: where to read on and how long the whole is. */
export function cutMarker(format: MarkerFormat, next: number, total: number): string {
  const words = `websift: cut at ${n(next)} of ${n(total)} characters; read on with start_char=${next}`;
  return format === 'html' ? `\n<!-- ${words} -->` : `\n\n[${words}]`;
}

/** The line standing for a stretch of content left out between (or around) passages. */
export const SKIP_MARKER = '[…]';
