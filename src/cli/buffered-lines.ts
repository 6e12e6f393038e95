// Where `websift serve`'s access log goes: lines gathered in memory and written together, synchronously,
// when MAX_PENDING characters are waiting, FLUSH_MS after the first one, on `close()` and when the process
// exits (an `exit` listener: process.exit, the second SIGTERM, an uncaught exception). One write per line
// was a system call per request on the hot path (docs/benchmarks.md, "Observability"). The write itself is
// sonic-boom's synchronous one (pino's destination), which retries a full pipe (EAGAIN) instead of losing
// the line. The batch goes to it as bytes, encoded once into a reused buffer: given a string, sonic-boom
// measures it, encodes it to write it and encodes it again into a new buffer after the write (three passes
// and a batch-sized allocation per write). A SIGKILL loses at most FLUSH_MS of lines.

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

/** Takes a batch's bytes, done with them when `write` returns (they are reused). */
export interface LineDestination {
  write(chunk: Buffer): unknown;
}

/** A synchronous pino destination (sonic-boom) taking bytes: written as they are, retried on a full pipe. */
export function lineDestination(dest: number | string = 1): LineDestination {
  return pino.destination({ dest, sync: true, contentMode: 'buffer' }) as unknown as LineDestination;
}

export interface BufferedLinesOptions {
  /** Where the batches go (default: stdout, `lineDestination()`). */
  destination?: LineDestination;
  maxPending?: number;
  flushMs?: number;
}

export function bufferedLines(options: BufferedLinesOptions = {}): BufferedLines {
  const destination = options.destination ?? lineDestination();
  const maxPending = options.maxPending ?? MAX_PENDING;
  const flushMs = options.flushMs ?? FLUSH_MS;
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  /** The batch's bytes, reused: room for a UTF-16 unit's three UTF-8 bytes, grown for a longer batch. */
  let bytes = Buffer.allocUnsafeSlow(3 * (maxPending + 4096));
  const flush = () => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (pending === '') return;
    const chunk = pending;
    pending = '';
    if (3 * chunk.length > bytes.length) bytes = Buffer.allocUnsafeSlow(3 * chunk.length);
    const view = bytes.subarray(0, bytes.write(chunk, 0, 'utf8'));
    try {
      destination.write(view);
    } catch (error) {
      bytes = Buffer.allocUnsafeSlow(bytes.length); // the destination may keep the unwritten bytes: not reused
      throw error;
    }
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
