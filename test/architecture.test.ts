// The map of docs/architecture.md, held by the code: which room of src/ may import which, and that a
// room with an index.ts is reached from outside only through it. A new import across rooms that the
// map does not allow fails here, naming the file and the import.

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
  // The conversion library is the bottom: it knows only the public types.
  convert: ['convert/model', 'convert/markdown', 'convert/formats', 'convert/metadata', 'types'],
  'convert/model': ['convert', 'convert/markdown', 'types'],
  'convert/markdown': ['convert', 'types'],
  'convert/formats': ['convert', 'convert/markdown', 'types'],
  'convert/metadata': ['convert', 'convert/markdown', 'convert/formats', 'types'],
  // Workers decode fetched bytes with the fetcher's charset rules (fetch/charset.ts, pure).
  conversion: ['convert', 'convert/formats', 'convert/metadata', 'fetch', 'ports', 'types', 'errors', 'signals'],
  fetch: ['ports', 'project', 'signals', 'turns', 'types', 'errors', 'net'],
  // The HTTP API's shapes; URLs are checked with the fetcher's own (pure) URL rules.
  schema: ['fetch', 'errors', 'types'],
  'core/router': ['channels', 'types', 'errors', 'signals'],
  core: ['channels', 'core/books', 'ports', 'types', 'errors', 'signals'],
  'core/books': ['channels', 'core', 'ports', 'types', 'errors', 'signals'],
  'core/search': ['channels', 'core', 'core/books', 'core/router', 'schema', 'ports', 'types', 'errors', 'signals'],
  'core/extract': ['channels', 'core', 'core/books', 'core/router', 'core/search', 'schema', 'fetch', 'ports', 'types', 'errors', 'signals', 'turns'],
  // Adapters implement the ports for the core's records (cached pages, repeat entries, GCRA).
  adapters: ['core', 'core/books', 'core/extract', 'ports', 'types', 'errors', 'signals'],
  render: ['fetch', 'net', 'adapters', 'ports', 'types', 'errors', 'signals'],
  sources: ['core/router', 'adapters', 'convert', 'fetch', 'project', 'types', 'errors', 'signals'],
  engine: ['channels', 'core', 'core/books', 'core/router', 'core/search', 'core/extract', 'adapters', 'conversion', 'fetch', 'render', 'ports', 'types', 'errors', 'signals', 'schema'],
  http: ['channels', 'core/books', 'schema', 'project', 'types', 'errors', 'signals', 'turns'],
  testing: ['core/books', 'net', 'ports', 'types', 'errors', 'signals'],
  postgres: ['adapters'],
  redis: ['adapters'],
  metrics: ['channels', 'types'],
  otel: ['channels'],
  cli: ['channels', 'metrics', 'engine', 'adapters', 'convert', 'http', 'sources', 'project', 'types', 'errors', 'signals', 'schema'],
  // The package's entry point re-exports the public faces.
  index: ['channels', 'engine', 'core', 'core/books', 'core/router', 'core/search', 'core/extract', 'convert', 'fetch', 'render', 'ports', 'project', 'types', 'errors'],
};

/** Rooms reached from outside only through their index.ts. */
const FACED = ['core/router', 'core/books', 'core/search', 'engine', 'convert/model', 'convert/markdown', 'convert/formats', 'convert/metadata'];

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

interface Edge { file: string; spec: string; target: string }

const edges: Edge[] = sourceFiles(SRC).flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\()\s*'(\.{1,2}\/[^']+)'/g)].map((m) => ({
    file,
    spec: m[1]!,
    target: normalize(join(dirname(file), m[1]!.replace(/\.js$/, '.ts'))),
  })),
);

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
});
