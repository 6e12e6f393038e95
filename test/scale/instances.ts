// Real `websift serve` processes for the multi-process tests and benchmarks: each runs the CLI from
// source (tsx) with its own engine on the shared PostgreSQL and Redis, on a random port.

import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface Instance {
  readonly url: string;
  readonly pid: number;
  /** SIGKILL: no shutdown, no release of its holds (the others' lease sweep must do it). */
  kill(): Promise<void>;
  /** SIGTERM: the graceful shutdown of `websift serve`. */
  stop(): Promise<void>;
}

export interface InstanceOptions {
  database: string;
  redis?: string;
  /** Path of a JSON config (sources, engine options). */
  config: string;
  env?: Record<string, string>;
}

export async function startInstance(options: InstanceOptions): Promise<Instance> {
  // --start-unready, then /readyz until it answers 200: serve's own start check gives up after 5 s of
  // 1 s probes, which a fresh process's first connections miss on a loaded host (load ~30), and the
  // instance would exit before the test got to its assertions. Waiting on the condition has no such bound.
  const args = [
    '--import',
    'tsx',
    'src/cli/main.ts',
    'serve',
    '--port',
    '0',
    '--start-unready',
    '--config',
    options.config,
    '--database',
    options.database,
  ];
  if (options.redis) args.push('--redis', options.redis);
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      const match = /listening on (http:\/\/[^\s]+)/.exec(log);
      if (match) resolve(match[1]!);
      if (log.length > 100_000) log = log.slice(-10_000);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`websift serve exited (${code}) before listening:\n${log.slice(-4_000)}`)));
  });
  drain(child);
  await untilReady(url, exited, () => log);
  return {
    url,
    pid: child.pid!,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Keeps reading the child's output (one log line per request) so its pipes never fill. */
function drain(child: ChildProcess): void {
  child.stdout!.removeAllListeners('data');
  child.stderr!.removeAllListeners('data');
  child.stdout!.resume();
  child.stderr!.resume();
}

/** Asks /readyz until it answers 200, or rejects when the instance exits first. */
async function untilReady(url: string, exited: Promise<void>, log: () => string): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error(`websift serve exited before it was ready:\n${log().slice(-4_000)}`);
    const status = await fetch(`${url}/readyz`).then(
      async (r) => (await r.arrayBuffer(), r.status),
      () => 0,
    );
    if (status === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}
