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

/** A script-rendered shop as served: header, menus and footer; the product is never rendered. */
const links = (labels: string[]) => labels.map((l) => `<a href="/${l.replace(/\W+/g, '-')}">${l}</a>`).join(' ');
export const SHOP_SHELL = page(`
  <header><a href="/" class="logo">ShopLogo</a><form role="search"><label>I'm shopping for</label></form></header>
  <div id="root"></div>
  <footer>
    <div class="footer-col"><h4>Help</h4><p>${links(['Help Center', 'Disputes & Reports', 'Return & refund policy', 'Report IPR infringement', 'Regulated information', 'Integrity compliance', 'Transparency center'])}</p></div>
    <div class="footer-col"><h4>Multi-language sites</h4><p>${links(['Russian', 'Portuguese', 'Spanish', 'French', 'German', 'Italian', 'Dutch', 'Turkish', 'Japanese', 'Korean', 'Thai', 'Arabic', 'Hebrew', 'Polish'])}</p></div>
    <div class="footer-col"><h4>Browse by category</h4><p>${links(['All popular', 'Product', 'Promotion', 'Low price', 'Great value', 'Reviews', 'Wiki', 'Blog', 'Video'])}</p></div>
    <div class="footer-col"><h4>Shop Group</h4><p>${links(['Shop Group website', 'Shop Cloud', 'Shop Pay', 'Shop Travel', 'Shop International', 'Shop Telecom', 'Shop Logistics', 'Shop Maps'])}</p></div>
    <div class="footer-col"><h4>Customer service</h4><p>${links(['Contact us', 'Track your order', 'Shipping rates & policies', 'Payment methods', 'Gift cards', 'Student discount', 'Accessibility statement'])}</p></div>
    <p class="legal">${links(['Intellectual Property Protection', 'Privacy Policy', 'Sitemap', 'Terms of Use', 'Information for EU consumers', 'Legal Information'])} © 2010-2026 Shop.com. All rights reserved.</p>
  </footer>`);
