// One page through the fetch → convert pipeline, as a value: either content or a per-URL failure.
// Both `extract` and search's `include_content` use it, so the error mapping lives here once.

import { isFetchFailure } from '../../ports/fetcher.js';
import type { ContentError, ExtractErrorType, PageMetadata } from '../../types/index.js';

export type PageOutcome =
  | {
      ok: true;
      status: number;
      finalUrl: string;
      mimeType: string;
      text: string;
      /** What the page says about itself; `final_url` always. */
      metadata: PageMetadata;
      /** The page's links, when the request asked the converter for them. */
      links?: string[];
    }
  | { ok: false; type: ExtractErrorType; statusCode: number; error: string };

export function failureOutcome(error: unknown): PageOutcome & { ok: false } {
  if (isFetchFailure(error)) return { ok: false, type: error.type, statusCode: error.statusCode, error: error.message };
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
    return { ok: false, type: 'timeout', statusCode: 0, error: 'The page did not load in time' };
  }
  return { ok: false, type: 'network', statusCode: 0, error: error instanceof Error ? error.message : String(error) };
}

const BLOCKING_STATUSES = new Set([401, 403, 429, 451]);

/** The `content_error` a failed page reports in a search result (contract §3). */
export function contentErrorOf(outcome: PageOutcome & { ok: false }): ContentError {
  if (outcome.type === 'http' && BLOCKING_STATUSES.has(outcome.statusCode)) return 'blocked';
  switch (outcome.type) {
    case 'blocked_address':
      return 'blocked';
    case 'too_many_redirects':
    case 'invalid_url':
      return 'http';
    default:
      return outcome.type;
  }
}

// Interstitials served with a 200 by bot-protection services; their text is never the page's content.
const CHALLENGE_MARKERS = [
  /<title>\s*just a moment\.\.\.\s*<\/title>/i,
  /<title>\s*attention required! \| cloudflare\s*<\/title>/i,
  /\bcf-browser-verification\b|\bcf_chl_opt\b|challenge-platform/i,
  /<title>\s*(access denied|pardon our interruption|are you a robot\??)\s*<\/title>/i,
  /please enable (javascript and )?cookies to continue/i,
  /checking (if the site connection is secure|your browser before accessing)/i,
];

const CAPTCHA_MARKER = /\b(g-recaptcha|h-captcha|px-captcha)\b/i;

/** True when an HTML page is a bot challenge instead of the page asked for. */
export function isBotChallenge(html: string): boolean {
  const head = html.length > 20_000 ? html.slice(0, 20_000) : html;
  if (CHALLENGE_MARKERS.some((re) => re.test(head))) return true;
  // A captcha widget is a challenge only on a small page; real pages carry them in contact forms.
  return html.length < 15_000 && CAPTCHA_MARKER.test(html);
}
