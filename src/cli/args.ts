// Argument parsing on node:util parseArgs, turning its exceptions into one-line usage errors.

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cli-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** Options every command takes. */
export const COMMON: Options = {
  db: { type: 'string' },
  database: { type: 'string' },
  redis: { type: 'string' },
  index: { type: 'string' },
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

export function parse(command: string, args: string[], options: Options): Parsed {
  try {
    const { values, positionals } = parseArgs({ args, options: { ...COMMON, ...options }, allowPositionals: true, strict: true });
    return { values: values as Parsed['values'], positionals };
  } catch (error) {
    // parseArgs messages are long and mention internals; keep their first sentence.
    const message = (error as Error).message.split('. ')[0]!.replace(/\.$/, '');
    throw new CliError(`${command}: ${message}`);
  }
}

export function stringOption(parsed: Parsed, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** An integer option within bounds; `fallback` when absent. */
export function intOption(parsed: Parsed, name: string, fallback: number, min: number, max: number): number {
  const raw = stringOption(parsed, name);
  if (raw === undefined) return fallback;
  return toInt(raw, `--${name}`, min, max);
}

export function toInt(raw: string, label: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(raw.trim())) throw new CliError(`${label} must be an integer, got '${raw}'`);
  const value = Number(raw);
  if (value < min || value > max) throw new CliError(`${label} must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** Exactly `count` positionals, named for the error message. */
export function expectPositionals(parsed: Parsed, command: string, names: string[]): string[] {
  if (parsed.positionals.length !== names.length) {
    const shape = names.map((n) => `<${n}>`).join(' ');
    throw new CliError(`${command} takes ${shape}; got ${parsed.positionals.length} argument(s)`);
  }
  return parsed.positionals;
}
