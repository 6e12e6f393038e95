// A cluster of `websift serve` instances on one PostgreSQL schema and one Redis database, with the
// scripted web they search and extract (fake SearXNG ×2, a page server), and an HTTP client that
// retries a call with its idempotency key on another instance when its instance dies under it.
// Shared by the multi-process test and the scale-out benchmark.

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { type PageServer, startPageServer } from '../../src/testing/index.js';
import { type FakeSearxng, startFakeSearxng } from './fake-searxng.js';
import { type Instance, startInstance } from './instances.js';

export interface ClusterOptions {
  instances: number;
  database: string;
  redis: string;
  /** Passed to createEngine through the serve config (rate limit, postgres lease…). */
  engine?: Record<string, unknown>;
}

export interface Reply {
  status: number;
  body: any;
  /** The instance that finally answered. */
  instance: number;
  /** Attempts made (1 when the first instance answered). */
  attempts: number;
  /** Statuses of the retryable refusals (503, 504) retried on the way: counted, never charged. */
  refused: number[];
}

/** The page server serves /page/0 … /page/(PAGES - 1). */
export const PAGES = 5;

const article = (n: number) =>
  `<!doctype html><html><head><title>Page ${n}</title></head><body><nav><a href="/">Home</a></nav><article><h1>Page ${n}</h1>` +
  `${'<p>A paragraph of the story, long enough to be the main content of this page. '.repeat(6)}</p>`.repeat(4) +
  '</article><footer>© Example</footer></body></html>';

export class Cluster {
  readonly slots: (Instance | undefined)[];
  readonly #starting: (Promise<Instance> | undefined)[];
  readonly #options: ClusterOptions;
  readonly #config: string;
  readonly #dir: string;
  readonly #dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: 64 });
  readonly pages: PageServer;
  readonly searx: FakeSearxng[];
  #next = 0;

  private constructor(options: ClusterOptions, dir: string, config: string, pages: PageServer, searx: FakeSearxng[]) {
    this.#options = options;
    this.#dir = dir;
    this.#config = config;
    this.pages = pages;
    this.searx = searx;
    this.slots = Array.from({ length: options.instances }, () => undefined);
    this.#starting = Array.from({ length: options.instances }, () => undefined);
  }

  static async start(options: ClusterOptions): Promise<Cluster> {
    // Every page a test names is served (PAGES): a 404 among a crawl's URLs leaves it uncharged for
    // that URL, so the call opens no window to repeat and the extract repeats would go unmeasured.
    const pages = await startPageServer(
      Object.fromEntries(
        Array.from({ length: PAGES }, (_, n) => [`/page/${n}`, { headers: { 'content-type': 'text/html' }, body: article(n) }]),
      ),
    );
    const searx = [await startFakeSearxng(pages.origin), await startFakeSearxng(pages.origin)];
    const dir = mkdtempSync(join(tmpdir(), 'websift-cluster-'));
    const config = join(dir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({
        localIndex: false,
        sources: searx.map((s, i) => ({ type: 'searxng', id: `searx-${i}`, baseUrl: s.url })),
        engine: { allowPrivateNetwork: true, ...options.engine },
      }),
    );
    const cluster = new Cluster(options, dir, config, pages, searx);
    await Promise.all(cluster.slots.map((_, i) => cluster.restart(i)));
    return cluster;
  }

  /** (Re)starts the instance of slot `i`. */
  restart(i: number): Promise<Instance> {
    const starting = startInstance({ database: this.#options.database, redis: this.#options.redis, config: this.#config });
    this.#starting[i] = starting;
    return starting.then((instance) => {
      this.slots[i] = instance;
      return instance;
    });
  }

  /** SIGKILLs the instance of slot `i` (its slot stays empty until restart). */
  async kill(i: number): Promise<void> {
    const instance = this.slots[i];
    this.slots[i] = undefined;
    await instance?.kill();
  }

  /** A live slot, round robin (waits for one when all are down). */
  async #pick(avoid?: number): Promise<number> {
    for (;;) {
      for (let tries = 0; tries < this.slots.length; tries++) {
        const i = this.#next++ % this.slots.length;
        if (this.slots[i] && i !== avoid) return i;
      }
      if (avoid !== undefined && this.slots[avoid]) return avoid;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /**
   * One API call. A network failure (the instance died), 409 `idempotency_in_progress` (the dead
   * instance's claim has not expired yet) or a retryable 503/504 is retried on another instance with the
   * same idempotency key, until an answer comes.
   */
  async call(path: string, key: string, body?: unknown, options: { idempotencyKey?: string; instance?: number } = {}): Promise<Reply> {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    let last: number | undefined;
    const refused: number[] = [];
    for (let attempt = 1; ; attempt++) {
      const i = attempt === 1 && options.instance !== undefined && this.slots[options.instance] ? options.instance : await this.#pick(last);
      const url = this.slots[i]!.url;
      let response: Response;
      try {
        response = await fetch(`${url}${path}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers,
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          // @ts-expect-error undici's dispatcher option of Node's fetch
          dispatcher: this.#dispatcher,
        });
      } catch {
        if (!options.idempotencyKey && body !== undefined)
          throw new Error(`${path}: instance ${i} died and the call has no idempotency key`);
        last = i;
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      const json = await response.json().catch(() => null);
      // As a client would: every retryable refusal is retried, nothing having been charged. A search's 503
      // (a window Redis could not read while up, docs/engine.md) carries no code, an extract's is
      // cache_unavailable; an extract's 504 (its deadline passed on a loaded host) is retryable too.
      const retry = response.status === 409 || ((response.status === 503 || response.status === 504) && json?.retryable === true);
      if (retry && attempt < 400) {
        if (response.status !== 409) refused.push(response.status);
        last = i;
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      return { status: response.status, body: json, instance: i, attempts: attempt, refused };
    }
  }

  newKey(): string {
    return randomUUID();
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.#starting);
    await Promise.all(this.slots.map((s) => s?.stop()));
    await this.#dispatcher.close();
    await Promise.all([this.pages.close(), ...this.searx.map((s) => s.close())]);
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
