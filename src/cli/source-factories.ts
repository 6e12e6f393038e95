// Config entries → SearchSource instances, through the factories of websift/sources. The CLI knows each
// factory's option names (typed against its options interface, so a new option fails the typecheck
// here), rejects unknown ones, and reads `<option>Env` from the environment: secrets stay out of the file.

import type { BraveOptions, DuckduckgoOptions, GoogleCseOptions, SearxngOptions, WikipediaOptions } from '../sources/index.js';
import * as factories from '../sources/index.js';
import type { SearchSource } from '../types/index.js';
import { CliError } from './cli-error.js';
import { rejectUnknownKeys } from './suggest.js';

/** One entry of the config's "sources": the factory's name and its options. */
export interface SourceConfig {
  type: string;
  [option: string]: unknown;
}

type Factory = (options: Record<string, unknown>) => SearchSource;

/** string: may also come from `<key>Env`; json: any other JSON value; code: functions and objects, not from a config. */
type Kind = 'string' | 'json' | 'code';

/** Options that are code (a fetch function, a clock) are left to embedders. */
type Table<T> = Record<keyof T, Kind>;

const REMOTE = { id: 'string', userAgent: 'string', headers: 'json', fetch: 'code', clock: 'code' } as const;

const searxngKeys: Table<SearxngOptions> = {
  ...REMOTE,
  baseUrl: 'string',
  categories: 'string',
  engines: 'string',
  language: 'string',
  safesearch: 'json',
};
const braveKeys: Table<BraveOptions> = {
  ...REMOTE,
  apiKey: 'string',
  baseUrl: 'string',
  country: 'string',
  searchLang: 'string',
  safesearch: 'string',
};
const googleCseKeys: Table<GoogleCseOptions> = {
  ...REMOTE,
  apiKey: 'string',
  cx: 'string',
  baseUrl: 'string',
  gl: 'string',
  lr: 'string',
  safe: 'string',
};
const duckduckgoKeys: Table<DuckduckgoOptions> = { ...REMOTE, baseUrl: 'string', region: 'string' };
const wikipediaKeys: Table<WikipediaOptions> = {
  ...REMOTE,
  language: 'string',
  baseUrl: 'string',
  articleUrl: 'string',
  namespaces: 'json',
};

const BY_TYPE: Record<string, { factory: Factory; keys: Record<string, Kind> }> = {
  searxng: { factory: factories.searxng as unknown as Factory, keys: searxngKeys },
  brave: { factory: factories.brave as unknown as Factory, keys: braveKeys },
  googleCse: { factory: factories.googleCse as unknown as Factory, keys: googleCseKeys },
  duckduckgo: { factory: factories.duckduckgo as unknown as Factory, keys: duckduckgoKeys },
  wikipedia: { factory: factories.wikipedia as unknown as Factory, keys: wikipediaKeys },
};

export async function buildSource(entry: SourceConfig, position: number, env: NodeJS.ProcessEnv = process.env): Promise<SearchSource> {
  const { factory } = sourceType(entry, position);
  const options = sourceOptions(entry, position, env);
  try {
    return factory(options);
  } catch (error) {
    throw new CliError(`config: sources[${position}] (${entry.type}): ${(error as Error).message}`);
  }
}

function sourceType(entry: SourceConfig, position: number) {
  const known = Object.hasOwn(BY_TYPE, entry.type) ? BY_TYPE[entry.type] : undefined;
  if (!known)
    throw new CliError(`config: sources[${position}] has unknown type '${entry.type}' (known: ${Object.keys(BY_TYPE).join(', ')})`);
  return known;
}

/** Checks an entry's keys (at config load, before anything opens) without reading the environment. */
export function checkSourceEntry(entry: SourceConfig, position: number): void {
  const { keys } = sourceType(entry, position);
  const where = `config: sources[${position}] (${entry.type})`;
  const accepted = Object.entries(keys)
    .filter(([, kind]) => kind !== 'code')
    .map(([k]) => k);
  const fromEnv = Object.entries(keys)
    .filter(([, kind]) => kind === 'string')
    .map(([k]) => `${k}Env`);
  const hints = Object.fromEntries(
    Object.entries(keys)
      .filter(([, kind]) => kind === 'code')
      .map(([k]): [string, string] => [k, 'a function or object: only in code']),
  );
  const { type: _type, ...options } = entry;
  rejectUnknownKeys(where, options, [...accepted, ...fromEnv], hints);
  for (const key of Object.keys(options).filter((k) => fromEnv.includes(k))) {
    const option = key.slice(0, -'Env'.length);
    if (typeof options[key] !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(options[key] as string)) {
      throw new CliError(
        `${where}: "${key}" must name an environment variable, e.g. "${option.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}"`,
      );
    }
    if (Object.hasOwn(options, option)) throw new CliError(`${where}: give "${option}" or "${key}", not both`);
  }
}

/** The factory's options: `<key>Env` replaced by the variable's value; an unset or empty variable is an error naming it. */
export function sourceOptions(entry: SourceConfig, position: number, env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  checkSourceEntry(entry, position);
  const { type, ...options } = entry;
  const { keys } = sourceType(entry, position);
  const resolved: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    const option = key.endsWith('Env') ? key.slice(0, -'Env'.length) : undefined;
    if (option === undefined || keys[option] !== 'string') {
      resolved[key] = value;
      continue;
    }
    const variable = value as string;
    const secret = env[variable];
    if (!secret)
      throw new CliError(
        `config: sources[${position}] (${type}): ${key} names the environment variable ${variable}, which is unset or empty`,
      );
    resolved[option] = secret;
  }
  return resolved;
}
