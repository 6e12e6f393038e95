// The language of a code block, read from the class names highlighters and Markdown renderers
// write. Recorded as a data attribute, which the fenced-code rule of turndown reads back.
import { descendants, tagOf } from './dom-utils.js';


export const LANG_ATTR = 'data-ws-lang';

const CLASS_PATTERNS = [
  /(?:^|\s)(?:language|lang)-([\w+#.-]+)/i,
  /(?:^|\s)highlight-(?:source-)?([\w+#.-]+)/i,
  /(?:^|\s)brush:\s*([\w+#.-]+)/i,
  /(?:^|\s)sourceCode\s+([\w+#.-]+)/,
];

const NOT_LANGUAGES = new Set(['none', 'plaintext', 'text', 'txt', 'nohighlight', 'plain', 'default']);

export function languageFromClass(className: string): string | undefined {
  for (const re of CLASS_PATTERNS) {
    const m = re.exec(className);
    const lang = m?.[1]?.toLowerCase();
    if (lang && !NOT_LANGUAGES.has(lang)) return lang;
  }
  return undefined;
}

function languageOf(el: Element | null): string | undefined {
  if (!el) return undefined;
  const data = el.getAttribute('data-lang') ?? el.getAttribute('data-language');
  if (data && /^[\w+#.-]{1,30}$/.test(data) && !NOT_LANGUAGES.has(data.toLowerCase())) return data.toLowerCase();
  return languageFromClass(el.getAttribute('class') ?? '');
}

/** Marks every `<pre>` with the language found on it, its `<code>`, or up to two wrappers. */
export function markCodeLanguages(root: ParentNode): void {
  for (const pre of descendants(root)) {
    if (tagOf(pre) !== 'pre') continue;
    const lang =
      languageOf(pre.querySelector('code')) ??
      languageOf(pre) ??
      languageOf(pre.parentElement) ??
      languageOf(pre.parentElement?.parentElement ?? null);
    if (lang) pre.setAttribute(LANG_ATTR, lang);
  }
}
