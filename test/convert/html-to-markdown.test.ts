import { describe, expect, it } from 'vitest';
import { removeInvisible } from '../../src/convert/clean-dom.js';
import { convertHtml, htmlToMarkdown } from '../../src/convert/html-to-markdown.js';
import { tidyMarkdown } from '../../src/convert/markdown/tidy.js';
import { blockClassifier } from '../../src/convert/model/block-model.js';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';
import { articlePage, lorem, page, SHOP_SHELL } from './fixtures.js';

const URL_ = 'https://site.test/blog/post.html';
/** No model: rule-based clean-up keeps or drops each block. */
const RULES_ONLY = blockClassifier({ stageOne: null, stageTwo: null, calibration: { scale: 1, shift: 0 }, lexicon: {} });
const render = (html: string, options: { url?: string } = {}) => convertHtml(html, options, RULES_ONLY);

describe('htmlToMarkdown: main content', () => {
  it('keeps the article and drops navigation, header, sidebar and footer', () => {
    const md = htmlToMarkdown(articlePage(`<h2>Section one</h2><p>${lorem(12)}</p><p>${lorem(8, 'more')}</p>`), { url: URL_ });
    expect(md).toContain('## Section one');
    expect(md).toContain('content0 sentence number 0');
    for (const chrome of ['HomeNavLink', 'SiteLogo', 'SidebarLink', 'FooterCopyright']) expect(md).not.toContain(chrome);
  });

  it('drops scripts, styles, aria-hidden decoration, screen-reader-only text and form controls', () => {
    const md = htmlToMarkdown(
      articlePage(`<p>${lorem(12)}</p><script>var secretScript = 1;</script><style>.x{color:red}</style>
      <span aria-hidden="true">AriaHiddenIcon</span><span class="sr-only">ScreenReaderOnly</span><button>ClickMeButton</button>`),
    );
    for (const gone of ['secretScript', 'color:red', 'AriaHiddenIcon', 'ScreenReaderOnly', 'ClickMeButton']) expect(md).not.toContain(gone);
  });

  it('drops the words behind icon-font glyphs, keeps a check mark as ✓ and words merely inside an icon class', () => {
    const md = render(
      articlePage(`<p>${lorem(10)} <i class="material-icons">chevron_right</i> <span class="material-symbols-outlined">open_in_new</span>
      <span class="icon icon-arrow">arrow_forward</span> <span class="nav-icon">Home</span>
      <span class="icon">arrow_back</span> <span class="icon">Contact</span> <span class="icon">east</span></p>
      <table><tr><th>Feature</th><th>Pro</th></tr><tr><td>Backups</td><td><i class="material-icons">check</i></td></tr></table>`),
    );
    for (const gone of ['chevron_right', 'open_in_new', 'arrow_forward', 'arrow_back', 'east']) expect(md).not.toContain(gone);
    expect(md).toContain('Home');
    // One class value, judged per element by its text (the class's verdict is read once per value).
    expect(md).toContain('Contact');
    expect(md).toContain('| Backups | ✓ |');
  });

  it('keeps collapsed content (hidden attribute, display:none) of the cleaned page: tabs and accordions', () => {
    const doc = parseHtmlDocument(
      page(`<div class="faq"><h3>Question?</h3><div hidden>HiddenAnswer</div><div style="display:none">CollapsedTab</div>
      <i aria-hidden="true">Decoration</i></div>`),
    );
    removeInvisible(doc);
    expect(doc.body.textContent).toContain('HiddenAnswer');
    expect(doc.body.textContent).toContain('CollapsedTab');
    expect(doc.body.textContent).not.toContain('Decoration');
  });

  it('survives SVG inside the article (readability #742: className is not a string)', () => {
    const md = htmlToMarkdown(
      articlePage(`<p>${lorem(12)}</p><svg class="icon" viewBox="0 0 10 10"><path d="M0 0"/><text>SvgText</text></svg>`),
    );
    expect(md).toContain('content0 sentence number 0');
    expect(md).not.toContain('SvgText');
  });

  it('unwraps <noscript> when it holds the page (script-rendered forums), drops it when it is a notice', () => {
    const rendered = htmlToMarkdown(
      page(`<div id="app"></div><noscript><div id="main-outlet"><div class="post"><p>${lorem(8, 'crawler')}</p></div></div></noscript>`),
    );
    expect(rendered).toContain('crawler0 sentence number 0');
    const notice = htmlToMarkdown(articlePage(`<p>${lorem(10)}</p><noscript>Please enable JavaScript to continue.</noscript>`));
    expect(notice).not.toContain('enable JavaScript');
  });

  it('a one-line "enable JavaScript" <noscript> in an empty shell is a notice, not the page', () => {
    // It holds more words than the rest of the page (none), but a sentence is not a page.
    expect(htmlToMarkdown(page('<div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript>'))).toBe('');
  });

  it('returns the empty string for a page without text, and for a shell whose text is all chrome', () => {
    expect(htmlToMarkdown(page('<div><img src="a.png"></div>'))).toBe('');
    expect(htmlToMarkdown('')).toBe('');
    expect(htmlToMarkdown(SHOP_SHELL)).toBe('');
  });

  it('a short page is its content, never taken for an empty shell', () => {
    expect(htmlToMarkdown(page('<p>Opening hours: nine to five.</p>'))).toBe('Opening hours: nine to five.');
  });

  it('accepts fragments without <html> or <body>', () => {
    expect(htmlToMarkdown('<p>just a <b>fragment</b></p>')).toBe('just a **fragment**');
  });

  it('rejects non-string input with a clear error', () => {
    expect(() => htmlToMarkdown(42 as unknown as string)).toThrow(TypeError);
  });
});

