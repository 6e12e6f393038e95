// Ordinary article-like pages of a given size (issue 32): a head with metadata, a nav, an article of
// headings, paragraphs with links and non-ASCII prose (curly quotes, accents, dashes: the decoder's
// slow path, as on real pages), and a footer. Used by bench/host-thread.ts and the host tests.

const paragraph = (i: number) =>
  `<p>The committee met on Tuesday to review the proposal — “a plan for the café quarter” — and after a ` +
  `long discussion of costs, schedules and the needs of the neighbourhood, it agreed to publish a ` +
  `<a href="/plans/${i}">revised plan</a> next month. Résumés of the speakers are <em>online</em>.</p>`;

/** An ordinary article of about `bytes` bytes of UTF-8; `seed` varies the title and links. */
export function ordinaryPage(bytes: number, seed = 0): string {
  const head =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>City plans ${seed}</title>` +
    `<meta name="description" content="The committee’s plan, part ${seed}."></head><body>` +
    `<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About</a></nav><main><article>` +
    `<h1>City plans, part ${seed}</h1>`;
  const tail = '</article></main><footer><p>© The City Paper</p></footer></body></html>';
  const parts: string[] = [head];
  let size = Buffer.byteLength(head + tail);
  for (let i = 0; size < bytes; i++) {
    const piece = i % 20 === 0 ? `<h2>Section ${i / 20 + 1}</h2>${paragraph(i + seed)}` : paragraph(i + seed);
    const n = Buffer.byteLength(piece);
    if (size + n > bytes) break;
    parts.push(piece);
    size += n;
  }
  parts.push(tail);
  return parts.join('');
}
