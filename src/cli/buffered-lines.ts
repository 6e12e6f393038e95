// Where `websift serve`'s access log goes: lines gathered in memory and written together, synchronously,
// when MAX_PENDING characters are waiting, FLUSH_MS after the first one, on `close()` and when the process
// exits (an `exit` listener: process.exit, the second SIGTERM, an uncaught exception). One write per line
// was a system call per request on the hot path (docs/benchmarks.md, "Observability"). The write itself is
// sonic-boom's synchronous one (pino's destination), which retries a full pipe (EAGAIN) instead of losing
// the line. A SIGKILL loses at most FLUSH_MS of lines.

import { pino } from 'pino';

/** Characters waiting that trigger a write (lines are ASCII but for odd paths: about as many bytes). */
export const MAX_PENDING = 16_384;
/** How long a line may wait for others before it is written anyway. */
export const FLUSH_MS = 500;

export interface BufferedLines {
  write(line: string): void;
  /** Writes what is waiting, now. */
  flush(): void;
  /** Flushes and stops (the destination stays open: stdout). */
  close(): void;
}

export interface BufferedLinesOptions {
  /** Where the batches go (default: stdout, through a synchronous pino destination). */
  destination?: { write(chunk: string): unknown };
  maxPending?: number;
  flushMs?: number;
}

export function bufferedLines(options: BufferedLinesOptions = {}): BufferedLines {
  const destination = options.destination ?? pino.destination({ dest: 1, sync: true });
  const maxPending = options.maxPending ?? MAX_PENDING;
  const flushMs = options.flushMs ?? FLUSH_MS;
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (pending === '') return;
    const chunk = pending;
    pending = '';
    destination.write(chunk);
  };
  process.on('exit', flush);
  return {
    write(line) {
      pending += line;
      if (pending.length >= maxPending) flush();
      // One timer per batch, not per line; unref'd: waiting lines never hold the process open.
      else if (timer === undefined) timer = setTimeout(flush, flushMs).unref();
    },
    flush,
    close() {
      flush();
      process.off('exit', flush);
    },
  };
}
