// Metadata of a feed (RSS/RDF or Atom) rather than an HTML page: its title, description and language,
// read from the parsed XML root.

import type { PageMetadata } from '../../types/index.js';
import type { XmlKind } from '../formats/index.js';
import { MAX_DESCRIPTION_CHARS, MAX_TITLE_CHARS } from './limits.js';
import { cleanText, firstOf, languageTag } from './text.js';

/** What an RSS/RDF or Atom feed states: its title, and its language (RSS <language>, RDF dc:language, Atom xml:lang). */
export function feedMetadata(root: Element | null, kind: XmlKind, contentLanguage?: string): PageMetadata {
  const metadata: PageMetadata = {};
  if (root === null || (kind !== 'rss' && kind !== 'atom')) {
    const language = contentLanguage === undefined ? undefined : languageTag(contentLanguage);
    return language === undefined ? metadata : { language };
  }
  const local = (el: Element) => (el.localName ?? el.tagName).replace(/^.*:/, '').toLowerCase();
  const child = (el: Element, name: string) => {
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (local(c) === name) return c;
    return undefined;
  };
  const channel = kind === 'rss' ? (child(root, 'channel') ?? root) : root;
  const title = cleanText(child(channel, 'title')?.textContent ?? undefined, MAX_TITLE_CHARS);
  if (title !== undefined) metadata.title = title;
  const description = cleanText(
    child(channel, kind === 'rss' ? 'description' : 'subtitle')?.textContent ?? undefined,
    MAX_DESCRIPTION_CHARS,
  );
  if (description !== undefined) metadata.description = description;
  const language = firstOf(
    languageTag,
    child(channel, 'language')?.textContent ?? undefined,
    root.getAttribute('xml:lang') ?? undefined,
    contentLanguage,
  );
  if (language !== undefined) metadata.language = language;
  return metadata;
}
