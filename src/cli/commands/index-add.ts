// `websift index add PATH|URL…`: local files (needs --base-url, the address they are served at) and
// fetched pages (through engine.extract, so the organization pays 1 credit per page indexed).

import { parse, stringOption } from '../args.js';
import { CliError } from '../cli-error.js';
import { documentFromFile, listFiles, urlFor, type LocalFile } from '../local-files.js';
import { printJson, say } from '../output.js';
import { progressBar } from '../progress.js';
import type { OpenedEngine } from '../open-engine.js';
import type { LocalIndex } from '../../sources/local-index.js';
import { organizationOf, withEngine } from './session.js';

const EXTRACT_BATCH = 10;

export async function indexCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action !== 'add') throw new CliError(`index: expected add${action ? `, got '${action}'` : ''}`);
  const parsed = parse('index add', rest, { org: { type: 'string' }, 'base-url': { type: 'string' } });
  if (parsed.positionals.length === 0) throw new CliError('index add takes one or more files, directories or URLs');
  const urls = parsed.positionals.filter((p) => /^https?:\/\//i.test(p));
  const paths = parsed.positionals.filter((p) => !/^https?:\/\//i.test(p));
  const base = stringOption(parsed, 'base-url');
  if (paths.length > 0) {
    if (base === undefined) throw new CliError('index add: local files need --base-url, the http(s) address they are served at');
    if (!/^https?:\/\/[^/]/i.test(base)) throw new CliError(`--base-url must be an absolute http(s) URL, got '${base}'`);
  }
  const files = listFiles(paths); // checked before opening the database
  return withEngine(parsed, async (opened) => {
    const fromFiles = files.length > 0 ? await indexFiles(opened.index, files, base!) : { indexed: 0, failed: [] };
    const fromUrls = urls.length > 0 ? await indexUrls(opened, urls, await organizationOf(parsed, opened)) : { indexed: 0, failed: [] };
    const failed = [...fromFiles.failed, ...fromUrls.failed];
    printJson({ indexed: fromFiles.indexed + fromUrls.indexed, failed, documents: await opened.index.count() });
    return failed.length > 0 ? 1 : 0;
  });
}

export interface IndexOutcome {
  indexed: number;
  failed: { source: string; error: string }[];
}

export async function indexFiles(index: LocalIndex, files: LocalFile[], base: string): Promise<IndexOutcome> {
  const progress = progressBar(files.length);
  const outcome: IndexOutcome = { indexed: 0, failed: [] };
  for (const file of files) {
    try {
      outcome.indexed += await index.add(documentFromFile(file.path, urlFor(base, file)));
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
  const outcome: IndexOutcome = { indexed: 0, failed: [] };
  for (let i = 0; i < urls.length; i += EXTRACT_BATCH) {
    const batch = urls.slice(i, i + EXTRACT_BATCH);
    const response = await opened.engine.extract({ urls: batch, format: 'markdown' }, { organization });
    outcome.indexed += await opened.index.addExtracted(response);
    for (const result of response.results) {
      if (!result.success) outcome.failed.push({ source: result.url, error: result.error ?? result.error_type ?? 'failed' });
      progress.tick(result.url);
    }
  }
  if (outcome.indexed > 0 || outcome.failed.length > 0) say(`fetched through extract as '${organization}'`);
  progress.done(`indexed ${outcome.indexed} of ${urls.length} page(s)`);
  return outcome;
}
