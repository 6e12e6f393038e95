// Where `websift serve`'s access log goes: lines gathered in memory and written together, synchronously,
// when MAX_PENDING bytes are waiting, FLUSH_MS after the first one, on `close()` and when the process
// exits (an `exit` listener: process.exit, the second SIGTERM, an uncaught exception). One write per line
// was a system call per request on the hot path (docs/benchmarks.md, "Observability"). The lines wait as
// bytes in one reused buffer (line-buffer.ts), into which the access log writes its line directly. The write
// itself is sonic-boom's synchronous one (pino's destination, in buffer mode), which retries a full pipe
// (EAGAIN) instead of losing the line. A SIGKILL loses at most FLUSH_MS of lines.

import { pino } from 'pino';
import { LineBuffer } from './line-buffer.js';

/** Bytes waiting that trigger a write. */
export const MAX_PENDING = 16_384;
/** How long a line may wait for others before it is written anyway. */
export const FLUSH_MS = 500;

/** Takes a batch; done with its bytes when `write` returns (they are reused). */
export interface LineDestination {
  write(chunk: Buffer): unknown;
}

/** A synchronous pino destination taking bytes (sonic-boom in buffer mode: it writes them as they are, no copy). */
export function lineDestination(dest: number | string = 1): LineDestination {
  return pino.destination({ dest, sync: true, contentMode: 'buffer' }) as unknown as LineDestination;
}

export interface BufferedLinesOptions {
  /** Where the batches go (default: stdout, `lineDestination()`). */
  destination?: LineDestination;
  maxPending?: number;
  flushMs?: number;
}

export class BufferedLines {
  /**
   * The waiting lines' bytes. A writer may append a line to it directly (the access log), then call `wrote()`;
   * between the two nothing else may write.
   */
  readonly pending = new LineBuffer();
  readonly #destination: LineDestination;
  readonly #maxPending: number;
  readonly #flushMs: number;
  #timer: NodeJS.Timeout | undefined = undefined;
  /** Writes what is waiting, now. */
  readonly flush = (): void => {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.pending.length === 0) return;
    // The destination is synchronous: done with the bytes when it returns, so the buffer is reused.
    const chunk = this.pending.view();
    this.pending.clear();
    this.#destination.write(chunk);
  };

  constructor(options: BufferedLinesOptions = {}) {
    this.#destination = options.destination ?? lineDestination();
    this.#maxPending = options.maxPending ?? MAX_PENDING;
    this.#flushMs = options.flushMs ?? FLUSH_MS;
    process.on('exit', this.flush);
  }

  /** A line (any string: pino's error lines). */
  write(line: string): void {
    this.pending.text(line);
    this.wrote();
  }

  /** A line was appended to `pending`: written when enough wait, else within FLUSH_MS. */
  wrote(): void {
    if (this.pending.length >= this.#maxPending) this.flush();
    // One timer per batch, not per line; unref'd: waiting lines never hold the process open.
    else if (this.#timer === undefined) this.#timer = setTimeout(this.flush, this.#flushMs).unref();
  }

  /** Flushes and stops (the destination stays open: stdout). */
  close(): void {
    this.flush();
    process.off('exit', this.flush);
  }
}

export const bufferedLines = (options: BufferedLinesOptions = {}): BufferedLines => new BufferedLines(options);
