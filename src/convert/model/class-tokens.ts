// The words of an element's class and id ("post-content__body" → post, content, body), which the
// block classifier scores through a lexicon learned on WCXB dev-train (tools/train/block-lexicon.ts):
// CMS and theme vocabularies are shared across sites, so a word seen on many pages generalizes.

const SPLIT = /[\s_\-:./]+|(?<=[a-z])(?=[A-Z])/;

export function classTokens(el: Element): string[] {
  const raw = `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`;
  if (raw.length === 1) return [];
  const out: string[] = [];
  for (const part of raw.split(SPLIT)) {
    if (part.length < 3 || part.length > 20) continue;
    const t = part.toLowerCase();
    if (/^[a-z]+$/.test(t) && !out.includes(t)) out.push(t);
  }
  return out;
}
