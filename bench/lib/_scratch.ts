import { performance } from 'node:perf_hooks';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';
import { Readability } from '@mozilla/readability';
import { loadIndex, loadPage } from './wcxb-data.js';
let clone = 0, read = 0, readClone = 0;
for (const e of loadIndex().slice(0, 60)) {
  const p = loadPage(e);
  const doc = parseHtmlDocument(p.html);
  let t = performance.now();
  const c = doc.cloneNode(true) as Document; clone += performance.now() - t;
  t = performance.now(); new Readability(c).parse(); readClone += performance.now() - t;
  t = performance.now(); new Readability(doc).parse(); read += performance.now() - t;
}
console.log({ clone: clone / 60, readOnClone: readClone / 60, readOnOriginal: read / 60 });
