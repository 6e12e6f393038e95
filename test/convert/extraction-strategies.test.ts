// Issue 7 strategies, one page type each: what is kept and what is dropped.

import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../src/convert/html-to-markdown.js';
import { docsPage, type Fixture, forumThread, listingPage, productPage, servicePage } from './strategy-fixtures.js';

function check(name: string, make: () => Fixture) {
  it(name, () => {
    const f = make();
    const md = htmlToMarkdown(f.html, { url: 'https://site.test/page' });
    for (const k of f.keep) expect(md, `kept: ${k}`).toContain(k);
    for (const d of f.drop) expect(md, `dropped: ${d}`).not.toContain(d);
  });
}

describe('extraction strategies by page type', () => {
  check('forum thread: every post is kept, user info, actions and pagination dropped', forumThread);
  check('product page: specs table kept, JSON-LD description added, controls and related dropped', productPage);
  check('listing: the whole list of cards is kept', listingPage);
  check('service page: all sections are kept, newsletter box dropped', servicePage);
  check('docs page: code with language kept, sidebar and TOC dropped', docsPage);
});
