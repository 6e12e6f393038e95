// Text clean-up shared by the readers: cleanText (trim, collapse, cap), the first-that-parses helpers
// (firstText, firstOf), and languageTag, which normalizes a BCP 47 tag as pages write it.

const CONTROL = /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/g;

/** Trimmed, whitespace collapsed, control characters removed, at most `max` characters (never half a surrogate pair); undefined when empty. */
export function cleanText(value: string | undefined, max: number): string | undefined {
  if (value === undefined) return undefined;
  // Bounded before the regular expressions run: a hostile 10 MB attribute costs a slice, not a scan.
  let s = (value.length > max * 8 ? value.slice(0, max * 8) : value).replace(CONTROL, '').replace(/\s+/g, ' ').trim();
  if (s.length > max) {
    s = s.slice(0, max);
    if (/[\ud800-\udbff]$/.test(s)) s = s.slice(0, -1);
    s = s.trimEnd();
  }
  return s === '' ? undefined : s;
}

export function firstText(max: number, ...values: (string | undefined)[]): string | undefined {
  for (const v of values) {
    const t = cleanText(v, max);
    if (t !== undefined) return t;
  }
  return undefined;
}

export function firstOf(parse: (v: string) => string | undefined, ...values: (string | undefined)[]): string | undefined {
  for (const v of values) {
    if (v === undefined) continue;
    const parsed = parse(v);
    if (parsed !== undefined) return parsed;
  }
  return undefined;
}

/** A BCP 47 tag as pages write it: the first of a list, `en_US` read as `en-US`; undefined unless it looks like one. */
export function languageTag(value: string): string | undefined {
  const first = value.split(',', 1)[0]!.trim().replace(/_/g, '-');
  if (first.length > 35 || !/^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$/i.test(first)) return undefined;
  // Case as BCP 47 recommends: language lower, region upper, script title case.
  return first
    .split('-')
    .map((part, i) => {
      if (i === 0) return part.toLowerCase();
      if (part.length === 2) return part.toUpperCase();
      if (part.length === 4 && /^[a-z]+$/i.test(part)) return part[0]!.toUpperCase() + part.slice(1).toLowerCase();
      return part.toLowerCase();
    })
    .join('-');
}
