// CPU time of synchronous work, for the "it completes" bounds of the hostile-input tests (a quadratic
// step takes hours; these bounds only catch that). Other processes on a loaded machine stretch the wall
// clock, not this process's CPU time, so the bound holds however busy the machine is.

/** What `work` returned, and the CPU milliseconds (user + system) this process spent on it. */
export function withCpuMs<T>(work: () => T): { result: T; cpuMs: number } {
  const before = process.cpuUsage();
  const result = work();
  const { user, system } = process.cpuUsage(before);
  return { result, cpuMs: (user + system) / 1_000 };
}
