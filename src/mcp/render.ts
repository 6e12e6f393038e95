// The tools' `content`: compact Markdown for the model, made from the same answer that goes out as
// structuredContent. It adds only short lines around the page content (which the engine already
// budgeted and marked where it was cut): a header with what the call cost, and per result its title
// and URL, or per failed page its error type and status.

import type { WebsiftError } from '../errors.js';
import type { ExtractResponse, ExtractResultItem, SearchAnswer, SearchResultItem, UsageResponse } from '../types/index.js';

const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;
/** One line: a title or snippet never breaks the layout. */
const line = (text: string) => text.replace(/\s+/gu, ' ').trim();

export function searchMarkdown(answer: SearchAnswer): string {
  if (!('id' in answer)) {
    const { no_results_verified: confirmed, charged } = answer.metadata;
    return [
      `No results for "${line(answer.query)}".`,
      confirmed
        ? `Confirmed empty: the sources state the query has no results (${charged ? `charged ${credits(answer.metadata.credits_used)}` : 'not charged: a repeat'}). Rephrase rather than retry.`
        : `Not confirmed empty (a source failed or did not say the query has none): not charged; retrying later may find results.`,
      line(answer.message),
    ].join('\n');
  }
  const { metadata } = answer;
  const header = `Search "${line(answer.query)}": ${answer.results.length} result${answer.results.length === 1 ? '' : 's'}, ${charged(metadata.credits_used, metadata.from_cache)}${
    metadata.content_requested !== undefined ? `; content of ${metadata.content_delivered ?? 0} of ${metadata.content_requested} pages` : ''
  }.`;
  return [header, ...answer.results.map(searchResult)].join('\n\n');
}

function searchResult(result: SearchResultItem): string {
  const lines = [`## ${result.position}. ${line(result.title) || result.url}`, result.url];
  if (result.snippet) lines.push(line(result.snippet));
  if (result.content_error !== undefined) lines.push(`(no content: ${result.content_error})`);
  const parts = readInParts(result);
  if (parts) lines.push(parts);
  if (result.content !== undefined) lines.push('', result.content);
  return lines.join('\n');
}

export function extractMarkdown(answer: ExtractResponse): string {
  const { metadata } = answer;
  const free = metadata.cached_free ? ` (${metadata.cached_free} free repeat${metadata.cached_free === 1 ? '' : 's'})` : '';
  const header = `Extracted ${metadata.successful_crawls} of ${metadata.total_urls} page${metadata.total_urls === 1 ? '' : 's'}: ${credits(metadata.credits_used)} charged${free}.`;
  return [header, ...answer.results.map(extractResult)].join('\n\n');
}

function extractResult(result: ExtractResultItem): string {
  if (!result.success) {
    const status = result.status_code > 0 ? `, HTTP ${result.status_code}` : '';
    return `## ${result.url}\nFailed (${result.error_type ?? 'error'}${status}, not charged): ${line(result.error ?? '')}`;
  }
  const title = result.metadata?.title ? line(result.metadata.title) : undefined;
  const parts = readInParts(result);
  const lines = [`## ${title ?? result.url}`, ...(title ? [result.url] : []), ...(parts ? [parts] : [])];
  return [...lines, '', result.markdown ?? result.html ?? ''].join('\n');
}

/** How much of the page there is, when the answer was read in parts (the marker in the content says where to read on). */
function readInParts(result: { total_chars?: number; truncated?: boolean }): string | undefined {
  if (result.total_chars === undefined) return undefined;
  return `(${result.total_chars.toLocaleString('en-US')} characters in all${result.truncated ? '; more remains' : ''})`;
}

export function usageMarkdown(usage: UsageResponse): string {
  const { credits: c, requests: r } = usage;
  return [
    `Organization ${usage.organization}: ${credits(c.balance)} left, ${c.used} used.`,
    `Requests: ${r.total} (search ${r.search}, extract ${r.extract}; ${r.free} free).`,
  ].join('\n');
}

/** A failed call: what happened, that nothing was charged, and what to do about it. */
export function errorMarkdown(error: WebsiftError): string {
  const lines = [`Error ${error.status} ${error.code}: ${error.message}`];
  const retryAfter = error.extra['retry_after'];
  if (typeof retryAfter === 'number') lines.push(`Nothing was charged. Retry after ${retryAfter} s.`);
  else if (error.retryable) lines.push('Nothing was charged. Retryable: try again shortly.');
  else lines.push('Nothing was charged. Not retryable as is.');
  return lines.join('\n');
}

function charged(creditsUsed: number, fromCache: boolean): string {
  return creditsUsed === 0 && fromCache ? '0 credits (a free repeat)' : `${credits(creditsUsed)} charged`;
}