describe('htmlToMarkdown: short pages and pages of chrome only', () => {
  it('keeps the text of a short page and drops its form and footer (rule-based clean-up)', () => {
    const md = render(
      page(`<nav><a href="/">NavOnly</a></nav><div><p>Opening hours: Monday to Friday.</p></div>
      <form><label>FormLabel</label><input></form><footer>FooterText</footer>`),
    );
    expect(md).toContain('Opening hours: Monday to Friday.');
    for (const gone of ['FormLabel', 'FooterText']) expect(md).not.toContain(gone);
  });

  it('never answers empty for a page whose only text sits in its chrome', () => {
    const md = htmlToMarkdown(page('<header><h1>Only a header</h1></header><footer>and a footer</footer>'));
    expect(md).toContain('Only a header');
  });
});

// Rendering is tested apart from the trained model's judgement (which a retrain may shift on tiny
// synthetic pages): rule-based clean-up decides here, deterministically.
describe('htmlToMarkdown: Markdown fidelity', () => {
  it('renders data tables as GFM tables, escaping pipes, with or without <th>', () => {
    const md = render(
      articlePage(`<p>${lorem(10)}</p>
      <table><tr><td>Name</td><td>Value</td></tr><tr><td>alpha</td><td>1|2</td></tr><tr><td>beta</td></tr></table>
      <table><thead><tr><th>H1</th><th>H2</th></tr></thead><tbody><tr><td>x</td><td>y</td></tr></tbody></table>`),
    );
    expect(md).toContain('| Name | Value |\n| --- | --- |\n| alpha | 1\\|2 |\n| beta | |');
    expect(md).toContain('| H1 | H2 |\n| --- | --- |\n| x | y |');
    expect(md).not.toMatch(/<\/?t[dhr]/);
  });

  it('drops the debris of removed chrome: empty table rows, empty tables, lone separators, zero-width lines', () => {
    const md = render(
      articlePage(`<p>${lorem(10)}</p>
      <table><tr><th>Plan</th><th>Price</th></tr><tr><td></td><td><button>Buy</button></td></tr><tr><td>Pro</td><td>9</td></tr></table>
      <p>|</p><p>×</p><p>&#8205;</p><p>-</p>
      <table><tr><td><input></td><td></td></tr><tr><td></td><td><button>Go</button></td></tr></table><p>${lorem(6)}</p>`),
    );
    expect(md).toContain('| Plan | Price |\n| --- | --- |\n| Pro | 9 |');
    expect(md).not.toMatch(/^\|(\s*\|)+$/m);
    expect(md).not.toMatch(/^(\||×|\u200d|\\-)$/m);
    const ruled = render(articlePage(`<hr><p>${lorem(10)}</p><hr><div><button>Share</button></div><hr><p>${lorem(6)}</p><hr><hr>`));
    expect(ruled.match(/^---$/gm)).toHaveLength(1);
    expect(ruled).toMatch(/^\w[\s\S]*\n\n---\n\n\w[\s\S]*\w\.?$/);
  });

  it('renders single-column layout tables as plain blocks', () => {
    const md = render(page(`<table><tr><td><p>${lorem(10)}</p></td></tr><tr><td><p>${lorem(10, 'second')}</p></td></tr></table>`));
    expect(md).not.toContain('|');
    expect(md).toContain('second0 sentence number 0');
  });

  it('fences code with the language from its class', () => {
    const md = render(
      articlePage(`<p>${lorem(10)}</p>
      <pre><code class="language-python">def f(x):\n    return x * 2</code></pre>
      <div class="highlight-source-rust"><pre>fn main() {}</pre></div>
      <pre>no language here</pre><pre class="rust rust-example-rendered">let x = 1;</pre>
      <pre class="gatsby-code-jsx"><code class="gatsby-code-jsx">&lt;App /&gt;</code></pre><pre class="example go-to">plain words</pre>`),
    );
    expect(md).toContain('```python\ndef f(x):\n    return x * 2\n```');
    expect(md).toContain('```rust\nfn main() {}\n```');
    expect(md).toContain('```\nno language here\n```');
    expect(md).toContain('```rust\nlet x = 1;\n```');
    expect(md).toContain('```jsx\n<App />\n```');
    expect(md).toContain('```\nplain words\n```');
  });

  it('uses a longer fence when the code contains backticks', () => {
    const md = render(page(`<p>${lorem(10)}</p><pre><code>\`\`\`md\ninner\n\`\`\`</code></pre>`));
    expect(md).toContain('````\n```md\ninner\n```\n````');
  });

  it('makes links and images absolute against the page URL and <base href>', () => {
    const body = `<p>${lorem(10)} <a href="../other">relative</a> <a href="/root">rooted</a> <a href="#frag">fragment</a>
      <img src="img/pic.png" alt="A picture"></p>`;
    const md = render(articlePage(body), { url: URL_ });
    expect(md).toContain('[relative](https://site.test/other)');
    expect(md).toContain('[rooted](https://site.test/root)');
    expect(md).toContain('[fragment](https://site.test/blog/post.html#frag)');
    expect(md).toContain('![A picture](https://site.test/blog/img/pic.png)');
    const based = render(page(`<p>${lorem(10)} <a href="x">based</a></p>`, '<base href="https://cdn.test/base/">'), { url: URL_ });
    expect(based).toContain('[based](https://cdn.test/base/x)');
  });

  it('percent-encodes parentheses in link targets and escapes brackets in alt text, so neither ends the link early', () => {
    const md = render(
      articlePage(`<p>${lorem(10)} <a href="https://w.test/wiki/Go_(game)">Go</a>
      <img src="https://cdn.test/thmb/filters:max_bytes(150000):format(webp)/p.jpg" alt="[X-Info] card"></p>`),
      { url: URL_ },
    );
    expect(md).toContain('[Go](https://w.test/wiki/Go_%28game%29)');
    expect(md).toContain('![\\[X-Info\\] card](https://cdn.test/thmb/filters:max_bytes%28150000%29:format%28webp%29/p.jpg)');
  });

  it('writes emphasis with * so emphasis inside a word stays emphasis (CommonMark reads _ there literally)', () => {
    const md = render(articlePage(`<p>${lorem(10)} un<em>believ</em>able</p>`));
    expect(md).toContain('un*believ*able');
  });

  it('keeps absolute links exactly as written (no trailing slash added, readability #980)', () => {
    const md = render(
      articlePage(`<p>${lorem(10)} <a href="https://example.com">bare origin</a> <a href="https://example.com/a?b=1">query</a></p>`),
      { url: URL_ },
    );
    expect(md).toContain('[bare origin](https://example.com)');
    expect(md).toContain('[query](https://example.com/a?b=1)');
  });

  it('drops empty links, javascript: links and links to a bare "#" but keeps their text', () => {
    const md = render(
      articlePage(`<p>${lorem(10)} <a href="/x"></a><a href="javascript:void(0)">jslink</a> <a href="#">Select all</a></p>`),
      { url: URL_ },
    );
    expect(md).not.toContain('[]');
    expect(md).not.toContain('javascript:');
    expect(md).toContain('jslink');
    expect(md).toContain(' Select all');
    expect(md).not.toContain('post.html#)');
  });

  it('drops permalink signs and footnote back-links to the page itself, keeps worded and numbered ones', () => {
    const md = render(
      articlePage(`<h2 id="setup">Setup <a class="headerlink" href="#setup">¶</a></h2>
      <p>${lorem(10)}<sup><a href="#fn1">1</a></sup> <a href="${URL_}#usage">§</a> <a href="#top">Back to top</a></p>
      <p id="fn1">The note. <a href="#fnref1">↩</a> <a href="https://other.test/#x">#</a></p>`),
      { url: URL_ },
    );
    expect(md).toContain('## Setup\n');
    expect(md).not.toMatch(/¶|§|↩/);
    expect(md).toContain('[1](https://site.test/blog/post.html#fn1)');
    expect(md).toContain('[Back to top](https://site.test/blog/post.html#top)');
    expect(md).toContain('[#](https://other.test/#x)');
    // Without the page's URL too.
    expect(render(articlePage(`<h2 id="s">Setup <a href="#s">¶</a></h2><p>${lorem(10)}</p>`))).not.toContain('¶');
  });

  it('puts a link around a heading (a card title) inside the heading, so it stays a heading', () => {
    const md = render(
      articlePage(`<p>${lorem(10)}</p><a href="/movers/1"><h2>Seka <em>Moving</em></h2></a><p>${lorem(8)}</p>
      <p><a href="/tags/x">#hashtag</a> and a literal # sign.</p>`),
      { url: URL_ },
    );
    expect(md).toContain('\n## [Seka *Moving*](https://site.test/movers/1)\n');
    expect(md).toContain('[#hashtag](https://site.test/tags/x)');
  });

  it('drops an image the content repeats three times or more (stars, check marks), keeps one shown twice', () => {
    const star = '<img src="/i/star.svg" alt="star">';
    const md = render(
      articlePage(`<p>${lorem(10)} ${star}${star}${star}</p><p><img src="/p/chair.jpg" alt="Chair"> ${lorem(8)}</p>
      <p><img src="/p/chair.jpg" alt="Chair"> ${lorem(6)}</p>`),
      { url: URL_ },
    );
    expect(md).not.toContain('star');
    expect(md.match(/!\[Chair\]\(https:\/\/site\.test\/p\/chair\.jpg\)/g)).toHaveLength(2);
  });

  it('prints a heading the page repeats right after itself once (desktop and mobile copies), whatever its case', () => {
    const md = render(
      articlePage(`<h2>Sustainable concepts</h2><h2 style="text-transform:uppercase">SUSTAINABLE CONCEPTS</h2>
      <p>${lorem(10)}</p><h3><a href="/c/1">Dark roast</a></h3><h3><a href="/c/1?m=1">Dark roast</a></h3><p>${lorem(8)}</p>
      <h3>Dark roast</h3>`),
      { url: URL_ },
    );
    expect(md.match(/^#+ .*/gim)).toEqual(['## Sustainable concepts', '### [Dark roast](https://site.test/c/1)', '### Dark roast']);
  });

  it('leaves an underscore inside a word alone (CommonMark reads it literally), escapes one that could be emphasis', () => {
    const md = render(
      articlePage(`<p>${lorem(10)} Call user_function with utm_source set; _private and __init__ stay literal, and *stars* too.</p>`),
    );
    expect(md).toContain('Call user_function with utm_source set; \\_private and \\_\\_init\\_\\_ stay literal, and \\*stars\\* too.');
  });

  it('escapes list, heading and quote signs only where they start a line, never inside inline code', () => {
    const md = render(
      articlePage(`<p>${lorem(10)}</p><p>Steps: <span>1. Plan</span> <span>2. Build</span> <span>- then</span> <span># ship</span> <code>grep \\-v</code></p>
      <p>1. Not a list item.</p><p>- Not a bullet.</p>`),
    );
    expect(md).toContain('Steps: 1. Plan 2. Build - then # ship `grep \\-v`');
    expect(md).toContain('\n1\\. Not a list item.');
    expect(md).toContain('\n\\- Not a bullet.');
  });

  it("prints the title once: a later heading or line of the <h1>'s words goes, a list item of them stays", () => {
    const md = render(`<html><body><h1>Ridge Wallet</h1><p>${lorem(10)}</p><h2>Ridge <em>wallet</em></h2><p>RIDGE WALLET</p>
      <p>${lorem(6)}</p><ul><li>Ridge Wallet</li><li>Ridge Wallet pro case</li></ul></body></html>`);
    expect(md.match(/ridge wallet/gi)).toEqual(['Ridge Wallet', 'Ridge Wallet', 'Ridge Wallet']);
    expect(md).toContain('# Ridge Wallet\n');
    expect(md).toContain('- Ridge Wallet\n- Ridge Wallet pro case');
  });

  it('keeps emphasis delimiters against their text, so a trailing <br> or space cannot strand them', () => {
    const md = render(
      articlePage(`<p>${lorem(10)}</p><p><strong>Room with savings <br></strong></p>
      <p>word<em> emphasised </em>word and <b> </b>nothing, <del>gone</del>.</p><ul><li>one item</li><li><hr></li><li>two item</li></ul>`),
    );
    expect(md).toMatch(/^\*\*Room with savings\*\* *$/m);
    expect(md).toContain('word *emphasised* word and nothing, ~~gone~~.');
    expect(md).toContain('- one item\n- two item');
  });

  it("indents an ordered item's nested content to its text, also past item 9", () => {
    const md = render(
      articlePage(`<p>${lorem(10)}</p><ol start="9"><li>Nine<ul><li>nested a</li></ul></li><li>Ten<ul><li>nested b</li></ul></li></ol>`),
    );
    expect(md).toContain('9. Nine\n   - nested a\n10. Ten\n    - nested b');
  });

  it("prints a link or image line repeated right after itself once (a logo's desktop and mobile copies)", () => {
    const md = tidyMarkdown(
      '[![Shop](https://s.test/logo.png)](https://s.test/)\n\n[![Shop](https://s.test/logo.png)](https://s.test/)\n\n[Shop](https://s.test/)\n\n[Shop](https://s.test/)\n\nText.\n\nRefrain.\n\nRefrain.',
    );
    expect(md).toBe('[![Shop](https://s.test/logo.png)](https://s.test/)\n\n[Shop](https://s.test/)\n\nText.\n\nRefrain.\n\nRefrain.');
  });

  it("drops a later heading or plain line with the title's words, and only those", () => {
    const md = tidyMarkdown(
      '# The Big Title\n\nThe big title\n\n**The BIG [Title](https://x.test/t)**\n\n## the big — title!\n\nThe big title, again\n\nThe big\n\nThe bigtitle\n\nThe big titl\n\nThe b g title\n\n- The big title',
    );
    expect(md).toBe(
      '# The Big Title\n\nThe big title, again\n\nThe big\n\nThe bigtitle\n\nThe big titl\n\nThe b g title\n\n- The big title',
    );
  });

  it('renders headings, lists, blockquotes and emphasis without leftover HTML', () => {
    const md = render(
      articlePage(`<h2>Heading <span>two</span></h2><p>${lorem(10)}</p>
      <ul><li>first item</li><li>second <em>item</em></li></ul><ol start="3"><li>three</li><li>four</li></ol>
      <blockquote><p>Quoted words.</p></blockquote><p><strong>Bold</strong> and <del>gone</del>.</p>`),
    );
    expect(md).toContain('## Heading two');
    expect(md).toContain('- first item\n- second *item*');
    expect(md).toContain('3. three\n4. four');
    expect(md).toContain('> Quoted words.');
    expect(md).toContain('**Bold** and ~~gone~~.');
    expect(md).not.toMatch(/<[a-z][^>]*>/i);
  });
});

describe('parse repairs', () => {
  it('reads content printed after </html> as body content, as browsers do', () => {
    const doc = parseHtmlDocument(
      '<html><head></head><body><nav>Menu</nav></body></html>\n<div class="post"><p>Late article words</p></div>',
    );
    expect(doc.body.textContent).toContain('Late article words');
  });

  it('closes a head left open on a page with no <body> tag where a browser does: at the first element that cannot be in a head', () => {
    const html =
      '<html><head><title>T</title><meta charset="utf-8"><script>var a = 1;</script>\n<table><tr><td><h1>Headline</h1><p>The story a browser shows.</p></td></tr></table><script>var b = 2;</script><p>More words.</p></html>';
    const doc = parseHtmlDocument(html);
    expect(doc.head.querySelector('title')?.textContent).toBe('T');
    expect(doc.head.textContent).not.toContain('The story');
    expect(doc.body.textContent).toContain('The story a browser shows.');
    expect(doc.body.lastElementChild?.textContent).toBe('More words.');
    expect(htmlToMarkdown(html)).toContain('The story a browser shows.');
    // A page with a body keeps its order: what the open head held comes first.
    const both = parseHtmlDocument(
      '<html><head><title>T</title><div id="early">Early</div></head><body><p id="late">Late</p></body></html>',
    );
    expect(Array.from(both.body.children, (e) => e.id)).toEqual(['early', 'late']);
  });

  it('returns the story of a page with no <body> tag in the shapes of 2008 news templates (head closed, never opened, or an XHTML prolog)', () => {
    const story =
      '<h1>Flood closes the river road</h1><p>The river rose two metres overnight and closed the road between the two towns, the county said.</p><p>Crews worked through the night to clear the debris, and the road should open again by Friday, officials said.</p>';
    const pages = [
      `<html><head><title>Flood closes road</title></head>\n<table><tr><td>${story}</td></tr></table></html>`,
      `<!-- generated -->\n<HEAD><TITLE>Flood</TITLE></HEAD>\n<TABLE><TR><TD>${story}</TD></TR></TABLE>`,
      `<?xml version="1.0"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Flood</title><script>/*<![CDATA[*/ var x = 1; /*]]>*/</script><div id="wrap">${story}</div></html>`,
      `<html><head><title>Flood</title><noscript><img src="x.gif"></noscript><link rel="stylesheet" href="a.css"><center><table>${story}</table></center></html>`,
    ];
    for (const html of pages) {
      const md = htmlToMarkdown(html);
      expect(md).toContain('Crews worked through the night');
      expect(md).toContain('The river rose two metres');
    }
  });

  it('reads <![CDATA[ in HTML content as a browser does (a bogus comment up to the first >), not as a section hiding the page', () => {
    const doc = parseHtmlDocument(
      '<html><body><![CDATA[\n<div id="top"></div><div class="post"><p>Thread words</p></div></body></html>\n]]>',
    );
    expect(doc.body.textContent).toContain('Thread words');
    expect(doc.body.querySelector('div.post p')?.textContent).toBe('Thread words');
    expect(doc.body.querySelector('#top')).toBeNull();
  });

  it('leaves CDATA inside <svg> and scripts alone', () => {
    const doc = parseHtmlDocument(
      '<html><body><svg><style><![CDATA[.a{}]]></style></svg><script>//<![CDATA[\nvar a = "<p>x</p>";\n//]]></script><p>Body</p></body></html>',
    );
    expect(doc.body.querySelectorAll('p')).toHaveLength(1);
    expect(doc.body.querySelector('script')?.textContent).toContain('var a');
  });

  it('reads a declarative shadow root as the browser renders its host: slots filled, fallbacks, unslotted light nodes gone', () => {
    const doc = parseHtmlDocument(`<html><body><my-card><template shadowrootmode="open"><style>h2{color:red}</style>
      <h2><slot name="title">Untitled</slot></h2><div class="body"><slot></slot></div><p>Shadow text.</p><small><slot name="note">Fallback words</slot></small>
      </template><span slot="title">Card title</span><p>Light body.</p><span slot="nowhere">Unslotted</span></my-card>
      <template><p>Inert template</p></template></body></html>`);
    removeInvisible(doc.documentElement);
    expect((doc.body.textContent ?? '').replace(/\s+/g, '')).toBe('CardtitleLightbody.Shadowtext.Fallbackwords');
    expect(doc.body.querySelector('h2')?.textContent).toBe('Card title');
    const nested = parseHtmlDocument(
      `<html><body><outer-el><template shadowrootmode="open"><inner-el><template shadowrootmode="open"><b><slot></slot></b></template><i>Inner light</i></inner-el><slot></slot></template><u>Outer light</u></outer-el></body></html>`,
    );
    removeInvisible(nested.documentElement);
    expect(nested.body.innerHTML).toBe('<outer-el><inner-el><b><i>Inner light</i></b></inner-el><u>Outer light</u></outer-el>');
    // Only a host's first shadow root renders; a second stays an inert template (not slotted light content).
    const twice = parseHtmlDocument(
      '<html><body><x-a><template shadowrootmode="open"><em><slot></slot></em></template><template shadowrootmode="open">Second root</template><p>Light</p></x-a></body></html>',
    );
    removeInvisible(twice.documentElement);
    expect(twice.body.innerHTML).toBe('<x-a><em><p>Light</p></em></x-a>');
  });

  it('cleans each element after a removed one, whatever lay inside the removed one', () => {
    // What lies inside a removed element is skipped; its siblings and their children are not.
    const doc = parseHtmlDocument(
      `<html><body><div aria-hidden="true"><span class="sr-only">inside</span></div><span class="sr-only">after</span>
      <template><i class="material-icons">check</i></template><p>Kept <i class="material-icons">check</i> mark</p>
      <svg><g class="icon">x</g></svg><div><span class="icon">close</span>Words</div></body></html>`,
    );
    removeInvisible(doc.documentElement);
    expect((doc.body.textContent ?? '').replace(/\s+/g, ' ').trim()).toBe('Kept ✓ mark Words');
  });

  it('reads aria-hidden and the class however they were set: parsed, set again, through classList, among other attributes', () => {
    // removeInvisible reads both from the element's attribute nodes in one walk (the first of a name).
    const doc = parseHtmlDocument(
      `<html><body><p id="a" data-x="1" class="  x  SR-ONLY x ">gone1</p><p aria-hidden="false" class="y">kept1</p>
      <p title="t" aria-hidden="true" class="y">gone2</p><p class="icon x" data-y="2">kept2 words here</p>
      <p id="b">gone3</p><p id="c" class="sr-only">kept3</p><p id="d">gone4</p><p id="e" aria-hidden="true">kept4</p></body></html>`,
    );
    doc.getElementById('b')!.setAttribute('class', 'z\tvisually-hidden  z');
    doc.getElementById('c')!.classList.remove('sr-only');
    doc.getElementById('d')!.classList.add('q', 'screen-reader-text');
    doc.getElementById('e')!.setAttribute('aria-hidden', 'false');
    removeInvisible(doc.documentElement);
    expect(Array.from(doc.body.querySelectorAll('p')).map((p) => p.textContent)).toEqual(['kept1', 'kept2 words here', 'kept3', 'kept4']);
  });

  it('moves page content unwrapped from a <noscript> in <head> into the body', () => {
    const doc = parseHtmlDocument(
      `<html><head><noscript><div><p>${lorem(30, 'headnoscript')}</p></div></noscript></head><body><div id="app"></div></body></html>`,
    );
    removeInvisible(doc.documentElement);
    expect(doc.body.textContent).toContain('headnoscript0');
    expect(doc.head.textContent).not.toContain('headnoscript0');
  });
});
