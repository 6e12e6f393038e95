// The load generator of the HTTP benches, run in a child process (the bench's own file with --client) so
// the server's CPU figures hold none of its work.

import { createRequire } from 'node:module';

export interface ClientJob {
  url: string;
  headers: Record<string, string>;
  seconds: number;
  connections: number;
}
export interface ClientReport {
  total: number;
  seconds: number;
  failed: number;
}

/** The child's part: one autocannon run (by duration: with a request count it stops only on its 1 s tick). */
export async function runClient(job: string): Promise<never> {
  const { url, headers, seconds, connections } = JSON.parse(job) as ClientJob;
  type Autocannon = (
    options: Record<string, unknown>,
  ) => Promise<{ requests: { total: number }; duration: number; non2xx: number; errors: number; timeouts: number }>;
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
  // idReplacement: each [<id>] in the URL becomes a fresh id, i.e. a new query per request.
  const result = await autocannon({ url, headers, duration: seconds, connections, idReplacement: true });
  const report: ClientReport = {
    total: result.requests.total,
    seconds: result.duration,
    failed: result.non2xx + result.errors + result.timeouts,
  };
  process.stdout.write(JSON.stringify(report));
  process.exit(0);
}

/**
 * Sends `requests` GETs of `url` + a fresh id (a new query each) over `connections` kept-alive
 * connections, one request per connection at a time; resolves to how many did not answer 200.
 */
export async function sendCounted(url: string, headers: Record<string, string>, requests: number, connections: number): Promise<number> {
  const { Agent, get } = await import('node:http');
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  let left = requests;
  let failed = 0;
  const one = (): Promise<void> =>
    new Promise((resolve) =>
      get(`${url}${nextId++}`, { headers, agent }, (res) => {
        if (res.statusCode !== 200) failed++;
        res.resume().on('end', resolve);
      }).on('error', () => {
        failed++;
        resolve();
      }),
    );
  const loop = async () => {
    while (left-- > 0) await one();
  };
  await Promise.all(Array.from({ length: connections }, loop));
  agent.destroy();
  return failed;
}
let nextId = 0;
