// Page-type fixtures for the extraction strategies: each is built like the real pages of its
// kind (site chrome around repeated posts, cards or sections) and returns what must be kept and
// what must be dropped.

export interface Fixture {
  html: string;
  keep: string[];
  drop: string[];
}

const chrome = {
  header: `<header class="site-header"><a href="/" class="logo">ExampleSite</a>
    <nav class="main-menu"><ul><li><a href="/a">MenuAlpha</a></li><li><a href="/b">MenuBeta</a></li><li><a href="/c">MenuGamma</a></li></ul></nav></header>`,
  footer: `<footer class="site-footer"><p>FooterNotice all rights reserved</p><ul><li><a href="/privacy">PrivacyLink</a></li><li><a href="/terms">TermsLink</a></li></ul></footer>`,
  cookie: `<div class="cookie-banner"><p>CookieNotice we use cookies to improve your experience on this site.</p><a href="#">AcceptCookies</a></div>`,
};

const doc = (title: string, body: string, head = '') =>
  `<!DOCTYPE html><html><head><title>${title}</title>${head}</head><body>${chrome.header}${body}${chrome.footer}${chrome.cookie}</body></html>`;

const sentence = (tag: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${tag} remark ${i} explains one more detail of the matter at hand.`).join(' ');

export function forumThread(): Fixture {
  const posts = ['PostOne', 'PostTwo', 'PostThree', 'PostFour', 'PostFive'].map(
    (tag, i) => `<div class="message" id="post-${i}">
      <div class="message-user"><a href="/u/${i}">user${i}</a><span>Join Date: 2020</span></div>
      <div class="message-body"><p>${sentence(tag, i === 0 ? 6 : 3)}</p></div>
      <div class="message-actions"><a href="#">Reply</a> <a href="#">Quote</a></div></div>`,
  );
  return {
    html: doc(
      'Thread',
      `<main><h1>How do I start woodworking?</h1><div class="thread">${posts.join('')}</div>
      <ul class="pagination"><li><a href="?p=1">1</a></li><li><a href="?p=2">2</a></li><li><a href="?p=3">3</a></li><li><a href="?p=2">Next</a></li></ul></main>
      <aside class="sidebar"><h3>SimilarThreads</h3></aside>`,
    ),
    keep: ['PostOne remark 0', 'PostTwo remark 2', 'PostThree remark 1', 'PostFour remark 0', 'PostFive remark 2'],
    drop: ['MenuAlpha', 'FooterNotice', 'CookieNotice', 'SimilarThreads', '[Next]', 'Quote'],
  };
}

export function productPage(): Fixture {
  const jsonLd = JSON.stringify({
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: 'Oak Desk',
    description:
      'DescriptionOnlyInData: a solid oak desk with dovetailed drawers, hand-rubbed oil finish and a lifetime warranty on the frame.',
    offers: { '@type': 'Offer', price: '499.00' },
  });
  return {
    html: doc(
      'Oak Desk',
      `<main><div class="product"><h1>Oak Desk</h1><p class="price">$499.00</p>
      <button>Add to cart</button><a href="#" class="btn">Add to wishlist</a>
      <h2>Specifications</h2><table><tr><th>Width</th><td>140 cm</td></tr><tr><th>Depth</th><td>70 cm</td></tr><tr><th>Wood</th><td>White oak</td></tr></table>
      <div class="related-products"><h2>RelatedProducts</h2><a href="/p/1">Walnut Desk</a></div></div></main>`,
      `<script type="application/ld+json">${jsonLd}</script>`,
    ),
    keep: ['# Oak Desk', '| Width | 140 cm |', 'DescriptionOnlyInData'],
    drop: ['Add to cart', 'Add to wishlist', 'RelatedProducts', 'MenuBeta', 'CookieNotice'],
  };
}

export function listingPage(): Fixture {
  const cards = Array.from(
    { length: 12 },
    (_, i) => `<article class="card">
      <h3><a href="/item/${i}">Listing item ${i} title</a></h3><p>Card${i} summary says what item ${i} offers to its readers today.</p></article>`,
  );
  return {
    html: doc('Listing', `<main><h1>All items</h1><div class="grid">${cards.join('')}</div></main>`),
    keep: Array.from({ length: 12 }, (_, i) => `Card${i} summary`),
    drop: ['MenuGamma', 'FooterNotice', 'CookieNotice', 'TermsLink'],
  };
}

export function servicePage(): Fixture {
  const sections = ['Planning', 'Design', 'Building', 'Support'].map(
    (
      name,
    ) => `<section class="service-block"><h2>${name} service</h2><p>${name}Text we handle ${name.toLowerCase()} for small firms with care.</p>
      <ul><li>${name} step one</li><li>${name} step two</li></ul></section>`,
  );
  return {
    html: doc(
      'Services',
      `<div class="page">${sections.join('')}<div class="newsletter-signup"><h3>NewsletterBox</h3><p>Get our news.</p></div></div>`,
    ),
    keep: ['## Planning service', 'PlanningText', 'DesignText', 'BuildingText', 'SupportText', '- Support step two'],
    drop: ['MenuAlpha', 'FooterNotice', 'CookieNotice', 'NewsletterBox'],
  };
}

export function docsPage(): Fixture {
  const sidebar = `<nav class="docs-sidebar"><ul>${Array.from({ length: 15 }, (_, i) => `<li><a href="/docs/${i}">SidebarTopic${i}</a></li>`).join('')}</ul></nav>`;
  const toc = `<div class="table-of-contents"><a href="#install">TocInstall</a><a href="#usage">TocUsage</a></div>`;
  return {
    html: doc(
      'Docs',
      `<div class="layout">${sidebar}<main><article><h1>Getting started</h1>${toc}
      <h2 id="install">Install</h2><p>${sentence('Install', 4)}</p>
      <pre><code class="language-bash">npm install websift</code></pre>
      <h2 id="usage">Usage</h2><p>${sentence('Usage', 4)}</p>
      <div class="highlight highlight-source-ts"><pre>const md = htmlToMarkdown(html, { url });</pre></div></article></main></div>`,
    ),
    keep: ['## Install', '```bash\nnpm install websift\n```', '```ts\nconst md = htmlToMarkdown(html, { url });\n```', 'Usage remark 3'],
    drop: ['SidebarTopic3', 'TocInstall', 'MenuAlpha', 'CookieNotice'],
  };
}
