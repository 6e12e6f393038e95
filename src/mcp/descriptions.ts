// What a model reads about each tool (kept under 1,500 characters each: clients show them in every
// prompt). Prices are the spec's (docs/mcp.md, "Tools and their costs").

const thousands = (n: number) => n.toLocaleString('en-US');

export function webSearchDescription(maxChars: number): string {
  return `Search the web: results with title, URL and snippet. With include_content, also the main content of the first content_results pages (default 5) as Markdown.
Cost: 1 credit; with include_content 3 credits when 1-5 pages come back, 6 when 6-10 (1 when none). The same query with the same options within 5 minutes is free. A failed call costs nothing.
Empty answers: "confirmed empty" means the sources explicitly stated the query has no results; it costs 1 credit, so rephrase rather than retry. An empty answer that is not confirmed (a source failed) costs nothing; retrying later may find results.
Content is budgeted: at most max_chars characters over all pages (default ${thousands(maxChars)}), the passages most relevant to the query. To read a page in full or further, call web_extract with its URL.
Query syntax: "exact phrase", site:example.com, -site:example.com, filetype:pdf.`;
}

export function webExtractDescription(maxChars: number): string {
  return `Fetch 1-10 URLs and return each page's main content as Markdown (format "html" for its HTML).
Cost: 1 credit per page extracted. A page that fails costs nothing and is reported with its error type and HTTP status; the other pages are unaffected. The same URL and format again within 5 minutes is free.
Budget: at most max_chars characters of content per call (default ${thousands(maxChars)}), shared between the pages. A cut page ends with a marker line naming the start_char to read on from: call again with the same urls and format and that start_char (free within 5 minutes) until no marker remains, so a long page costs one extraction.
query: instead of the page from the top, return its passages most relevant to the query, each under its heading path (Markdown only; without max_chars up to 2,000 characters a page); use it to find something in a long page.`;
}

export const USAGE_DESCRIPTION =
  "Your organization's credit balance and request counts (total, search, extract, free). Free: costs no credits.";

export const INSTRUCTIONS =
  'websift: web search (web_search) and page reading (web_extract), paid in credits (usage shows the balance). Repeats within 5 minutes are free; read long pages in parts with start_char.';
