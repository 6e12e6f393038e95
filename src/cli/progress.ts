// Progress of a long run on stderr. On a terminal, a bar redrawn in place; elsewhere (a log file, CI,
// a supervisor's journal) a plain line every `every` items or every `intervalMs`, whichever comes
// first, so a long run shows it is alive without filling the log with a bar's redraws.

export interface Progress {
  tick(label?: string): void;
  done(summary: string): void;
}

export interface ProgressOptions {
  /** Not on a terminal: a line every this many items (default 25)… */
  every?: number;
  /** …or when this long has passed since the last line (default 5 s). */
  intervalMs?: number;
  /** Milliseconds now (default Date.now): only paces the lines. */
  now?: () => number;
}

export function progressBar(total: number, stream: NodeJS.WriteStream = process.stderr, options: ProgressOptions = {}): Progress {
  const { every = 25, intervalMs = 5_000, now = Date.now } = options;
  let count = 0;
  const live = Boolean(stream.isTTY) && total > 1;
  let last = now();
  const width = 30;
  return {
    tick(label = '') {
      count = Math.min(total, count + 1);
      if (live) {
        const filled = Math.round((count / total) * width);
        const bar = `${'#'.repeat(filled)}${'-'.repeat(width - filled)}`;
        stream.write(`\r[${bar}] ${count}/${total} ${label.slice(0, 40).padEnd(40)}`);
        return;
      }
      // The last item is told by the summary.
      if (count === total || (count % every !== 0 && now() - last < intervalMs)) return;
      last = now();
      stream.write(`progress: ${count}/${total} (${Math.floor((count / total) * 100)}%) ${label}\n`);
    },
    done(summary) {
      if (live) stream.write('\r\x1b[K');
      stream.write(`${summary}\n`);
    },
  };
}
