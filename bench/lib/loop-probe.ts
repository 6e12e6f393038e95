// How free the host thread stays while work runs: a timer due every 20 ms, and per tick
//  - lateness: how late it ran (wall clock; monitorEventLoopDelay's max too), and
//  - busy: the CPU time the host thread itself spent since the previous tick (Linux:
//    /proc/thread-self/schedstat), i.e. the part of a late tick that was this thread's own work.
// On a loaded machine a tick is also late while the thread waits for a core; `busy` does not count
// that, so a bound on it holds the code, not the machine (elsewhere it falls back to lateness).

import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface LoopFigures {
  /** The largest lateness of a 20 ms timer, ms (wall clock). */
  lateMaxMs: number;
  /** monitorEventLoopDelay's max, ms. */
  loopMaxMs: number;
  /** The most CPU time the host thread spent between two ticks, ms (lateness where schedstat is missing). */
  busyMaxMs: number;
  /** Ticks seen. */
  ticks: number;
}

/** The host thread's own CPU time so far, ms, or null off Linux. */
function threadCpuMs(): number | null {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0]) / 1e6;
  } catch {
    return null;
  }
}

/** Runs `work` and measures the event loop while it runs. */
export async function probeLoop<T>(work: () => Promise<T>): Promise<LoopFigures & { result: T }> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const figures = { lateMaxMs: 0, loopMaxMs: 0, busyMaxMs: 0, ticks: 0 };
  let due = performance.now() + 20;
  let cpu = threadCpuMs();
  let ticked: (() => void) | undefined;
  const probe = setInterval(() => {
    const now = performance.now();
    const late = Math.max(0, now - due);
    const cpuNow = threadCpuMs();
    figures.lateMaxMs = Math.max(figures.lateMaxMs, late);
    const busy = cpuNow !== null && cpu !== null ? cpuNow - cpu : late;
    figures.busyMaxMs = Math.max(figures.busyMaxMs, busy);
    figures.ticks++;
    cpu = cpuNow;
    due = Math.max(due + 20, now);
    ticked?.();
  }, 20);
  loop.enable();
  try {
    const result = await work();
    // One more tick: it sees the time the work's last turn took.
    await new Promise<void>((resolve) => (ticked = resolve));
    return { ...figures, loopMaxMs: loop.max / 1e6, result };
  } finally {
    loop.disable();
    clearInterval(probe);
  }
}
