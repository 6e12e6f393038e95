// Tables → GFM pipe tables. turndown-plugin-gfm keeps any table without a <th> header row as raw
// HTML, which leaves HTML in the Markdown; here every data table becomes a pipe table (its first row
// is the header) and layout tables (one column, nested tables, role=presentation) become plain blocks.

import type TurndownService from 'turndown';
import { descendants, tagOf } from '../dom-utils.js';
import { oneLine } from './syntax.js';

const COLS_ATTR = 'data-ws-cols';
const HEAD_ATTR = 'data-ws-head';
const PAD_ATTR = 'data-ws-pad';

/**
 * Whether a table's short rows are padded with empty cells to its width: only while the padding
 * (` |` per missing cell) is no longer than the table's text, plus a little. GFM reads a short row's
 * missing cells as empty anyway; padding without limit let 2,000 one-cell rows under a
 * 2,000-column header (8 KB of CSV) become 8 MB of Markdown. The header row is always padded (a
 * GFM table's header and rule must be as wide as each other).
 */
export const padsShortRows = (missingCells: number, textChars: number): boolean => 2 * missingCells <= textChars + 1_000;

function ownRows(table: Element): Element[] {
  const rows: Element[] = [];
  for (const tr of descendants(table)) if (tagOf(tr) === 'tr' && tr.closest('table') === table) rows.push(tr);
  return rows;
}

function cellsOf(row: Element): Element[] {
  const cells: Element[] = [];
  for (let c = row.firstElementChild; c; c = c.nextElementSibling) {
    if (c.localName === 'td' || c.localName === 'th') cells.push(c);
  }
  return cells;
}

const LAYOUT_PARTS = new Set(['thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'caption', 'colgroup']);

function renameTo(el: Element, tag: string): void {
  const doc = el.ownerDocument;
  const repl = doc.createElement(tag);
  while (el.firstChild) repl.appendChild(el.firstChild);
  el.replaceWith(repl);
}

/**
 * Classifies every table; call on the DOM handed to turndown. Inner tables first (deepest last in list).
 * `elements`: descendants(root).
 */
export function prepareTables(root: ParentNode, elements: readonly Element[] = descendants(root)): void {
  const tables = elements.filter((el) => tagOf(el) === 'table').reverse();
  for (const table of tables) {
    const rows = ownRows(table);
    const maxCols = rows.reduce((m, r) => Math.max(m, cellsOf(r).length), 0);
    const layout =
      maxCols < 2 ||
      descendants(table).some((el) => tagOf(el) === 'table') ||
      /^(presentation|none)$/i.test(table.getAttribute('role') ?? '');
    if (layout) {
      for (const el of descendants(table)) {
        if (!LAYOUT_PARTS.has(tagOf(el))) continue;
        if (el.closest('table') === table) renameTo(el, el.localName === 'colgroup' ? 'span' : 'div');
      }
      renameTo(table, 'div');
      continue;
    }
    table.setAttribute(COLS_ATTR, String(maxCols));
    rows[0]?.setAttribute(HEAD_ATTR, '1');
    const missing = rows.slice(1).reduce((n, r) => n + Math.max(0, maxCols - cellsOf(r).length), 0);
    if (padsShortRows(missing, (table.textContent ?? '').length)) table.setAttribute(PAD_ATTR, '');
  }
}

function cellText(content: string): string {
  return oneLine(content).replace(/\|/g, '\\|').trim();
}

export function addTableRules(service: TurndownService): void {
  // Cells and rows outside a classified table (an extractor may return a lone cell) are blocks.
  const inDataTable = (node: Node) => (node as Element).closest('table')?.hasAttribute(COLS_ATTR) === true;
  service.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content, node) => (inDataTable(node) ? ` ${cellText(content)} |` : `\n\n${content}\n\n`),
  });
  service.addRule('tableRow', {
    filter: 'tr',
    replacement: (content, node) => {
      const row = node as Element;
      if (!inDataTable(row)) return `\n\n${content}\n\n`;
      const table = row.closest('table');
      const cols = Number(table?.getAttribute(COLS_ATTR) ?? '0');
      const have = cellsOf(row).length;
      if (have === 0) return '';
      const head = row.getAttribute(HEAD_ATTR) === '1';
      const padded = '|' + content + ' |'.repeat(head || table?.hasAttribute(PAD_ATTR) ? Math.max(0, cols - have) : 0);
      if (!head) return '\n' + padded;
      return '\n' + padded + '\n|' + ' --- |'.repeat(Math.max(cols, have));
    },
  });
  service.addRule('tableSection', {
    filter: ['thead', 'tbody', 'tfoot'],
    replacement: (content) => content,
  });
  service.addRule('tableCaption', {
    filter: 'caption',
    replacement: (content) => `\n\n${content.trim()}\n\n`,
  });
  service.addRule('table', {
    filter: 'table',
    replacement: (content) => {
      // The caption sits before the rows; keep it as its own paragraph above the table.
      const lines = content.split('\n');
      const cap: string[] = [];
      const body: string[] = [];
      for (const line of lines) (line.startsWith('|') ? body : cap).push(line);
      const caption = cap.join('\n').trim();
      return `\n\n${caption ? caption + '\n\n' : ''}${body.join('\n')}\n\n`;
    },
  });
}
