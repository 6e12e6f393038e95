// Config entries → SearchSource instances, through the factories of websift/sources. Each factory
// checks its own options; their errors become one-line config errors.

import * as factories from '../sources/index.js';
import type { SearchSource } from '../types.js';
import { CliError } from './cli-error.js';
import type { SourceConfig } from './config.js';

type Factory = (options: Record<string, unknown>) => SearchSource;

const BY_TYPE: Record<string, Factory> = {
  searxng: factories.searxng as unknown as Factory,
  brave: factories.brave as unknown as Factory,
  googleCse: factories.googleCse as unknown as Factory,
  duckduckgo: factories.duckduckgo as unknown as Factory,
  wikipedia: factories.wikipedia as unknown as Factory,
};

export async function buildSource(entry: SourceConfig, position: number): Promise<SearchSource> {
  const { type, ...options } = entry;
  const factory = Object.hasOwn(BY_TYPE, type) ? BY_TYPE[type] : undefined;
  if (!factory) {
    throw new CliError(`config: sources[${position}] has unknown type '${type}' (known: ${Object.keys(BY_TYPE).join(', ')})`);
  }
  try {
    return factory(options);
  } catch (error) {
    throw new CliError(`config: sources[${position}] (${type}): ${(error as Error).message}`);
  }
}
