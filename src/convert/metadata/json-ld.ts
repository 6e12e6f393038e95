// JSON-LD as a metadata source: readJsonLd picks the page's own entities (not nested comments or list
// items) and reads their headline, description, dates and site name.

export interface LdFacts {
  headline?: string;
  description?: string;
  datePublished?: string;
  dateModified?: string;
  siteName?: string;
}

const MAX_LD_NODES = 5_000;
const ARTICLE_TYPES = new Set([
  'Article',
  'NewsArticle',
  'BlogPosting',
  'TechArticle',
  'ScholarlyArticle',
  'Report',
  'LiveBlogPosting',
  'AnalysisNewsArticle',
  'OpinionNewsArticle',
  'ReportageNewsArticle',
  'ReviewNewsArticle',
  'SocialMediaPosting',
  'DiscussionForumPosting',
  'Review',
  'Recipe',
  'VideoObject',
  'Product',
  'Question',
  'Event',
  'JobPosting',
]);
const PAGE_TYPES = new Set(['WebPage', 'ItemPage', 'AboutPage', 'ProfilePage', 'QAPage', 'FAQPage', 'CollectionPage', 'MedicalWebPage']);

const typesOf = (node: Record<string, unknown>): string[] =>
  ([] as unknown[])
    .concat(node['@type'] ?? [])
    .filter((t): t is string => typeof t === 'string')
    .map((t) => t.replace(/^.*[/:]/, ''));

/**
 * The page's own entities are the top-level ones (each block, array item, `@graph` item) and their
 * `mainEntity`: an article's nested comments or a list's items carry dates that are not the page's.
 * Among them an article-like entity speaks first, then a WebPage; the site's name comes from a
 * WebSite entity or the main entity's publisher (also by `@id` reference).
 */
export function readJsonLd(blocks: readonly unknown[]): LdFacts {
  const top: Record<string, unknown>[] = [];
  const byId = new Map<string, Record<string, unknown>>();
  let budget = MAX_LD_NODES;
  const addTop = (v: unknown, depth: number): void => {
    if (budget <= 0 || depth > 4) return;
    if (Array.isArray(v)) {
      for (const x of v) addTop(x, depth + 1);
      return;
    }
    if (v === null || typeof v !== 'object') return;
    budget--;
    const node = v as Record<string, unknown>;
    if (typeof node['@id'] === 'string' && !byId.has(node['@id'])) byId.set(node['@id'], node);
    if (node['@graph'] !== undefined) addTop(node['@graph'], depth + 1);
    if (node['@type'] !== undefined) top.push(node);
    for (const key of ['mainEntity', 'mainEntityOfPage']) {
      const main = node[key];
      if (main !== null && typeof main === 'object') addTop(main, depth + 1);
    }
  };
  for (const block of blocks) addTop(block, 0);

  const deref = (v: unknown): Record<string, unknown> | undefined => {
    const first = Array.isArray(v) ? v[0] : v;
    if (first === null || typeof first !== 'object') return undefined;
    const node = first as Record<string, unknown>;
    const id = node['@id'];
    return typeof id === 'string' && Object.keys(node).length === 1 ? (byId.get(id) ?? node) : node;
  };
  const ranked = [
    ...top.filter((n) => typesOf(n).some((t) => ARTICLE_TYPES.has(t))),
    ...top.filter((n) => typesOf(n).some((t) => PAGE_TYPES.has(t))),
  ];
  const str = (v: unknown): string | undefined => {
    const first = Array.isArray(v) ? v[0] : v;
    return typeof first === 'string' ? decodeEntities(first) : undefined;
  };
  const field = (key: string) => {
    for (const n of ranked) {
      const v = str(n[key]);
      if (v !== undefined && v.trim() !== '') return v;
    }
    return undefined;
  };
  const facts: LdFacts = {};
  const set = (key: keyof LdFacts, v: string | undefined) => {
    if (v !== undefined) facts[key] = v;
  };
  set('headline', field('headline') ?? field('name'));
  set('description', field('description'));
  set('datePublished', field('datePublished') ?? field('uploadDate'));
  set('dateModified', field('dateModified'));
  const website = top.find((n) => typesOf(n).includes('WebSite'));
  let siteName = website ? str(website['name']) : undefined;
  for (const n of ranked) {
    if (siteName !== undefined) break;
    const publisher = deref(n['publisher']);
    if (publisher) siteName = str(publisher['name']);
  }
  set('siteName', siteName);
  return facts;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** JSON-LD strings sometimes carry HTML entities and tags; keep their text. */
function decodeEntities(s: string): string {
  if (!s.includes('&') && !s.includes('<')) return s;
  return s.replace(/<[^>]{0,200}>/g, ' ').replace(/&(#?[a-z0-9]+);/gi, (whole, name: string) => ENTITIES[name.toLowerCase()] ?? whole);
}
