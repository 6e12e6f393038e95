// Reading websift/metrics' Prometheus text in tests.

/** The value of one sample line, e.g. `websift_pages_total{outcome="success"}`; undefined when absent. */
export function sample(text: string, line: string): number | undefined {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}
