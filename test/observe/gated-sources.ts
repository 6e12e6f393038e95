// Two sources for concurrency tests of the observers: `slow` holds the query "held" until released, then
// fails (so `backup` answers it as a fallback), and answers any other query at once; `backup` answers all.

import type { SearchSource } from '../../src/types/index.js';

export interface GatedSources {
  sources: SearchSource[];
  /** Resolves once `slow` holds the query "held". */
  holding: Promise<void>;
  release(): void;
}

export function gatedSources(): GatedSources {
  let held!: () => void;
  const holding = new Promise<void>((resolve) => (held = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const results = (from: string) => ({ results: [{ title: `From ${from}`, url: `https://${from}.test/`, snippet: '' }] });
  const slow: SearchSource = {
    id: 'slow',
    async search(query) {
      if (query.q !== 'held') return results('slow');
      held();
      await released;
      throw new Error('slow gave up');
    },
  };
  const backup: SearchSource = { id: 'backup', search: async () => results('backup') };
  return { sources: [slow, backup], holding, release };
}
