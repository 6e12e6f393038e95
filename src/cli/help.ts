// A command's --help, rendered from what the command declares beside its code: usage, one line per
// option (with its environment variable), and examples.

import { COMMON, type OptionSpec, type Options } from './args.js';

export interface CommandHelp {
  /** Synopses without the leading `websift`, e.g. 'serve [options]'. */
  usage: string[];
  summary: string;
  options: Options;
  examples: string[];
  /** Extra lines after the options (exit codes, rules). */
  notes?: string[];
}

/** A command as the dispatcher loads it. Resolves to the exit code (0 when nothing is returned). */
export interface CliCommand {
  help: CommandHelp;
  // biome-ignore lint/suspicious/noConfusingVoidType: a command returns its exit code, or nothing for 0
  run(args: string[]): Promise<number | void>;
}

export function renderHelp(help: CommandHelp): string {
  const lines = help.usage.map((u, i) => `${i === 0 ? 'usage:' : '      '} websift ${u}`);
  lines.push('', help.summary);
  const own = Object.entries(help.options);
  if (own.length > 0) lines.push('', 'Options:', ...optionLines(own));
  lines.push('', 'Common options:', ...optionLines(Object.entries(COMMON)));
  if (help.notes?.length) lines.push('', ...help.notes);
  lines.push('', help.examples.length > 1 ? 'Examples:' : 'Example:', ...help.examples.map((e) => `  ${e}`));
  return lines.join('\n');
}

function optionLines(entries: [string, OptionSpec][]): string[] {
  const heads = entries.map(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : ''}--${name}`;
    return spec.type === 'string' ? `${flag} ${spec.value ?? 'VALUE'}` : flag;
  });
  const width = Math.max(...heads.map((h) => h.length)) + 2;
  return entries.map(([, spec], i) => `  ${heads[i]!.padEnd(width)}${spec.help}${spec.env ? ` [env: ${spec.env}]` : ''}`);
}
