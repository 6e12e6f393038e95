// Query passages (docs/passages.md): the Markdown split on its own structure, ranked by BM25F, the best
// kept in reading order within the budget, each under its heading path, skipped stretches marked.

import { describe, expect, it } from 'vitest';
import { pagePart } from '../../src/passages/index.js';
import { MAX_PASSAGE, splitMarkdown } from '../../src/passages/split.js';
import { queryTerms, tokens } from '../../src/passages/tokens.js';
import { sectionSpan, TOPICS, TOPICS_PAGE } from './topics.js';

const SKIP = '[…]';
/** The text's lines that are content (not the `[…]` lines), joined back. */
const contentOf = (text: string) =>
  text
    .split('\n\n')
    .filter((p) => p !== SKIP)
    .join('\n\n');
const markers = (text: string) => text.split('\n\n').filter((p) => p === SKIP).length;
/** The passages of a split as text. */
const shown = (md: string) => splitMarkdown(md).passages.map((p) => `${p.prefix ?? ''}${md.slice(p.start, p.end)}${p.suffix ?? ''}`);
const breadcrumbs = (md: string) => {
  const { passages, contexts } = splitMarkdown(md);
  return passages.map((p) => p.context.map((c) => md.slice(contexts[c]!.start, contexts[c]!.end)));
};

describe('the split', () => {
  const md = [
    '# Title',
    'Intro paragraph\nwith a second line.',
    '## Part one',
    '- item one\n  continued\n- item two',
    '1. first\n2. second',
    '### Deeper',
    '| h1 | h2 |\n| --- | --- |\n| a | b |\n| c | d |',
    '```js\nconst a = 1;\n\nconst b = 2;\n```',
    '---',
    '## Part two',
    'Last words.',
  ].join('\n\n');

  it('paragraphs, list items, table rows and fenced code are passages kept whole', () => {
    expect(shown(md)).toEqual([
      'Intro paragraph\nwith a second line.',
      '- item one\n  continued',
      '- item two',
      '1. first',
      '2. second',
      '| a | b |',
      '| c | d |',
      '```js\nconst a = 1;\n\nconst b = 2;\n```',
      'Last words.',
    ]);
  });

  it('each passage sits under its heading path; table rows under their header too', () => {
    expect(breadcrumbs(md)).toEqual([
      ['# Title'],
      ['# Title', '## Part one'],
      ['# Title', '## Part one'],
      ['# Title', '## Part one'],
      ['# Title', '## Part one'],
      ['# Title', '## Part one', '### Deeper', '| h1 | h2 |\n| --- | --- |'],
      ['# Title', '## Part one', '### Deeper', '| h1 | h2 |\n| --- | --- |'],
      ['# Title', '## Part one', '### Deeper'],
      ['# Title', '## Part two'],
    ]);
  });

  it('a long paragraph is split into runs of whole sentences, each under the limit', () => {
    const sentences = Array.from({ length: 30 }, (_, i) => `Sentence number ${i} says something about the subject at hand.`);
    const para = sentences.join(' ');
    const parts = shown(para);
    expect(parts.length).toBeGreaterThan(3);
    for (const p of parts) {
      expect(p.length).toBeLessThanOrEqual(MAX_PASSAGE);
      expect(p).toMatch(/^Sentence number \d+ .*at hand\.$/);
    }
    expect(parts.join(' ')).toBe(para);
  });

  it('a long block without sentence ends is split at words (the word cap)', () => {
    const words = Array.from({ length: 300 }, (_, i) => `w${i}`).join(' ');
    const parts = shown(words);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(MAX_PASSAGE);
    expect(parts.join(' ')).toBe(words);
  });

  it("a long code block is split into runs of whole lines, each inside the block's fences", () => {
    const lines = Array.from({ length: 100 }, (_, i) => `let v${i} = ${i};`);
    const parts = shown(`\`\`\`ts\n${lines.join('\n')}\n\`\`\``);
    expect(parts.length).toBeGreaterThan(3);
    for (const p of parts) {
      expect(p.length).toBeLessThanOrEqual(MAX_PASSAGE);
      expect(p).toMatch(/^```ts\n(let v\d+ = \d+;\n)+```$/);
    }
    expect(parts.map((p) => p.slice(6, -4)).join('\n')).toBe(lines.join('\n'));
  });

  it('from an offset: only the passages after it', () => {
    const start = md.indexOf('## Part two');
    expect(shown(md).length).toBeGreaterThan(1);
    const { passages } = splitMarkdown(md, start);
    expect(passages.map((p) => md.slice(p.start, p.end))).toEqual(['Last words.']);
  });
});

