// Long work on the host thread, one slice per turn of the event loop. Callers that cut a big job into
// slices (decoding a 10 MiB page, serializing a 30 MB answer) await `nextTurn()` before each slice;
// the turns are handed out one per loop iteration across all callers, so twenty pages decoding at
// once still leave the loop's timers and sockets a turn between every two slices (a setImmediate per
// caller would run all their slices in one check phase).

const waiting: Array<() => void> = [];
let scheduled = false;

function runOne(): void {
  const next = waiting.shift();
  // Scheduled from inside the check phase, the next immediate runs on the next loop iteration.
  scheduled = waiting.length > 0;
  if (scheduled) setImmediate(runOne);
  next?.();
}

/** Resolves on a later turn of the event loop: one waiting caller per turn, first come first served. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!scheduled) {
      scheduled = true;
      setImmediate(runOne);
    }
  });
}
