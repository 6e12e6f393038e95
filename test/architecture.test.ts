// The map of docs/architecture.md, held by the code: which room of src/ may import which, and that a
// room with an index.ts is reached from outside only through it. A new import across rooms that the
// map does not allow fails here, naming the file and the import. No two files may import each other,
// directly or around a longer circle (type-only imports and re-exports included): a circle fails here,
// naming its files in order.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');

/** Each room and the rooms it may import (besides itself). Leaves first. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  types: [],
  project: [],
  signals: [],
  turns: [],
  channels: [],
  net: [],
  errors: ['types'],
  ports: ['types', 'errors'],
  // Pages in parts (budgeted pieces, query passages): pure text work.
  passages: ['types'],
  // The conversion library is the bottom: it knows only the public types.
  convert: ['convert/model', 'convert/markdown', 'convert/formats', 'convert/metadata', 'types'],
  'convert/model': ['convert', 'convert/markdown', 'types'],
  'convert/markdown': ['convert', 'types'],
  'convert/formats': ['convert', 'convert/markdown', 'types'],
  'convert/metadata': ['convert', 'convert/markdown', 'convert/formats', 'types'],
  // Workers decode fetched bytes with the fetcher's charset rules (fetch/charset.ts, pure), and cut
  // long pages' query passages (src/passages/) off the event loop.
  conversion: ['convert', 'convert/formats', 'convert/metadata', 'fetch', 'passages', 'ports', 'types', 'errors', 'signals'],
  fetch: ['ports', 'project', 'signals', 'turns', 'types', 'errors', 'net'],
  // The HTTP API's shapes; URLs are checked with the fetcher's own (pure) URL rules.
  schema: ['fetch', 'errors', 'types'],
  'core/router': ['channels', 'types', 'errors', 'signals'],
  // Reading in parts (core/read-parts.ts) asks src/passages/ for each page's part.
  core: ['channels', 'core/books', 'passages', 'ports', 'types', 'errors', 'signals'],
  'core/books': ['channels', 'core', 'ports', 'types', 'errors', 'signals'],
  'core/search': ['channels', 'core', 'core/books', 'core/router', 'schema', 'passages', 'ports', 'types', 'errors', 'signals'],
  'core/extract': [
    'channels',
    'core',
    'core/books',
    'core/router',
    'core/search',
    'schema',
    'passages',
    'fetch',
    'ports',
    'types',
    'errors',
    'signals',
    'turns',
  ],
  // Adapters implement the ports for the core's records (cached pages, repeat entries, GCRA).
  adapters: ['core', 'core/books', 'core/extract', 'ports', 'types', 'errors', 'signals'],
  render: ['fetch', 'net', 'adapters', 'ports', 'types', 'errors', 'signals'],
  sources: ['core/router', 'adapters', 'convert', 'fetch', 'project', 'types', 'errors', 'signals'],
  engine: [
    'channels',
    'core',
    'core/books',
    'core/router',
    'core/search',
    'core/extract',
    'adapters',
    'conversion',
    'fetch',
    'render',
    'ports',
    'types',
    'errors',
    'signals',
    'schema',
  ],
  http: ['channels', 'core/books', 'schema', 'project', 'types', 'errors', 'signals', 'turns'],
  testing: ['core/books', 'net', 'ports', 'types', 'errors', 'signals'],
  postgres: ['adapters'],
  redis: ['adapters'],
  // The MCP tools call the engine like the API does: same schemas, same Bearer keys.
  mcp: ['http', 'schema', 'project', 'types', 'errors'],
  metrics: ['channels', 'types'],
  otel: ['channels'],
  cli: [
    'channels',
    'metrics',
    'engine',
    'adapters',
    'convert',
    'http',
    'mcp',
    'sources',
    'project',
    'types',
    'errors',
    'signals',
    'schema',
  ],
  // The package's entry point re-exports the public faces.
  index: [
    'channels',
    'engine',
    'core',
    'core/books',
    'core/router',
    'core/search',
    'core/extract',
    'convert',
    'fetch',
    'render',
    'ports',
    'project',
    'types',
    'errors',
  ],
};

/** Rooms reached from outside only through their index.ts. */
const FACED = [
  'passages',
  'core/router',
  'core/books',
  'core/search',
  'engine',
  'convert/model',
  'convert/markdown',
  'convert/formats',
  'convert/metadata',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The room of a file: its top-level folder under src/ (a file at the top is its own room), or a core room. */
function roomOf(file: string): string {
  const parts = relative(SRC, file).split('/');
  if (parts.length === 1) return parts[0]!.replace(/\.ts$/, '');
  if ((parts[0] === 'core' || parts[0] === 'convert') && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts[0]!;
}

interface Edge {
  file: string;
  spec: string;
  target: string;
}

const edges: Edge[] = sourceFiles(SRC).flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\()\s*'(\.{1,2}\/[^']+)'/g)].map((m) => ({
    file,
    spec: m[1]!,
    target: normalize(join(dirname(file), m[1]!.replace(/\.js$/, '.ts'))),
  })),
);

/**
 * The import circles among src/'s files, each as the files in import order (first repeated at the end).
 * A depth-first walk: an import of a file still on the walk's path closes a circle.
 */
function importCircles(): string[][] {
  const imports = new Map<string, string[]>();
  for (const e of edges) imports.set(e.file, [...(imports.get(e.file) ?? []), e.target]);
  const done = new Set<string>();
  const path: string[] = [];
  const circles: string[][] = [];
  const walk = (file: string) => {
    const at = path.indexOf(file);
    if (at >= 0) return void circles.push([...path.slice(at), file].map((f) => relative(SRC, f)));
    if (done.has(file)) return;
    path.push(file);
    for (const target of imports.get(file) ?? []) walk(target);
    path.pop();
    done.add(file);
  };
  for (const file of imports.keys()) walk(file);
  return circles;
}

describe('architecture', () => {
  it('every room of src/ is on the map', () => {
    const rooms = new Set(sourceFiles(SRC).map(roomOf));
    expect([...rooms].filter((r) => !(r in MAY_IMPORT))).toEqual([]);
  });

  it('imports across rooms follow the map', () => {
    const wrong = edges
      .filter((e) => roomOf(e.file) !== roomOf(e.target) && !MAY_IMPORT[roomOf(e.file)]?.includes(roomOf(e.target)))
      .map((e) => `${relative(SRC, e.file)} imports ${e.spec} (${roomOf(e.file)} → ${roomOf(e.target)})`);
    expect(wrong).toEqual([]);
  });

  it('a room with an index.ts is imported from outside only through it', () => {
    const wrong = edges
      .filter((e) => FACED.includes(roomOf(e.target)) && roomOf(e.file) !== roomOf(e.target) && !e.target.endsWith('/index.ts'))
      .map((e) => `${relative(SRC, e.file)} imports ${e.spec}`);
    expect(wrong).toEqual([]);
  });

  it('no file imports itself around a circle', () => {
    expect(importCircles().map((circle) => circle.join(' → '))).toEqual([]);
  });
});
