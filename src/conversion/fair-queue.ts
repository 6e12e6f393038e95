// Who converts next: per-organization queues in front of the worker pool, served in turn.
//
// - Round robin: an organization that just got a worker goes to the back of the line, so one
//   organization's backlog never delays another's pages by more than one turn.
// - A spare worker beyond the threads: `slots` pages convert at once, all organizations together, and
//   one more (`spare`) only for an organization with nothing converting. So a lone organization uses
//   every thread, and a newcomer never waits behind another organization's slow pages: while every
//   thread is busy its first page starts on the spare at once.
// - A bounded backlog: pages queued or converting per organization; past it a page is refused at once.

/** Thrown by `acquire` when the organization already has `backlog` pages queued or converting. */
export class BacklogFullError extends Error {
  override name = 'BacklogFullError' as const;
  constructor(readonly backlog: number) {
    super(`The organization already has ${backlog} pages waiting for or in conversion`);
  }
}

export interface FairQueueOptions {
  /** Workers: pages converting at once, all organizations together. */
  slots: number;
  /** Extra workers only an organization with nothing converting may take (default 1). */
  spare?: number;
  /** Pages queued or converting per organization. */
  backlog: number;
}

export interface FairQueue {
  /**
   * Waits for the organization's turn at a free worker; resolves with the function that gives the
   * worker back (call it once the page is done). Rejects with BacklogFullError at once when the
   * organization's backlog is full, with the signal's reason when it aborts while queued (the page
   * then leaves the queue), and with `closed`'s error after close.
   */
  acquire(org: string, signal: AbortSignal): Promise<() => void>;
  /** Pages queued and converting of one organization (0 for an unknown one). */
  pending(org: string): { queued: number; running: number };
  /** Pages queued and converting across every organization (for metrics). */
  totals(): { queued: number; running: number };
  /** Rejects every queued page with `error`; later acquires reject with it too. */
  close(error: Error): void;
}

interface Waiter {
  grant(release: () => void): void;
  fail(error: unknown): void;
}

interface OrgLine {
  waiting: Waiter[];
  running: number;
}

export function createFairQueue({ slots, spare = 1, backlog }: FairQueueOptions): FairQueue {
  if (!(Number.isInteger(slots) && slots >= 1)) throw new RangeError('slots must be a positive integer');
  if (!(Number.isInteger(spare) && spare >= 0)) throw new RangeError('spare must be a non-negative integer');
  if (!(Number.isInteger(backlog) && backlog >= 1)) throw new RangeError('backlog must be a positive integer');
  // Every organization with pages queued or converting; Map order is the round-robin order.
  const lines = new Map<string, OrgLine>();
  let running = 0;
  let closedWith: Error | undefined;

  const forget = (org: string, line: OrgLine) => {
    if (line.waiting.length === 0 && line.running === 0) lines.delete(org);
  };

  function dispatch(): void {
    for (;;) {
      let chosen: [string, OrgLine] | undefined;
      for (const entry of lines) {
        const line = entry[1];
        if (line.waiting.length > 0 && (running < slots || (line.running === 0 && running < slots + spare))) {
          chosen = entry;
          break;
        }
      }
      if (!chosen) return;
      const [org, line] = chosen;
      const waiter = line.waiting.shift() as Waiter;
      line.running++;
      running++;
      // To the back of the line: the next free worker goes to another organization first.
      lines.delete(org);
      lines.set(org, line);
      let released = false;
      waiter.grant(() => {
        if (released) return;
        released = true;
        line.running--;
        running--;
        forget(org, line);
        dispatch();
      });
    }
  }

  return {
    acquire(org, signal) {
      if (closedWith) return Promise.reject(closedWith);
      if (signal.aborted) return Promise.reject(signal.reason);
      let line = lines.get(org);
      if (line && line.waiting.length + line.running >= backlog) return Promise.reject(new BacklogFullError(backlog));
      if (!line) lines.set(org, (line = { waiting: [], running: 0 }));
      const own = line;
      return new Promise<() => void>((resolve, reject) => {
        const onAbort = () => {
          const i = own.waiting.indexOf(waiter);
          if (i >= 0) own.waiting.splice(i, 1);
          forget(org, own);
          reject(signal.reason);
        };
        const waiter: Waiter = {
          grant(release) {
            signal.removeEventListener('abort', onAbort);
            resolve(release);
          },
          fail(error) {
            signal.removeEventListener('abort', onAbort);
            reject(error);
          },
        };
        own.waiting.push(waiter);
        signal.addEventListener('abort', onAbort, { once: true });
        dispatch();
      });
    },
    pending(org) {
      const line = lines.get(org);
      return { queued: line?.waiting.length ?? 0, running: line?.running ?? 0 };
    },
    totals() {
      let queued = 0;
      for (const line of lines.values()) queued += line.waiting.length;
      return { queued, running };
    },
    close(error) {
      closedWith ??= error;
      for (const [org, line] of lines) {
        for (const waiter of line.waiting.splice(0)) waiter.fail(error);
        forget(org, line);
      }
    },
  };
}
