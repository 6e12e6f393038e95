// `websift index add PATH|URL…`: local files (needs --base-url, the address they are served at) and
// fetched pages (through engine.extract, so the organization pays 1 credit per page indexed).

import type { LocalIndex } from '../../sources/local-index.js';
import { type Options, parse, stringOption } from '../args.js';
import { CliError } from '../cli-error.js';
import type { CliCommand } from '../help.js';
import { type LocalFile, listFiles, loadFile, MAX_FILE_BYTES, type SkippedFile, urlFor } from '../local-files.js';
import type { OpenedEngine } from '../open-engine.js';
import { printJson, say } from '../output.js';
import { progressBar } from '../progress.js';
import { organizationOf, withEngine } from './session.js';

const EXTRACT_BATCH = 10;

const OPTIONS: Options = {
  'base-url': { type: 'string', value: 'URL', help: 'the http(s) address local files are served at (needed for files)' },
  org: { type: 'string', value: 'ID', help: 'organization billed for fetched URLs (default: the only one)' },
};

export const index: CliCommand = {
  help: {
    usage: ['index add <path|url>... [options]'],
    summary:
      'Add local files (.html/.htm/.xhtml through the HTML converter, .md/.markdown and .txt as they are; directories recursively) or fetched pages to the local search index.',
    options: OPTIONS,
    notes: [
      `Skipped files (unsupported type, README.md, larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB, unreadable, empty) are listed on stderr and under "skipped".`,
      'Exit codes: 0 when something was indexed and no URL failed; 1 when a URL or file failed, or everything was skipped; 2 bad usage (also when every argument is skipped).',
    ],
    examples: ['websift index add ./site --base-url https://docs.example.com/', 'websift index add https://example.com/page --org acme'],
  },
  run: indexCommand,
};

async function indexCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action !== 'add') throw new CliError(`index: expected add${action ? `, got '${action}'` : ''}`);
  const parsed = parse('index add', rest, OPTIONS);
  if (parsed.positionals.length === 0) throw new CliError('index add takes one or more files, directories or URLs');
  const urls = parsed.positionals.filter((p) => /^https?:\/\//i.test(p));
  const paths = parsed.positionals.filter((p) => !/^https?:\/\//i.test(p));
  const base = stringOption(parsed, 'base-url');
  if (paths.length > 0) {
    if (base === undefined) throw new CliError('index add: local files need --base-url, the http(s) address they are served at');
    if (!/^https?:\/\/[^/]/i.test(base)) throw new CliError(`--base-url must be an absolute http(s) URL, got '${base}'`);
  }
  const listed = listFiles(paths); // checked before opening the database
  if (listed.files.length === 0 && urls.length === 0 && listed.skipped.length > 0) {
    const [first] = listed.skipped;
    const more = listed.skipped.length > 1 ? ` (and ${listed.skipped.length - 1} more)` : '';
    throw new CliError(`index add: nothing to index: ${first!.source}: ${first!.reason}${more}`);
  }
  // Local files may start a new index; fetched URLs bill an organization, so their books must exist.
  const create = urls.length === 0;
  return withEngine(
    parsed,
    async (opened) => {
      const fromFiles = listed.files.length > 0 ? await indexFiles(opened.index, listed.files, base!) : empty();
      const fromUrls = urls.length > 0 ? await indexUrls(opened, urls, await organizationOf(parsed, opened)) : empty();
      const skipped = [...listed.skipped, ...fromFiles.skipped, ...fromUrls.skipped];
      const failed = [...fromFiles.failed, ...fromUrls.failed];
      const indexed = fromFiles.indexed + fromUrls.indexed;
      for (const s of skipped) say(`skipped ${s.source}: ${s.reason}`);
      for (const f of failed) say(`failed ${f.source}: ${f.error}`);
      const documents = await opened.index.count();
      say(`index add: ${indexed} indexed, ${skipped.length} skipped, ${failed.length} failed (${documents} document(s) in the index)`);
      printJson({ indexed, skipped, failed, documents });
      return failed.length > 0 || (indexed === 0 && skipped.length > 0) ? 1 : 0;
    },
    { create },
  );
}

export interface IndexOutcome {
  indexed: number;
  skipped: SkippedFile[];
  failed: { source: string; error: string }[];
}

const empty = (): IndexOutcome => ({ indexed: 0, skipped: [], failed: [] });

export async function indexFiles(index: LocalIndex, files: LocalFile[], base: string): Promise<IndexOutcome> {
  const progress = progressBar(files.length);
  const outcome = empty();
  for (const file of files) {
    try {
      const loaded = loadFile(file, urlFor(base, file));
      if ('reason' in loaded) outcome.skipped.push(loaded);
      else outcome.indexed += await index.add(loaded);
    } catch (error) {
      outcome.failed.push({ source: file.path, error: (error as Error).message });
    }
    progress.tick(file.relative);
  }
  progress.done(`indexed ${outcome.indexed} of ${files.length} file(s)`);
  return outcome;
}

async function indexUrls(opened: OpenedEngine, urls: string[], organization: string): Promise<IndexOutcome> {
  const progress = progressBar(urls.length);
  const outcome = empty();
  for (let i = 0; i < urls.length; i += EXTRACT_BATCH) {
    const batch = urls.slice(i, i + EXTRACT_BATCH);
    const response = await opened.engine.extract({ urls: batch, format: 'markdown' }, { organization });
    outcome.indexed += await opened.index.addExtracted(response);
    for (const result of response.results) {
      // A page with no text is skipped, as an empty local file is (extract no longer charges for it).
      if (result.error_type === 'empty') outcome.skipped.push({ source: result.url, reason: 'empty (no text once converted)' });
      else if (!result.success) outcome.failed.push({ source: result.url, error: result.error ?? result.error_type ?? 'failed' });
      progress.tick(result.url);
    }
  }
  if (outcome.indexed > 0 || outcome.failed.length > 0) say(`fetched through extract as '${organization}'`);
  progress.done(`indexed ${outcome.indexed} of ${urls.length} page(s)`);
  return outcome;
}
