// Runs the CLI's main() in this process with stdout/stderr captured: the same code path as the
// executable, without a process start per case (the child-process tests cover the executable itself).

import { main } from '../../src/cli/run.js';
import type { CliResult } from './run-cli.js';

export async function mainCaptured(args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const out = process.stdout.write;
  const err = process.stderr.write;
  process.stdout.write = ((chunk: string | Uint8Array) => ((stdout += String(chunk)), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => ((stderr += String(chunk)), true)) as typeof process.stderr.write;
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}
