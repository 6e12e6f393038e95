// CSV (RFC 4180: quoted fields, doubled quotes, newlines inside quotes) → a GFM table whose first
// row is the header. The delimiter is sniffed from the first line (comma, semicolon or tab).

import { oneLine, padsShortRows } from '../markdown/index.js';

const MAX_ROWS = 50_000;

export function detectDelimiter(firstLine: string): string {
  const candidates = [',', ';', '\t', '|'];
  let best = ',';
  let bestCount = 0;
  for (const d of candidates) {
    const n = firstLine.split(d).length - 1;
    if (n > bestCount) {
      best = d;
      bestCount = n;
    }
  }
  return best;
}

export function parseCsv(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  // A field is `field` and then text[from, i): runs of plain characters are sliced, not appended one
  // by one (a 2 MB cell took 0.9 s char by char).
  let field = '';
  let from = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        field += text.slice(from, i);
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
        from = i + 1;
      }
    } else if (ch === '"' && field === '' && from === i) {
      quoted = true;
      from = i + 1;
    } else if (ch === delimiter) {
      row.push(field + text.slice(from, i));
      field = '';
      from = i + 1;
    } else if (ch === '\n' || ch === '\r') {
      row.push(field + text.slice(from, i));
      if (ch === '\r' && text[i + 1] === '\n') i++;
      rows.push(row);
      if (rows.length >= MAX_ROWS) return rows;
      row = [];
      field = '';
      from = i + 1;
    }
  }
  const last = field + text.slice(from);
  if (last !== '' || row.length > 0) {
    row.push(last);
    rows.push(row);
  }
  return rows.filter((r) => r.some((c) => c.trim() !== ''));
}

const cell = (s: string) =>
  oneLine(s, /[\r\n]/)
    .replace(/\|/g, '\\|')
    .trim();

export function csvToMarkdown(text: string): string {
  const source = text.replace(/^\uFEFF/, '');
  const firstLine = source.split(/\r?\n/, 1)[0] ?? '';
  const rows = parseCsv(source, detectDelimiter(firstLine));
  if (rows.length === 0) return '';
  const cols = rows.reduce((m, r) => Math.max(m, r.length), 0);
  const [head, ...body] = rows;
  let missing = 0;
  let chars = 0;
  for (const r of rows) for (const c of r) chars += c.length;
  for (const r of body) missing += cols - r.length;
  const pad = padsShortRows(missing, chars);
  const width = (r: string[]) => (r === head || pad ? cols : r.length);
  const line = (r: string[]) => '| ' + Array.from({ length: width(r) }, (_, i) => cell(r[i] ?? '')).join(' | ') + ' |';
  return [line(head!), '|' + ' --- |'.repeat(cols), ...body.map(line)].join('\n');
}
