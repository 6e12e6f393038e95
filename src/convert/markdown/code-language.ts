// The language of a code block, read from the class names highlighters and Markdown renderers
// write. Recorded as a data attribute, which the fenced-code rule of turndown reads back.
import { descendants, tagOf } from '../dom-utils.js';

export const LANG_ATTR = 'data-ws-lang';

const CLASS_PATTERNS = [
  /(?:^|\s)(?:language|lang)-([\w+#.-]+)/i,
  /(?:^|\s)highlight-(?:source-)?([\w+#.-]+)/i,
  /(?:^|\s)brush:\s*([\w+#.-]+)/i,
  /(?:^|\s)sourceCode\s+([\w+#.-]+)/,
  /(?:^|\s)gatsby-code-([\w+#.-]+)/i, // gatsby-remark-prismjs
];

// A bare language name as a class of the <pre> or <code> itself (rustdoc's `<pre class="rust">`,
// GeSHi's `<pre class="php">`): only names that are nothing else.
const BARE_LANGUAGES = new Set([
  'bash',
  'c',
  'cpp',
  'csharp',
  'css',
  'dart',
  'diff',
  'dockerfile',
  'elixir',
  'erlang',
  'go',
  'golang',
  'graphql',
  'haskell',
  'html',
  'java',
  'javascript',
  'json',
  'jsx',
  'kotlin',
  'lua',
  'makefile',
  'objectivec',
  'perl',
  'php',
  'powershell',
  'python',
  'ruby',
  'rust',
  'scala',
  'scss',
  'shell',
  'sql',
  'swift',
  'toml',
  'tsx',
  'typescript',
  'xml',
  'yaml',
]);

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

function bareLanguage(el: Element | null): string | undefined {
  return (el?.getAttribute('class') ?? '').split(/\s+/).find((t) => BARE_LANGUAGES.has(t));
}

/** Marks every `<pre>` with the language found on it, its `<code>`, or up to two wrappers. `elements`: descendants(root). */
export function markCodeLanguages(root: ParentNode, elements: readonly Element[] = descendants(root)): void {
  for (const pre of elements) {
    if (tagOf(pre) !== 'pre') continue;
    const code = pre.querySelector('code');
    const lang =
      languageOf(code) ??
      languageOf(pre) ??
      languageOf(pre.parentElement) ??
      languageOf(pre.parentElement?.parentElement ?? null) ??
      bareLanguage(pre) ??
      bareLanguage(code);
    if (lang) pre.setAttribute(LANG_ATTR, lang);
  }
}
