// Is the process that opened a ledger session still running? Used to release the reservations a
// crashed process left behind. The start time (from /proc on Linux) guards against a reused pid.

import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

export interface ProcessIdentity {
  pid: number;
  host: string;
  /** Kernel start time of the process (clock ticks since boot), or '' where /proc is unavailable. */
  started: string;
}

export function processStart(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime); fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? '';
  } catch {
    return '';
  }
}

export function currentProcess(): ProcessIdentity {
  return { pid: process.pid, host: hostname(), started: processStart(process.pid) };
}

/**
 * True unless the process is known dead: same host, and the pid no longer exists or now belongs to
 * a process that started at another time. Sessions of other hosts are assumed alive (SQLite WAL
 * files can't be shared across hosts anyway).
 */
export function processAlive(owner: ProcessIdentity): boolean {
  if (owner.host !== hostname()) return true;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (owner.started === '') return true;
  const now = processStart(owner.pid);
  return now === '' || now === owner.started;
}
