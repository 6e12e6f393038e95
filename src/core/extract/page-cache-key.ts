// Keys of the extract page cache: one organization's pages are its own. A free repeat is answered
// from the page its own organization fetched, never from another's copy (which would reveal that
// someone else fetched the URL, and when), and the in-process store bounds each organization's share.

/** The cache key of a page (its URL key: URL, format, mode) fetched for `organization`. */
export function pageCacheKey(organization: string, urlKey: string): string {
  return `${organization}\u0000${urlKey}`;
}

/** The organization a page cache key belongs to ('' for a key without one). */
export function pageCacheOrganization(key: string): string {
  const end = key.indexOf('\u0000');
  return end < 0 ? '' : key.slice(0, end);
}
