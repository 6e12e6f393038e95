// No super-linear step in pages in parts (a 10 MiB page must not be quadratic): the split, the ranking
// and the selection (pagePart with a query), and the cut (reading a page on in pieces), each fed
// growing inputs of each shape, their time at 4n compared with their time at n (test/support/growth.ts).

import { describe, it } from 'vitest';
import { pagePart } from '../../src/passages/index.js';
import { expectLinear, type Shape } from '../support/growth.js';

const rep = (s: string, n: number) => s.repeat(Math.max(1, Math.floor(n / s.length)));
const words = (n: number) => rep('alpha beta gamma delta ', n);

const SHAPES: Record<string, Shape> = {
  'many paragraphs': (n) => rep('Some words about lava and ice.\n\n', n),
  'one long paragraph of sentences': (n) => rep('A sentence about lava here. ', n),
  'one long paragraph without sentence ends': (n) => words(n),
  'one long word': (n) => 'x'.repeat(n),
  'Chinese without spaces or sentence ends': (n) => rep('自然语言处理是计算机科学领域', n),
  'Japanese sentences': (n) => rep('東京の電車はとても正確です。', n),
  'many headings': (n) => rep('# a\n\n## b\n\n### c lava\n\ntext\n\n', n),
  'deep heading paths': (n) => rep('# h\n## h\n### h\n#### h\n##### h\n###### lava\ntext\n', n),
  'long table': (n) => `| a | b |\n| --- | --- |\n${rep('| lava | x |\n', n)}`,
  'long list': (n) => rep('- lava item\n', n),
  'long code block': (n) => `\`\`\`\n${rep('let lava = 1;\n', n)}\`\`\``,
  'code line without breaks': (n) => `\`\`\`\n${words(n)}\n\`\`\``,
  'unclosed fences': (n) => rep('```\nlava\n', n),
  'spaces before a pipe': (n) => `| a |\n${' '.repeat(n)}| x`,
  'spaces in a line': (n) => `lava${' '.repeat(n)}x`,
  'blank lines': (n) => `lava${'\n'.repeat(n)}x`,
  'table rules': (n) => `| a |\n${rep('| --- ', n)}x`,
  rules: (n) => `lava\n\n${rep('- - -\n', n)}`,
};

describe('pages in parts take no super-linear step', () => {
  it.each(Object.entries(SHAPES))('query passages: %s', (_name, shape) =>
    expectLinear((s) => pagePart(s, 'markdown', { query: 'lava beta 電車 语言', maxChars: 2_000 }), shape, 4_000, 1_600_000),
  );

  it.each(Object.entries(SHAPES))('reading on in pieces: %s', (_name, shape) =>
    expectLinear(
      (s) => {
        // A whole page read in 2,000-character pieces: linear in the page, whatever its shape.
        for (let start: number | undefined = 0; start !== undefined; )
          start = pagePart(s, 'markdown', { startChar: start, maxChars: 2_000 }).nextStart;
      },
      shape,
      4_000,
      1_600_000,
    ),
  );

  it.each(
    Object.entries<Shape>({
      'many tags': (n) => rep('<p class="a b">text <b>bold</b></p>', n),
      'one long tag': (n) => `<p title="${words(n)}">x</p>`,
      'text without tags': (n) => words(n),
    }),
  )('html pieces: %s', (_name, shape) =>
    expectLinear(
      (s) => {
        for (let start: number | undefined = 0; start !== undefined; )
          start = pagePart(s, 'html', { startChar: start, maxChars: 2_000 }).nextStart;
      },
      shape,
      4_000,
      1_600_000,
    ),
  );
});
