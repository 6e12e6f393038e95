// Builds the CLI's engine on the embedded defaults: one SQLite file for the ledger, keys, counters and
// the local index; the local index as the first source, then any sources the config names.

import { createEngine } from '../engine.js';
import { localIndex, type LocalIndex } from '../sources/local-index.js';
import type { Engine, SearchSource } from '../types.js';
import { CliError } from './cli-error.js';
import { buildSource } from './source-factories.js';
import type { CliConfig } from './config.js';

export const DEFAULT_DB = './websift.db';

export interface OpenedEngine {
  engine: Engine;
  index: LocalIndex;
  database: string;
  close(): Promise<void>;
}

export interface OpenOptions {
  database: string;
  config: CliConfig;
  /** Lets the engine fetch loopback/private addresses (the demo serves its corpus on 127.0.0.1). */
  allowPrivateNetwork?: boolean;
}

/** --db, else WEBSIFT_DB, else ./websift.db. */
export function databasePath(option: string | undefined): string {
  return option ?? process.env.WEBSIFT_DB ?? DEFAULT_DB;
}

export async function openEngine(options: OpenOptions): Promise<OpenedEngine> {
  let index: LocalIndex;
  try {
    index = localIndex({ database: options.database });
  } catch (error) {
    throw new CliError(`cannot open database ${options.database}: ${(error as Error).message}`, 1);
  }
  const sources: SearchSource[] = [];
  if (options.config.localIndex) sources.push(index);
  for (const [i, entry] of options.config.sources.entries()) sources.push(await buildSource(entry, i));
  let engine: Engine;
  try {
    engine = createEngine({
      ...options.config.engine,
      database: options.database,
      sources,
      ...(options.allowPrivateNetwork ? { allowPrivateNetwork: true } : {}),
    });
  } catch (error) {
    await index.close();
    throw new CliError(`cannot start the engine: ${(error as Error).message}`, 1);
  }
  return {
    engine,
    index,
    database: options.database,
    async close() {
      await engine.close();
      await index.close();
    },
  };
}
