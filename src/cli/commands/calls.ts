// In-process API calls for scripting: `websift search`, `websift extract`, `websift usage`.

import { expectPositionals, intOption, type Options, optionalInt, parse, stringOption } from '../args.js';
import { CliError } from '../cli-error.js';
import type { CliCommand } from '../help.js';
import { printJson } from '../output.js';
import { organizationOf, withEngine } from './session.js';

const ORG: Options = { org: { type: 'string', value: 'ID', help: 'organization billed (default: the only one in the database)' } };

const SEARCH_OPTIONS: Options = {
  ...ORG,
  content: { type: 'string', value: 'N', help: 'include the content of the first N pages (0-10; include_content)' },
  'max-chars': {
    type: 'string',
    value: 'N',
    help: "with --content: at most N characters of content over all pages, each page's passages picked by the query (max_chars)",
  },
};

export const search: CliCommand = {
  help: {
    usage: ['search <query...> [options]'],
    summary: 'Search in-process, billed like GET /api/search. The words of the query need no quotes: they are joined with spaces.',
    options: SEARCH_OPTIONS,
    examples: ['websift search sourdough starter --content 3', 'websift search sourdough starter --content 3 --max-chars 4000'],
  },
  async run(args) {
    const parsed = parse('search', args, SEARCH_OPTIONS);
    if (parsed.positionals.length === 0) throw new CliError('search takes <query>; got 0 argument(s)');
    // `search hello world` means the query "hello world", as a shell user expects.
    const q = parsed.positionals.join(' ');
    const content = intOption(parsed, 'content', 0, 0, 10);
    const maxChars = optionalInt(parsed, 'max-chars', 1);
    if (maxChars !== undefined && content === 0) throw new CliError("--max-chars needs --content: it bounds the pages' content");
    const params =
      content > 0
        ? { q, include_content: true, content_results: content, ...(maxChars !== undefined ? { max_chars: maxChars } : {}) }
        : { q };
    await withEngine(parsed, async (opened) => {
      const organization = await organizationOf(parsed, opened);
      printJson(await opened.engine.search(params, { organization }));
    });
  },
};

const EXTRACT_OPTIONS: Options = {
  ...ORG,
  format: { type: 'string', value: 'FORMAT', help: 'markdown (default) or html' },
  'max-chars': {
    type: 'string',
    value: 'N',
    help: 'at most N characters of content over all pages, a marker line where a page was cut (max_chars)',
  },
  'start-char': {
    type: 'string',
    value: 'N',
    help: "skip the first N characters of each page's content, to read on from a cut (start_char)",
  },
  query: {
    type: 'string',
    value: 'TEXT',
    help: "each page's passages most relevant to TEXT instead of the page from the top (markdown only)",
  },
  'include-links': { type: 'boolean', help: "add each page's links (absolute, deduplicated) as `links` (include_links)" },
};

export const extract: CliCommand = {
  help: {
    usage: ['extract <url>... [options]'],
    summary: 'Fetch pages and extract their main content in-process, billed like POST /api/crawl.',
    options: EXTRACT_OPTIONS,
    notes: ['Exit codes: 0 when at least one URL succeeded, 1 when every URL failed (the response is printed either way), 2 bad usage.'],
    examples: [
      'websift extract https://example.com/ https://example.org/ --format html',
      'websift extract https://example.com/long --max-chars 8000 --start-char 8000',
      "websift extract https://example.com/long --query 'installation on Windows' --max-chars 2000",
      'websift extract https://example.com/ --include-links',
    ],
  },
  async run(args) {
    const parsed = parse('extract', args, EXTRACT_OPTIONS);
    if (parsed.positionals.length === 0) throw new CliError('extract takes one or more URLs');
    const format = stringOption(parsed, 'format') ?? 'markdown';
    if (format !== 'markdown' && format !== 'html') throw new CliError(`--format must be markdown or html, got '${format}'`);
    const maxChars = optionalInt(parsed, 'max-chars', 1);
    const startChar = optionalInt(parsed, 'start-char', 0);
    const query = stringOption(parsed, 'query');
    if (query !== undefined && format === 'html')
      throw new CliError('--query needs --format markdown: passages are picked from the Markdown');
    const params = {
      urls: parsed.positionals,
      format,
      ...(parsed.values['include-links'] === true ? { include_links: true } : {}),
      ...(maxChars !== undefined ? { max_chars: maxChars } : {}),
      ...(startChar !== undefined ? { start_char: startChar } : {}),
      ...(query !== undefined ? { query } : {}),
    } as const;
    const response = await withEngine(parsed, async (opened) => {
      const organization = await organizationOf(parsed, opened);
      return opened.engine.extract(params, { organization });
    });
    printJson(response);
    // A script must be able to tell "nothing came back" from success without parsing the JSON.
    if (response.results.length > 0 && response.results.every((r) => !r.success)) {
      throw new CliError(`extract: every URL failed (${response.results.length} of ${response.results.length})`, 1);
    }
  },
};

export const usage: CliCommand = {
  help: {
    usage: ['usage [options]'],
    summary: "An organization's credits and request counts, as GET /api/usage answers.",
    options: ORG,
    examples: ['websift usage --org acme'],
  },
  async run(args) {
    const parsed = parse('usage', args, ORG);
    expectPositionals(parsed, 'usage', []);
    await withEngine(parsed, async (opened) => {
      const organization = await organizationOf(parsed, opened);
      printJson(await opened.engine.usage({ organization }));
    });
  },
};
