// Tag names as CSS type selectors match them in an HTML document: lower-cased. The parser already
// lower-cases every tag name, and `toLowerCase` makes a new string on every call (it was ~3 % of a
// conversion's CPU, ~9,000 calls a page): a name without a capital is returned as it is.

/** `name.toLowerCase()`, the same string when nothing changes (no ASCII capital, no non-ASCII code unit). */
export function lowerName(name: string): string {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if ((c >= 65 && c <= 90) || c > 127) return name.toLowerCase();
  }
  return name;
}
