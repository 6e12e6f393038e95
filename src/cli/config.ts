// The optional JSON config of `websift serve` and friends: extra search sources and engine options.
//   { "sources": [{ "type": "searxng", "baseUrl": "http://…" }], "localIndex": true, "engine": { … } }

import { readFileSync } from 'node:fs';
import { CliError } from './cli-error.js';
import { CONFIG_ENGINE_KEYS, ENGINE_KEY_HINTS, engineValueError } from './engine-keys.js';
import { checkSourceEntry, type SourceConfig } from './source-factories.js';
import { rejectUnknownKeys } from './suggest.js';

export type { SourceConfig };

export interface CliConfig {
  sources: SourceConfig[];
  /** Whether the local index is the first source (default true). */
  localIndex: boolean;
  /** Passed to createEngine (rate limits, timeouts, …); only keys of CONFIG_ENGINE_KEYS. */
  engine: Record<string, unknown>;
}

export const EMPTY_CONFIG: CliConfig = { sources: [], localIndex: true, engine: {} };

export function loadConfig(path: string | undefined): CliConfig {
  if (path === undefined) return EMPTY_CONFIG;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read config ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(`config ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return checkConfig(value, path);
}

export function checkConfig(value: unknown, label: string): CliConfig {
  if (!isObject(value)) throw new CliError(`config ${label} must be a JSON object`);
  // A misspelt key would otherwise be dropped silently and its setting never applied.
  rejectUnknownKeys(`config ${label}`, value, ['sources', 'localIndex', 'engine']);
  const sources = value.sources ?? [];
  if (!Array.isArray(sources)) throw new CliError(`config ${label}: "sources" must be an array`);
  sources.forEach((s, i) => {
    if (!isObject(s) || typeof s.type !== 'string') throw new CliError(`config ${label}: sources[${i}] needs a string "type"`);
    checkSourceEntry(s as SourceConfig, i);
  });
  const localIndex = value.localIndex ?? true;
  if (typeof localIndex !== 'boolean') throw new CliError(`config ${label}: "localIndex" must be a boolean`);
  const engine = value.engine ?? {};
  if (!isObject(engine)) throw new CliError(`config ${label}: "engine" must be an object`);
  rejectUnknownKeys(`config ${label}: "engine"`, engine, CONFIG_ENGINE_KEYS, ENGINE_KEY_HINTS);
  for (const [key, option] of Object.entries(engine)) {
    const wrong = engineValueError(key, option);
    if (wrong) throw new CliError(`config ${label}: "engine.${key}" ${wrong}`);
  }
  return { sources: sources as SourceConfig[], localIndex, engine };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
