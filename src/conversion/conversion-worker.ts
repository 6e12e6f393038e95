// The conversion pool's worker: one fetched document → Markdown and its metadata, off the host's event loop.
// A document given as bytes is decoded here too (charset sniffing and TextDecoder on a 10 MiB page
// are ~50 ms the event loop does not spend).

import { decodeBody } from '../fetch/charset.js';
import { type PagePart, type PartOptions, pagePart } from '../passages/index.js';
import { type ConversionTask, type ConvertedPage, convertPage } from './convert-page.js';
import { plainTextOfHtml } from './plain-text.js';

/** A document as fetched: its bytes and the Content-Type header they were served with. */
export interface FetchedBytes {
  bytes: Uint8Array;
  contentType?: string;
}

/** What a worker is given: a ConversionTask whose document is text, or bytes to decode first. */
export type WorkerTask = Omit<ConversionTask, 'text'> & ({ text: string } | FetchedBytes);

/** With `text` (the decoded document) when the task was bytes and only the metadata was wanted (the `html` format). */
export type WorkerResult = ConvertedPage & { text?: string };

export default function convert(task: WorkerTask): WorkerResult {
  const { bytes, contentType, ...rest } = task as WorkerTask & Partial<FetchedBytes> & { text?: string };
  const doc: ConversionTask = { ...rest, text: bytes ? decodeBody(bytes, contentType).text : (rest.text ?? '') };
  const decoded = bytes && task.want === 'metadata' ? { text: doc.text } : {};
  try {
    return { ...convertPage(doc), ...decoded };
  } catch {
    // A converter fault on a hostile page must not cost the page: its text is still content.
    return {
      markdown: task.want === 'metadata' ? '' : plainTextOfHtml(doc.text),
      metadata: {},
      ...(task.links ? { links: [] } : {}),
      ...decoded,
    };
  }
}

/** A page's part to cut (reading in parts): query passages of a long page are too slow for the host thread. */
export interface PartTask {
  content: string;
  format: 'markdown' | 'html';
  options: PartOptions;
}

/** The `part` task (piscina's `name: 'part'`): src/passages/'s pagePart, off the event loop. */
export function part(task: PartTask): PagePart {
  return pagePart(task.content, task.format, task.options);
}
