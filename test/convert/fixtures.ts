// Small HTML builders for the conversion tests.

export const lorem = (n: number, word = 'content') =>
  Array.from({ length: n }, (_, i) => `${word}${i % 7} sentence number ${i} tells the reader something useful.`).join(' ');

export function page(body: string, head = '<title>Test page</title>'): string {
  return `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`;
}

/** A typical article page with site chrome around the article. */
export function articlePage(article: string): string {
  return page(`
    <header><div class="logo">SiteLogo</div><nav><a href="/">HomeNavLink</a> <a href="/about">AboutNavLink</a></nav></header>
    <main><article>${article}</article></main>
    <aside class="sidebar"><h3>SidebarHeading</h3><ul><li><a href="/x">SidebarLink</a></li></ul></aside>
    <footer><p>FooterCopyright 2026</p></footer>`);
}
