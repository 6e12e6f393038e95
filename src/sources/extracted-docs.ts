// Documents for the local index from `engine.extract` output: each successful result's URL, a title
// (its first heading, else the URL) and its text with Markdown syntax removed, so snippets read cleanly.

import type { ExtractResponse } from '../types/index.js';
import { htmlToText } from './html-text.js';

export interface IndexDocument {
  url: string;
  title: string;
  text: string;
}

/** The first ATX (`# Title`) or setext (`Title\n===`) heading of a Markdown text. */
export function firstHeading(markdown: string): string | null {
  const lines = markdown.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const atx = /^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/.exec(line);
    if (atx?.[1]) return markdownToText(atx[1]) || null;
    const next = lines[i + 1] ?? '';
    if (line.trim() !== '' && /^ {0,3}(=+|-+)[ \t]*$/.test(next) && !/^\s*[-*+>]/.test(line)) return markdownToText(line) || null;
  }
  return null;
}

/** Markdown to plain text: links and images keep their text, markup characters go. */
export function markdownToText(markdown: string): string {
  return markdown
    .replace(/```[^\n]*\n([\s\S]*?)```/g, '$1') // fenced code: keep the code
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1') // images: alt text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // links: link text
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1') // reference links
    .replace(/^ {0,3}\[[^\]]+\]:\s+\S+.*$/gm, '') // link definitions
    .replace(/^ {0,3}#{1,6}[ \t]+/gm, '') // heading markers
    .replace(/^ {0,3}(=+|-+|\*{3,}|_{3,})[ \t]*$/gm, '') // setext underlines, rules
    .replace(/^ {0,3}>[ \t]?/gm, '') // block quotes
    .replace(/^ {0,3}([-*+]|\d+[.)])[ \t]+/gm, '') // list markers
    .replace(/\|/g, ' ') // table pipes
    .replace(/(\*\*|__|\*|_|~~|`)(?=\S)([\s\S]*?\S)\1/g, '$2') // emphasis, strike, inline code
    .replace(/<[^>\n]+>/g, ' ') // stray inline HTML
    .replace(/[ \t]+/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The indexable documents of an extract response (failed results and empty pages are skipped). */
export function documentsFromExtract(response: ExtractResponse): IndexDocument[] {
  if (!response || !Array.isArray(response.results)) {
    throw new TypeError('addExtracted: expected an extract response with a results array');
  }
  const docs: IndexDocument[] = [];
  for (const result of response.results) {
    if (result?.success !== true || typeof result.url !== 'string') continue;
    if (typeof result.markdown === 'string' && result.markdown.trim() !== '') {
      const text = markdownToText(result.markdown);
      docs.push({ url: result.url, title: firstHeading(result.markdown) ?? result.url, text });
    } else if (typeof result.html === 'string' && result.html.trim() !== '') {
      const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(result.html)?.[1];
      const body = result.html.replace(/<head[\s\S]*?<\/head>/i, ' ');
      docs.push({ url: result.url, title: (title && htmlToText(title)) || result.url, text: htmlToText(body) });
    }
  }
  return docs;
}
