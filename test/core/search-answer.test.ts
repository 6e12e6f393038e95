// isNoResults tells the empty answer from a success, on real answers of the engine.

import { describe, expect, it } from 'vitest';
import { createEngine, isNoResults } from '../../src/index.js';
import { scriptedSource } from '../../src/testing/scripted-source.js';

describe('isNoResults', () => {
  it('is true for an empty answer and false for a success', async () => {
    const engine = createEngine({
      database: ':memory:',
      sources: [
        scriptedSource('a', (q) =>
          q.q === 'nothing'
            ? { results: [], noResultsNotice: true }
            : { results: [{ title: 'T', url: 'https://example.com/', snippet: 's' }] },
        ),
        scriptedSource('b', () => ({ results: [], noResultsNotice: true })),
      ],
    });
    await engine.admin.createOrganization('acme', { credits: 10 });
    const found = await engine.search({ q: 'something' }, { organization: 'acme' });
    const empty = await engine.search({ q: 'nothing' }, { organization: 'acme' });
    expect(isNoResults(found)).toBe(false);
    expect(isNoResults(empty)).toBe(true);
    if (isNoResults(empty)) expect(empty.message).toMatch(/confirmed/);
    await engine.close();
  });
});
