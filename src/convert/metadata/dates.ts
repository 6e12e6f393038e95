// Dates as pages state them: normalizeDate turns ISO 8601 and RFC 2822 into ISO (or nothing), and
// articleTime finds the one <time> that is clearly the article's.

import { descendants, tagOf } from '../dom-utils.js';

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
const RFC_2822 = /^(?:[a-z]{3},?\s+)?\d{1,2}\s+[a-z]{3}\s+\d{4}\s+\d{2}:\d{2}(?::\d{2})?\s*(?:gmt|ut|utc|z|[+-]\d{4})$/i;

/**
 * A stated date as ISO 8601, or undefined when it does not parse. A date alone stays a date
 * (`2024-03-05`); a time with an offset (or an RFC 2822 date) becomes UTC (`2024-03-05T08:20:30Z`);
 * a time without one stays the page's local time, without an invented zone (`2024-03-05T10:20:30`).
 */
export function normalizeDate(value: string): string | undefined {
  const v = value.trim();
  if (v.length > 64) return undefined;
  const m = ISO.exec(v);
  if (m) {
    const [, y, mo, d, h, mi, s, frac, zone] = m;
    if (!validDate(+y!, +mo!, +d!)) return undefined;
    const date = `${y}-${mo}-${d}`;
    if (h === undefined) return date;
    if (+h! > 23 || +mi! > 59 || +(s ?? 0) > 59) return undefined;
    const ms = frac ? `.${frac.padEnd(3, '0').slice(0, 3)}` : '';
    const local = `${date}T${h}:${mi}:${s ?? '00'}${ms}`;
    if (zone === undefined) return local;
    const offset =
      zone.toUpperCase() === 'Z'
        ? 'Z'
        : zone.length === 3
          ? `${zone}:00`
          : zone.includes(':')
            ? zone
            : `${zone.slice(0, 3)}:${zone.slice(3)}`;
    if (offset !== 'Z' && (+offset.slice(1, 3) > 23 || +offset.slice(4, 6) > 59)) return undefined;
    return utc(Date.parse(`${local}${offset}`));
  }
  if (RFC_2822.test(v)) return utc(Date.parse(v));
  return undefined;
}

function validDate(y: number, m: number, d: number): boolean {
  if (y < 1000 || m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

function utc(ms: number): string | undefined {
  if (!Number.isFinite(ms)) return undefined;
  const iso = new Date(ms).toISOString();
  return iso.startsWith('-') || iso.startsWith('+') ? undefined : iso.replace('.000Z', 'Z');
}

/**
 * A <time datetime> that is clearly the article's: the page has one <article>, and that article has
 * one dated <time> (or, among several, exactly one in its <header>). Anything else (comment dates,
 * related-post lists) is not the page's date.
 */
export function articleTime(articles: Element[]): string | undefined {
  if (articles.length !== 1) return undefined;
  const times = descendants(articles[0]!).filter((el) => tagOf(el) === 'time' && el.hasAttribute('datetime'));
  if (times.length === 1) return times[0]!.getAttribute('datetime') ?? undefined;
  const inHeader = times.filter((t) => {
    for (let p = t.parentElement; p && p !== articles[0]; p = p.parentElement) if (tagOf(p) === 'header') return true;
    return false;
  });
  return inHeader.length === 1 ? (inHeader[0]!.getAttribute('datetime') ?? undefined) : undefined;
}