describe('the tokenizer', () => {
  it('lowercases, keeps letters and digits of any script, drops function words, folds plurals', () => {
    expect(tokens('The Cats of Moscow, 2024: кошки и собаки!')).toEqual(['cat', 'moscow', '2024', 'кошки', 'и', 'собаки']);
    expect(queryTerms('the of')).toEqual(['the', 'of']); // a query of nothing else keeps them
  });

  it('text without spaces becomes pairs of characters', () => {
    expect(tokens('東京都')).toEqual(['東京', '京都']);
    expect(tokens('iPhone手机')).toEqual(['iphone', '手机']);
  });
});

describe('query passages', () => {
  it('come from the right section of a long page with many topics, under its heading', () => {
    TOPICS.forEach((topic, i) => {
      const [, b, c, d] = topic.words;
      const query = `${d} ${b} ${c}`; // the section's words, reordered, none of its heading
      const part = pagePart(TOPICS_PAGE, 'markdown', { query, maxChars: 500 });
      expect(part.truncated).toBe(true);
      const [from, to] = sectionSpan(i);
      const units = part.text.split('\n\n').filter((u) => u !== SKIP);
      expect(units).toContain(`## ${topic.heading}`);
      for (const u of units) {
        if (u.startsWith('#')) continue;
        const at = TOPICS_PAGE.indexOf(u, from);
        expect(at >= from && at + u.length <= to, `${u} for ${query}`).toBe(true);
      }
    });
  });

  it('the words of a heading lead to its section (heading paths are ranked too)', () => {
    const part = pagePart(TOPICS_PAGE, 'markdown', { query: 'glaciers', maxChars: 400 });
    const [from, to] = sectionSpan(TOPICS.findIndex((t) => t.heading === 'Glaciers'));
    const units = contentOf(part.text)
      .split('\n\n')
      .filter((u) => !u.startsWith('#'));
    expect(units.length).toBeGreaterThan(0);
    for (const u of units) expect(TOPICS_PAGE.indexOf(u, from)).toBeLessThan(to);
  });

  it('in reading order, with a […] line wherever content was left out, and never over the budget', () => {
    for (const budget of [120, 500, 2000, 8000]) {
      const part = pagePart(TOPICS_PAGE, 'markdown', { query: 'lava eruption pawn whey', maxChars: budget });
      const body = contentOf(part.text);
      expect(body.length).toBeLessThanOrEqual(budget);
      expect(part.text.length).toBeLessThanOrEqual(budget + 5 * markers(part.text));
      // Reading order: each unit that is not a heading comes after the one before it.
      let at = 0;
      for (const u of part.text.split('\n\n')) {
        if (u === SKIP || u.startsWith('#')) continue;
        const i = TOPICS_PAGE.indexOf(u, at);
        expect(i).toBeGreaterThanOrEqual(at);
        at = i + u.length;
      }
      expect(part.truncated).toBe(true);
      expect(markers(part.text)).toBeGreaterThan(0);
      expect(part).not.toHaveProperty('nextStart');
    }
  });

  it('a heading is shown once above the passages under it, each new heading above its first passage', () => {
    const md = '# Top\n\n## A\n\napple one\n\nfiller text\n\napple two\n\n## B\n\nbanana\n\n## A again\n\napple three';
    const part = pagePart(md, 'markdown', { query: 'apple banana', maxChars: 72 });
    expect(part.text).toBe('# Top\n\n## A\n\napple one\n\n[…]\n\napple two\n\n## B\n\nbanana\n\n## A again\n\napple three');
    expect(part.truncated).toBe(true);
  });

  it('when the best passage and its whole heading path do not fit, its outer headings give way first', () => {
    const md = `# ${'A very long title of the whole page '.repeat(3)}\n\n## Zebras\n\nThe zebra passage, the one to find.\n\n## Other\n\nA zebra, once.${' Filler words.'.repeat(20)}`;
    const part = pagePart(md, 'markdown', { query: 'zebra passage find', maxChars: 60 });
    expect(part.text).toBe('[…]\n\n## Zebras\n\nThe zebra passage, the one to find.\n\n[…]');
  });

  it('passages come from the content after start_char', () => {
    const [from] = sectionSpan(10);
    const part = pagePart(TOPICS_PAGE, 'markdown', { query: 'lava eruption saxophone', startChar: from, maxChars: 400 });
    expect(part.text).toContain('saxophone');
    expect(part.text).not.toContain('lava');
  });

  it('a page that fits the budget is returned whole, not truncated', () => {
    const md = '# T\n\nOne paragraph about lava.\n\nAnother about snow.';
    expect(pagePart(md, 'markdown', { query: 'lava', maxChars: 1000 })).toEqual({ text: md, totalChars: md.length, truncated: false });
  });

  it('no word of the query on the page: the page from the top, marked as cut', () => {
    const part = pagePart(TOPICS_PAGE, 'markdown', { query: 'quantum chromodynamics', maxChars: 300 });
    const body = contentOf(part.text);
    expect(TOPICS_PAGE.startsWith(body)).toBe(true);
    expect(body.length).toBeGreaterThan(250);
    expect(part.text.endsWith(`\n\n${SKIP}`)).toBe(true);
  });

  it('a best passage longer than the budget is cut to it at a word boundary', () => {
    const long = `Intro.\n\n${Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ')} zebra ${Array.from({ length: 30 }, (_, i) => `more${i}`).join(' ')}`;
    const part = pagePart(long, 'markdown', { query: 'zebra', maxChars: 50 });
    const body = contentOf(part.text);
    expect(body.length).toBeLessThanOrEqual(50);
    expect(body).toMatch(/^word0 word1 .* word\d+$/);
  });

  it('Chinese and Japanese: a query without spaces finds its section', () => {
    const md = [
      '# 指南',
      '## 天气',
      '今天的天气很好，阳光明媚，适合出去散步。',
      '## 美食',
      '北京烤鸭是非常有名的中国菜，皮脆肉嫩。',
      '## 交通',
      '地铁是城市里最方便的交通工具。',
      '## 日本',
      '東京の電車はとても正確で、毎朝多くの人が通勤しています。',
    ].join('\n\n');
    const duck = pagePart(md, 'markdown', { query: '烤鸭', maxChars: 40 });
    expect(duck.text).toContain('北京烤鸭');
    expect(duck.text).not.toContain('地铁');
    expect(contentOf(duck.text).length).toBeLessThanOrEqual(40);
    const train = pagePart(md, 'markdown', { query: '電車 通勤', maxChars: 60 });
    expect(train.text).toContain('東京の電車');
    expect(train.text).toContain('## 日本');
  });

  it('every budget holds on the topics page for every query, markers aside', () => {
    for (const t of TOPICS) {
      for (const budget of [0, 1, 37, 300, 1500]) {
        const part = pagePart(TOPICS_PAGE, 'markdown', { query: t.words.join(' '), maxChars: budget });
        expect(contentOf(part.text).length).toBeLessThanOrEqual(budget);
      }
    }
  });
});
