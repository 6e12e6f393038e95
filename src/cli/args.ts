// Argument parsing on node:util parseArgs, turning its exceptions into one-line usage errors. Options
// are declared once, with their help line, so a command's parser and its --help cannot drift apart.

import { parseArgs } from 'node:util';
import { CliError } from './cli-error.js';

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** The value's placeholder in the help (string options), e.g. 'PATH'. */
  value?: string;
  help: string;
  /** The environment variable read when the option is absent. */
  env?: string;
}

export type Options = Record<string, OptionSpec>;

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** Options every command takes. */
export const COMMON: Options = {
  database: {
    type: 'string',
    value: 'PATH|URL',
    help: 'SQLite file or postgres:// URL (default ./websift.db; alias --db)',
    env: 'WEBSIFT_DATABASE_URL, else WEBSIFT_DB',
  },
  db: { type: 'string', value: 'PATH|URL', help: 'older name of --database' },
  redis: { type: 'string', value: 'URL', help: 'redis:// URL: shared caches, rate limit and key revocations', env: 'WEBSIFT_REDIS_URL' },
  index: { type: 'string', value: 'PATH', help: "the local index's SQLite file (default: the database file)", env: 'WEBSIFT_INDEX' },
  config: { type: 'string', value: 'FILE', help: 'JSON config: sources, localIndex, engine options (docs/cli.md)' },
  help: { type: 'boolean', short: 'h', help: 'print this help' },
};

/** The common options given before the command (`websift --database x usage`), parsed as if after it. */
let leading: string[] = [];

/**
 * Splits `argv` into the common options before the command and the rest (the command first), and keeps
 * the former for every later parse(). Only string options of COMMON may come first; --help and
 * --version are the dispatcher's.
 */
export function takeLeadingOptions(argv: string[]): string[] {
  leading = [];
  const taken: string[] = [];
  let i = 0;
  for (; i < argv.length && argv[i]!.startsWith('--') && argv[i] !== '--help' && argv[i] !== '--version'; i++) {
    const [flag, inline] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const name = flag.slice(2);
    if (!Object.hasOwn(COMMON, name) || COMMON[name]!.type !== 'string') {
      const allowed = Object.keys(COMMON)
        .filter((k) => COMMON[k]!.type === 'string')
        .map((k) => `--${k}`)
        .join(', ');
      throw new CliError(`option '${flag}' cannot come before the command (only ${allowed} can)`);
    }
    if (inline !== undefined) taken.push(argv[i]!);
    else if (argv[i + 1] === undefined) throw new CliError(`option '${flag}' needs a value`);
    else taken.push(flag, argv[++i]!);
  }
  leading = taken;
  return argv.slice(i);
}

export function parse(command: string, args: string[], options: Options): Parsed {
  const config: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const [name, spec] of Object.entries({ ...COMMON, ...options })) {
    config[name] = spec.short ? { type: spec.type, short: spec.short } : { type: spec.type };
  }
  try {
    const { values, positionals } = parseArgs({ args: [...leading, ...args], options: config, allowPositionals: true, strict: true });
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

/** An integer option of at least `min` (no upper bound but the engine's), or undefined when absent. */
export function optionalInt(parsed: Parsed, name: string, min: number): number | undefined {
  const raw = stringOption(parsed, name);
  if (raw === undefined) return undefined;
  const value = toInt(raw, `--${name}`, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  if (value < min) throw new CliError(`--${name} must be at least ${min}, got ${value}`);
  return value;
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
    const shape = names.length > 0 ? names.map((n) => `<${n}>`).join(' ') : 'no arguments';
    throw new CliError(`${command} takes ${shape}; got ${parsed.positionals.length} argument(s)`);
  }
  return parsed.positionals;
}
