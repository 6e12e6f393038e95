// Process accounting through /proc: the Chromium processes descended from this test process, and their RSS.

import { existsSync, readdirSync, readFileSync } from 'node:fs';

interface Proc {
  pid: number;
  ppid: number;
  comm: string;
  rssKb: number;
}

function readProc(pid: number): Proc | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(status)?.[1] ?? '';
    if (field('State').startsWith('Z')) return null; // reaped soon; not a live process
    return { pid, ppid: Number(field('PPid')), comm: field('Name'), rssKb: Number.parseInt(field('VmRSS'), 10) || 0 };
  } catch {
    return null; // exited while we looked
  }
}

/** Live descendants of `root` (default: this process). */
export function descendants(root = process.pid): Proc[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProc(Number(name)))
    .filter((p): p is Proc => p !== null);
  const children = new Map<number, Proc[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const out: Proc[] = [];
  const stack = [root];
  while (stack.length > 0) {
    for (const child of children.get(stack.pop()!) ?? []) {
      out.push(child);
      stack.push(child.pid);
    }
  }
  return out;
}

/** Chromium processes (browser, renderers, GPU/utility helpers) under this process. */
export const chromiumProcesses = (): Proc[] => descendants().filter((p) => /chrom/i.test(p.comm));

export const chromiumRssKb = (): number => chromiumProcesses().reduce((sum, p) => sum + p.rssKb, 0);

/** The browser the tests drive: WEBSIFT_CHROMIUM, or Debian's package. */
export const CHROMIUM = process.env.WEBSIFT_CHROMIUM ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

if (!hasChromium) {
  console.warn(
    `[websift] ${CHROMIUM} not found: browser rendering tests are skipped. ` +
      'Run `apt-get install chromium` (or set WEBSIFT_CHROMIUM to a Chromium binary) to enable them.',
  );
}
