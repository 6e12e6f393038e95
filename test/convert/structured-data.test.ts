import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../src/convert/html-to-markdown.js';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';
import { declaresArticle, readStructuredData } from '../../src/convert/structured-data.js';
import { supplementFromStructuredData } from '../../src/convert/structured-supplement.js';

const withLd = (...blocks: string[]) =>
  parseHtmlDocument(
    `<html><head>${blocks.map((b) => `<script type="application/ld+json">${b}</script>`).join('')}</head><body></body></html>`,
  );

describe('readStructuredData', () => {
  it('collects types from graphs and arrays, and skips malformed blocks', () => {
    const data = readStructuredData(
      withLd(
        '{ not json',
        JSON.stringify({ '@graph': [{ '@type': 'WebPage' }, { '@type': ['NewsArticle', 'Thing'] }] }),
        JSON.stringify([{ '@type': 'https://schema.org/Person' }]),
      ),
    );
    expect([...data.types].sort()).toEqual(['NewsArticle', 'Person', 'Thing', 'WebPage']);
  });

  it('reads product descriptions (tags stripped) and forum post texts in document order', () => {
    const data = readStructuredData(
      withLd(
        JSON.stringify({ '@type': 'Product', description: '<p>Solid &amp; sturdy</p>' }),
        JSON.stringify({
          '@type': 'QAPage',
          mainEntity: {
            '@type': 'Question',
            text: 'Q text',
            acceptedAnswer: { '@type': 'Answer', text: 'A1' },
            suggestedAnswer: [{ '@type': 'Answer', text: 'A2' }],
          },
        }),
      ),
    );
    expect(data.productDescriptions).toEqual(['Solid & sturdy']);
    expect(data.postTexts).toEqual(['Q text', 'A1', 'A2']);
  });

  it('reads article bodies, and recipes as Markdown: ingredients, then steps from strings, HowToSteps and HowToSections', () => {
    const data = readStructuredData(
      withLd(
        JSON.stringify({ '@type': 'NewsArticle', articleBody: '<p>Body of the story.</p>' }),
        JSON.stringify({
          '@graph': [
            {
              '@type': 'Recipe',
              name: 'Flatbread',
              recipeIngredient: ['2 cups flour', '1 tsp salt*'],
              recipeInstructions: [
                {
                  '@type': 'HowToSection',
                  name: 'Dough',
                  itemListElement: [{ '@type': 'HowToStep', text: 'Mix the flour and salt.' }, 'Knead for 5 minutes.'],
                },
                { '@type': 'HowToStep', text: 'Bake at 220 °C.' },
              ],
            },
          ],
        }),
      ),
    );
    expect(data.articleBodies).toEqual(['Body of the story.']);
    expect(data.recipes).toEqual([
      '## Ingredients\n\n- 2 cups flour\n- 1 tsp salt\\*\n\n## Instructions\n\n### Dough\n\n1. Mix the flour and salt.\n2. Knead for 5 minutes.\n3. Bake at 220 °C.',
    ]);
    expect(readStructuredData(withLd('{"@type":"Recipe","name":"Nothing else"}')).recipes).toEqual([]);
  });

  it('treats a page as a single article only without many-item types', () => {
    expect(declaresArticle(readStructuredData(withLd('{"@type":"BlogPosting"}')))).toBe(true);
    expect(declaresArticle(readStructuredData(withLd('{"@type":"BlogPosting"}', '{"@type":"Product"}')))).toBe(false);
    expect(declaresArticle(readStructuredData(withLd('{"@type":"WebPage"}')))).toBe(false);
  });
});

describe('supplementFromStructuredData', () => {
  const data = (postTexts: string[], productDescriptions: string[] = []) => ({
    types: new Set<string>(),
    postTexts,
    productDescriptions,
    articleBodies: [],
    recipes: [],
    openGraphType: '',
  });

  it('appends texts whose words are missing from the Markdown', () => {
    const md = supplementFromStructuredData(
      'The question was asked here.',
      data(['An answer that only the structured data carries, in full.']),
    );
    expect(md).toBe('The question was asked here.\n\nAn answer that only the structured data carries, in full.');
  });

  it('gives a script-rendered recipe or article its content from the data block, once', () => {
    const recipe = JSON.stringify({
      '@type': 'Recipe',
      recipeIngredient: ['2 cups flour', '1 tsp salt'],
      recipeInstructions: ['Mix the flour and salt in a bowl.', 'Bake the dough at 220 degrees.'],
    });
    const shell = (ld: string, body: string) =>
      `<html><head><script type="application/ld+json">${ld}</script></head><body><nav><a href="/">Home</a> <a href="/r">Recipes</a></nav><div id="app">${body}</div></body></html>`;
    expect(htmlToMarkdown(shell(recipe, ''))).toContain(
      '## Ingredients\n\n- 2 cups flour\n- 1 tsp salt\n\n## Instructions\n\n1. Mix the flour and salt in a bowl.\n2. Bake the dough at 220 degrees.',
    );
    const rendered =
      '<h2>Ingredients</h2><ul><li>2 cups flour</li><li>1 tsp salt</li></ul><h2>Method</h2><ol><li>Mix the flour and salt in a bowl.</li><li>Bake the dough at 220 degrees.</li></ol>';
    expect(htmlToMarkdown(shell(recipe, rendered)).match(/2 cups flour/g)).toHaveLength(1);
    const story = 'The council voted on Tuesday to rebuild the old harbour wall before the winter storms arrive in force.';
    expect(htmlToMarkdown(shell(JSON.stringify({ '@type': 'NewsArticle', articleBody: story }), ''))).toContain(story);
  });

  it('does not repeat what the page already shows, nor short labels', () => {
    const shown = 'An answer that the page shows in its own markup, word for word.';
    expect(supplementFromStructuredData(shown, data([shown, 'Too short']))).toBe(shown);
  });
});
