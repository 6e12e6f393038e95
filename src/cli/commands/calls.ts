// In-process API calls for scripting: `websift search`, `websift extract`, `websift usage`.

import { expectPositionals, intOption, parse, stringOption } from '../args.js';
import { CliError } from '../cli-error.js';
import { printJson } from '../output.js';
import { organizationOf, withEngine } from './session.js';

const ORG = { org: { type: 'string' } } as const;

export async function searchCommand(args: string[]): Promise<void> {
  const parsed = parse('search', args, { ...ORG, content: { type: 'string' } });
  const q = expectPositionals(parsed, 'search', ['query'])[0] as string;
  const content = intOption(parsed, 'content', 0, 0, 10);
  const params = content > 0 ? { q, include_content: true, content_results: content } : { q };
  await withEngine(parsed, async (opened) => {
    const organization = await organizationOf(parsed, opened);
    printJson(await opened.engine.search(params, { organization }));
  });
}

export async function extractCommand(args: string[]): Promise<void> {
  const parsed = parse('extract', args, { ...ORG, format: { type: 'string' } });
  if (parsed.positionals.length === 0) throw new CliError('extract takes one or more URLs');
  const format = stringOption(parsed, 'format') ?? 'markdown';
  if (format !== 'markdown' && format !== 'html') throw new CliError(`--format must be markdown or html, got '${format}'`);
  await withEngine(parsed, async (opened) => {
    const organization = await organizationOf(parsed, opened);
    printJson(await opened.engine.extract({ urls: parsed.positionals, format }, { organization }));
  });
}

export async function usageCommand(args: string[]): Promise<void> {
  const parsed = parse('usage', args, ORG);
  expectPositionals(parsed, 'usage', []);
  await withEngine(parsed, async (opened) => {
    const organization = await organizationOf(parsed, opened);
    printJson(await opened.engine.usage({ organization }));
  });
}
