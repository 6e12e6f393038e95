// The conversion pool's worker: one fetched document → Markdown, off the host's event loop.

import { documentToMarkdown, type ConvertibleDocument } from '../convert/document-to-markdown.js';
import { plainTextOfHtml } from './plain-text.js';

export default function convert(doc: ConvertibleDocument): string {
  try {
    return documentToMarkdown(doc);
  } catch {
    // A converter fault on a hostile page must not cost the page: its text is still content.
    return plainTextOfHtml(doc.text);
  }
}
