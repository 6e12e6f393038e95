// core/read-parts.ts: the one place a call's max_chars is shared and each page's part asked for —
// long pages' query passages go to the offload (a conversion worker in the engine), short ones and
// plain cuts stay on the host, and a failed offload still delivers the page, cut from start_char.

import { describe, expect, it } from 'vitest';
import { HOST_PASSAGE_CHARS, type PartOffload, pageParts, partOptions } from '../../src/core/read-parts.js';
import { passageQuery } from '../../src/core/search/content-parts.js';
import { DEFAULT_PASSAGE_CHARS, pagePart } from '../../src/passages/index.js';

const words = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word}${i % 7}`).join(' ');
/** A Markdown page of sections; one of them about `topic`. */
const page = (chars: number, topic: string) => {
  const sections: string[] = [];
  for (let i = 0; sections.join('\n\n').length < chars; i++) {
    sections.push(i === 3 ? `## ${topic}\n\nAll about the ${topic} here, ${topic} again.` : `## Part ${i}\n\n${words(40, 'filler')}`);
  }
  return sections.join('\n\n');
};

function recording(result?: (task: Parameters<PartOffload>[0]) => ReturnType<PartOffload>) {
  const calls: { chars: number; org: string }[] = [];
  const run: PartOffload = (task, call) => {
    calls.push({ chars: task.content.length, org: call.org });
    return result ? result(task) : Promise.resolve(pagePart(task.content, task.format, task.options));
  };
  return { calls, run };
}

describe('partOptions', () => {
  it('shares max_chars over what each page has after start_char; query alone gets the default per page', () => {
    expect(partOptions([100, 5000, 5000], { maxChars: 3000 }).map((o) => o.maxChars)).toEqual([100, 1450, 1450]);
    expect(partOptions([600, 5000], { maxChars: 1000, startChar: 500 }).map((o) => o.maxChars)).toEqual([100, 900]);
    expect(partOptions([10, 10], { query: 'x' })).toEqual([
      { query: 'x', maxChars: DEFAULT_PASSAGE_CHARS },
      { query: 'x', maxChars: DEFAULT_PASSAGE_CHARS },
    ]);
    expect(partOptions([10], { startChar: 3 })).toEqual([{ startChar: 3 }]);
  });
});

describe('pageParts', () => {
  it('sends only long pages with a query to the offload, for the calling organization', async () => {
    const long = page(HOST_PASSAGE_CHARS * 2, 'lighthouse');
    const short = page(2000, 'lighthouse');
    const offload = recording();
    const parts = await pageParts(
      [
        { key: 'long', content: long },
        { key: 'short', content: short },
      ],
      'markdown',
      { query: 'lighthouse', maxChars: 1000 },
      { run: offload.run, org: 'acme' },
    );
    expect(offload.calls).toEqual([{ chars: long.length, org: 'acme' }]);
    expect(parts.get('long')!.text).toContain('All about the lighthouse');
    expect(parts.get('short')!.text).toContain('All about the lighthouse');

    const plain = recording();
    await pageParts([{ key: 'long', content: long }], 'markdown', { maxChars: 1000 }, { run: plain.run, org: 'acme' });
    // Past start_char the page is short: on the host.
    await pageParts(
      [{ key: 'long', content: long }],
      'markdown',
      { query: 'x', startChar: long.length - 100 },
      { run: plain.run, org: 'acme' },
    );
    expect(plain.calls).toEqual([]);
  });

  it('a failed offload delivers the page cut from start_char to its allowance', async () => {
    const long = page(HOST_PASSAGE_CHARS * 2, 'lighthouse');
    const failing = recording(() => Promise.reject(new Error('backlog full')));
    const parts = await pageParts(
      [{ key: 'p', content: long }],
      'markdown',
      { query: 'lighthouse', startChar: 10 },
      { run: failing.run, org: 'acme' },
    );
    expect(failing.calls).toHaveLength(1);
    expect(parts.get('p')).toEqual(pagePart(long, 'markdown', { startChar: 10, maxChars: DEFAULT_PASSAGE_CHARS }));
  });

  it('a key given twice gets one part, the smaller share', async () => {
    const a = page(5000, 'a');
    const parts = await pageParts(
      [
        { key: 'a', content: a },
        { key: 'b', content: page(5000, 'b') },
        { key: 'a', content: a },
      ],
      'markdown',
      { maxChars: 3001 },
    );
    expect(parts.size).toBe(2);
    const shares = partOptions([a.length, 5000, a.length], { maxChars: 3001 }).map((o) => o.maxChars!);
    expect(parts.get('a')).toEqual(pagePart(a, 'markdown', { maxChars: Math.min(shares[0]!, shares[2]!) }));
  });
});

describe("search's passage query", () => {
  it('is the phrases and plain words of q, without operators and excluded words; operators only: none', () => {
    expect(passageQuery('site:example.com "tide pools" -crabs anemones filetype:pdf -site:x.test')).toBe('tide pools anemones');
    expect(passageQuery('site:example.com filetype:pdf')).toBe('');
  });
});
