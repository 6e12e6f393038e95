// Search operators shared by every source: how a parsed query is written back for a provider, and how
// returned results are checked against `site:` / `-site:` / `filetype:` where a provider can't be trusted to.
// One place for host and extension matching, so every adapter and the local index agree.

import type { SearchQuery, SourceResult } from '../types/index.js';

/** A `site:` value, normalised: lower-case host (no scheme, no `*.`) plus an optional path prefix. */
export interface SiteSpec {
  host: string;
  path: string;
}

export function parseSite(site: string): SiteSpec {
  let s = site
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/^\*\./, '')
    .replace(/^\.+/, '');
  const slash = s.indexOf('/');
  const path = slash < 0 ? '' : s.slice(slash).replace(/\/+$/, '');
  s = slash < 0 ? s : s.slice(0, slash);
  return { host: s.replace(/:\d+$/, '').replace(/\.+$/, ''), path };
}

/** Host equal to the site's host or one of its subdomains (`site:example.com` matches `docs.example.com`). */
export function hostMatches(host: string, siteHost: string): boolean {
  if (siteHost === '') return false;
  const h = host.toLowerCase().replace(/\.+$/, '');
  return h === siteHost || h.endsWith(`.${siteHost}`);
}

function parseUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** True when `url` lies under `site` (host or subdomain, and the path prefix when one was given). */
export function urlMatchesSite(url: string, site: string): boolean {
  const u = parseUrl(url);
  return u !== null && siteHolds(u, parseSite(site));
}

function siteHolds(u: URL, spec: SiteSpec): boolean {
  if (!hostMatches(u.hostname, spec.host)) return false;
  if (spec.path === '') return true;
  const path = u.pathname.toLowerCase();
  return path === spec.path || path.startsWith(`${spec.path}/`);
}

/** Lower-case extension of the URL path's last segment, without the dot; '' when it has none. */
export function urlExtension(url: string | URL): string {
  const u = typeof url === 'string' ? parseUrl(url) : url;
  if (!u) return '';
  const last = u.pathname.split('/').pop() ?? '';
  const dot = last.lastIndexOf('.');
  if (dot <= 0 || dot === last.length - 1) return '';
  try {
    return decodeURIComponent(last.slice(dot + 1)).toLowerCase();
  } catch {
    return last.slice(dot + 1).toLowerCase();
  }
}

export interface FilterChecks {
  /** Keep only results under one of the positive `site:` hosts (default true). */
  sites?: boolean;
  /** Keep only results whose URL path ends in one of the `filetype:` extensions (default false:
   *  providers that take `filetype:` also find files served from extension-less URLs). */
  filetypes?: boolean;
}

/** Whether one URL passes the query's operators. `-site:` is always applied. */
export function urlPasses(url: string, query: SearchQuery, checks: FilterChecks = {}): boolean {
  return urlFilter(query, checks)(url);
}

/** The query's operators as a reusable URL test (site values parsed once, for per-row use). */
export function urlFilter(
  query: Pick<SearchQuery, 'sites' | 'excludedSites' | 'filetypes'>,
  checks: FilterChecks = {},
): (url: string) => boolean {
  const excluded = query.excludedSites.map(parseSite);
  const sites = (checks.sites ?? true) ? query.sites.map(parseSite) : [];
  const types = checks.filetypes ? query.filetypes.map((f) => f.toLowerCase().replace(/^\./, '')) : [];
  return (url) => {
    const u = parseUrl(url);
    if (!u) return false;
    if (excluded.some((s) => siteHolds(u, s))) return false;
    if (sites.length > 0 && !sites.some((s) => siteHolds(u, s))) return false;
    return types.length === 0 || types.includes(urlExtension(u));
  };
}

export function filterResults(results: SourceResult[], query: SearchQuery, checks: FilterChecks = {}): SourceResult[] {
  const passes = urlFilter(query, checks);
  return results.filter((r) => passes(r.url));
}

export interface RenderOptions {
  /** Write `site:` / `-site:` operators (default true). */
  sites?: boolean;
  /** Write `filetype:` operators (default true). */
  filetypes?: boolean;
}

/**
 * Writes the parsed query back in the common web-search syntax: terms as written, quoted phrases, then
 * operators. Several positive sites are OR-ed (`site:a OR site:b`), as a web user means "any of these".
 */
export function renderQuery(query: SearchQuery, options: RenderOptions = {}): string {
  const parts: string[] = [...query.terms];
  for (const phrase of query.phrases) {
    const clean = phrase.replace(/"/g, ' ').replace(/\s+/g, ' ').trim();
    if (clean) parts.push(`"${clean}"`);
  }
  if (options.filetypes ?? true) for (const f of query.filetypes) parts.push(`filetype:${f}`);
  if (options.sites ?? true) {
    if (query.sites.length > 0) parts.push(query.sites.map((s) => `site:${s}`).join(' OR '));
    for (const s of query.excludedSites) parts.push(`-site:${s}`);
  }
  return parts.join(' ').trim();
}
