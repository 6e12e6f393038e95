// What both evaluation corpora share: where they live (an environment variable, else
// ../shared/data/NAME beside the repository) and the seeded hash their splits are drawn with.

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** `$envVar`, else `../shared/data/name` beside the repository. */
export function corpusDir(envVar: string, name: string): string {
  return process.env[envVar] ?? resolve(REPO_ROOT, '..', 'shared', 'data', name);
}

/** The corpus's index and its pages are there. */
export function corpusAvailable(dir: string): boolean {
  return existsSync(join(dir, 'pages.json')) && existsSync(join(dir, 'html'));
}

/** FNV-1a over a seed and the id, mapped to [0, 1): a split never depends on file order. */
export function hash01(seed: string, id: string): number {
  let h = 0x811c9dc5;
  for (const ch of `${seed}:${id}`) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h / 2 ** 32;
}
