// Runs the CLI as a child process through tsx (no build needed).

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = join(ROOT, 'src/cli/main.ts');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The timeout of a test that starts `websift serve` (a process through tsx): 5 s alone, beyond vitest's
 * 20 s default at CI's load (from the start to its `listening` line: 5-22 s, median 11 s, at a load of
 * 18-25 on 2 cores).
 */
export const PROCESS_START_BUDGET_MS = 60_000;

export function tempDb(): string {
  return join(mkdtempSync(join(tmpdir(), 'websift-cli-')), 'test.db');
}

// Children still running when the test process exits (a test that timed out before its kill) are killed
// with it, not left serving for the rest of the run.
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export function startCli(args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, WEBSIFT_DB: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  child.once('exit', () => live.delete(child));
  return recordStderr(child);
}

/** Keeps what `child` writes to stderr from now on, for waitForLine (startCli does it at the start). */
export function recordStderr<C extends ChildProcess>(child: C): C {
  const record = { text: '', read: 0 };
  child.stderr!.on('data', (d: Buffer) => (record.text += d.toString()));
  stderrOf.set(child, record);
  return child;
}

/** Each started child's stderr since its start, and how far waitForLine has read it. */
const stderrOf = new WeakMap<ChildProcess, { text: string; read: number }>();

export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = startCli(args, env);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Resolves with the first match of `pattern` in the child's stderr after the previous match (or rejects
 * when the process ends first). Read from what the child wrote since its start: a line that came before
 * the call (a log line racing the response the test awaited) is found, not missed.
 */
export function waitForLine(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  const record = stderrOf.get(child);
  if (!record) throw new Error('waitForLine: start the child with startCli (or recordStderr)');
  return new Promise((resolve, reject) => {
    const look = () => {
      const match = pattern.exec(record.text.slice(record.read));
      if (!match) return false;
      record.read += match.index + match[0].length;
      child.stderr!.off('data', onData);
      child.off('close', onClose);
      resolve(match);
      return true;
    };
    // After startCli's own listener (registered first): the chunk is already in record.text.
    const onData = () => void look();
    const onClose = () => {
      child.stderr!.off('data', onData);
      reject(new Error(`process ended before ${pattern}; stderr: ${record.text.slice(record.read)}`));
    };
    if (look()) return;
    if (child.stderr!.readableEnded) return onClose();
    child.stderr!.on('data', onData);
    child.once('close', onClose);
  });
}
