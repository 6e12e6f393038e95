// Links between the docs resolve: every relative Markdown link of README.md and docs/*.md names a file
// of the repository, and its #anchor (if any) a heading of that file (GitHub's anchor rules).

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const docFiles = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

const withoutBlocks = (text: string) => text.replace(/^(```+|~~~+)[^\n]*\n[\s\S]*?^\1/gm, '');
/** The text without fenced code blocks and inline code spans (examples, not links). */
const withoutCode = (text: string) => withoutBlocks(text).replace(/(`+)[^`\n]*?\1/g, '');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces → '-', repeats numbered. */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of withoutBlocks(readFileSync(file, 'utf8')).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = m[1]!
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

describe('links between the docs', () => {
  it('every relative link names an existing file, and its anchor an existing heading', () => {
    const broken: string[] = [];
    for (const doc of docFiles) {
      const text = withoutCode(readFileSync(join(root, doc), 'utf8'));
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const file = path === '' ? join(root, doc) : resolve(dirname(join(root, doc)), path);
        if (!existsSync(file)) broken.push(`${doc}: ${target} (no file ${relative(root, file)})`);
        else if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(file).has(anchor))
          broken.push(`${doc}: ${target} (no heading #${anchor})`);
      }
    }
    expect(broken).toEqual([]);
  });
});
