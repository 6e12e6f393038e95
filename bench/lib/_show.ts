import { htmlToMarkdown } from '../../src/convert/html-to-markdown.js';
import { loadIndex, loadPage } from './wcxb-data.js';
const e = loadIndex().find((x) => x.id === process.argv[2])!;
const p = loadPage(e);
const md = htmlToMarkdown(p.html, { url: p.url });
console.log(md.slice(0, Number(process.argv[3] ?? 3000)));
console.log('=====GT', p.mainContent.length, md.length);
console.log(p.mainContent.slice(0, 800));
