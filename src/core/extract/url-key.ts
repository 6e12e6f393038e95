// URL sameness (contract §3): the WHATWG serialization without its fragment.

export function canonicalUrl(raw: string): string {
  const url = new URL(raw);
  url.hash = '';
  return url.href;
}
