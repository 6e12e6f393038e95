// Hostile page shapes (issue 19), generated at a given element count: the pages that made conversion
// super-linear or blocked the host. Used by bench/hostile.ts and by the tests that pin the bounds.

export type HostileShape = 'unclosed-b' | 'table' | 'flat' | 'nested-div' | 'cdata-nested' | 'unclosed-td' | 'article';

const open = '<!doctype html><html><head><title>Hostile</title></head><body><p>Start of the page.</p>';
const close = '</body></html>';

/** A page of `shape` with about `elements` elements. */
export function hostilePage(shape: HostileShape, elements: number): string {
  switch (shape) {
    case 'unclosed-b':
      // `<b>` × N, never closed: every later element nests one deeper.
      return open + '<b>'.repeat(elements) + 'end' + close;
    case 'table': {
      // N cells in rows of 100.
      const cols = 100;
      const rows = Math.max(1, Math.round(elements / cols));
      const row = '<tr>' + '<td>cell</td>'.repeat(cols) + '</tr>';
      return open + '<table>' + row.repeat(rows) + '</table>' + close;
    }
    case 'flat':
      return open + '<div>' + '<span>a</span>'.repeat(elements) + '</div>' + close;
    case 'nested-div':
      return open + '<div>'.repeat(elements) + 'deep' + '</div>'.repeat(elements) + close;
    case 'cdata-nested':
      return open + '<![CDATA[ x ]]>' + '<div>'.repeat(elements) + 'deep' + '</div>'.repeat(elements) + close;
    case 'unclosed-td':
      return open + '<table><tr>' + '<td>a'.repeat(elements) + '</table>' + close;
    case 'article': {
      // A plain article: paragraphs of prose, `elements` paragraphs.
      const p =
        '<p>The committee met on Tuesday to review the proposal, and after a long discussion of costs, ' +
        'schedules and the needs of the neighbourhood, it agreed to publish a revised plan next month.</p>';
      return open + '<article><h1>A long article</h1>' + p.repeat(elements) + '</article>' + close;
    }
  }
}

/** A plain article of about `bytes` bytes. */
export function articleOfSize(bytes: number): string {
  const paragraph = hostilePage('article', 2).length - hostilePage('article', 1).length;
  return hostilePage('article', Math.max(1, Math.floor(bytes / paragraph)));
}

export const HOSTILE_SHAPES: HostileShape[] = ['unclosed-b', 'table', 'flat', 'nested-div', 'cdata-nested', 'unclosed-td', 'article'];
