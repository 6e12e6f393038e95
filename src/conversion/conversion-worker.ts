// The conversion pool's worker: one fetched document → Markdown and its metadata, off the host's event loop.

import { convertPage, type ConversionTask, type ConvertedPage } from './convert-page.js';
import { plainTextOfHtml } from './plain-text.js';

export default function convert(task: ConversionTask): ConvertedPage {
  try {
    return convertPage(task);
  } catch {
    // A converter fault on a hostile page must not cost the page: its text is still content.
    return { markdown: task.want === 'metadata' ? '' : plainTextOfHtml(task.text), metadata: {}, ...(task.links ? { links: [] } : {}) };
  }
}
