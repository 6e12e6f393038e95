// Its own file (no DOM types) so the package root's declarations compile without lib.dom.

export interface HtmlToMarkdownOptions {
  /** The page's URL: relative links and images are made absolute against it (or its <base href>). */
  url?: string;
}
