// The Redis connection every websift/redis adapter uses: ioredis, imported only when an adapter is
// first used (it is an optional peer dependency), or the caller's own client. Typed structurally so
// websift's .d.ts never needs ioredis's types.

/** The part of an ioredis `Redis` (or `Cluster`) client the adapters use. */
export interface RedisClientLike {
  readonly status: string;
  connect(): Promise<void>;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, px: 'PX', ms: number): Promise<unknown>;
  set(key: string, value: string, px: 'PX', ms: number, nx: 'NX'): Promise<'OK' | null>;
  del(...keys: string[]): Promise<number>;
  publish(channel: string, message: string): Promise<number>;
  subscribe(...channels: string[]): Promise<unknown>;
  defineCommand(name: string, definition: { numberOfKeys: number; lua: string }): void;
  duplicate(override?: Record<string, unknown>): RedisClientLike;
  on(event: string, listener: (...args: any[]) => void): unknown;
  off(event: string, listener: (...args: any[]) => void): unknown;
  quit(): Promise<unknown>;
  disconnect(): void;
}

export interface RedisConnectionOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://`): websift creates the client and closes it. */
  url?: string;
  /**
   * Your own ioredis client (`Redis` or `Cluster`) instead of `url`: websift never closes it. Give it
   * `enableOfflineQueue: false` and a `commandTimeout` so that an outage fails calls fast (see docs/redis.md).
   */
  client?: RedisClientLike;
  /** Prefix of every key (and channel) the adapter writes, e.g. `websift:prod:`; default `websift:`. */
  prefix?: string;
  /** A command not answered within this is rejected (default 500 ms); also the connect timeout. */
  commandTimeoutMs?: number;
  /** Told about every Redis error an adapter absorbed (a cache miss instead of a failure…); default: ignored. */
  onError?: (error: unknown) => void;
}

export const DEFAULT_PREFIX = 'websift:';
/** Connection errors that say Redis is not there (nothing listening, no such host), not that it is slow. */
const REFUSALS = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH']);
/** ioredis's statuses of a connection attempt in progress ('wait': lazy, not started). */
const FIRST_CONNECT = new Set(['wait', 'connecting', 'connect']);
const refusal = (error: unknown) => REFUSALS.has((error as { code?: unknown } | null)?.code as string);
const DEFAULT_COMMAND_TIMEOUT_MS = 500;

type IoredisConstructor = new (url: string, options: Record<string, unknown>) => RedisClientLike;

/** Imports ioredis; `specifier` is a parameter only so the missing-package error can be tested. */
export async function loadIoredis(specifier = 'ioredis'): Promise<IoredisConstructor> {
  try {
    // The literal import('ioredis') lets bundlers and our entry-point test see the dependency.
    const module = (await (specifier === 'ioredis' ? import('ioredis') : import(specifier))) as unknown as {
      default?: IoredisConstructor;
      Redis?: IoredisConstructor;
    };
    const Redis = module.Redis ?? module.default;
    if (typeof Redis !== 'function') throw new Error(`${specifier} exports no Redis class`);
    return Redis;
  } catch (cause) {
    throw new Error('websift/redis needs the ioredis package (an optional peer dependency): npm install ioredis', { cause });
  }
}

/**
 * Options of the clients websift creates. No offline queue and no per-request retries: while Redis
 * is unreachable a command fails at once instead of waiting in memory, so an outage never holds a
 * request; ioredis keeps reconnecting in the background (backoff up to 1 s).
 */
export function clientOptions(timeoutMs: number): Record<string, unknown> {
  return {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false, // a resent rate-limit take could be counted twice
    commandTimeout: timeoutMs,
    connectTimeout: timeoutMs,
    retryStrategy: (attempt: number) => Math.min(attempt * 50, 1_000),
  };
}

export function checkConnectionOptions(options: RedisConnectionOptions, what: string): void {
  if (options === null || typeof options !== 'object') throw new TypeError(`${what}: options must be an object`);
  if ((options.url === undefined) === (options.client === undefined)) throw new TypeError(`${what}: give either url or client`);
  if (options.url !== undefined && typeof options.url !== 'string') throw new TypeError(`${what}: url must be a string`);
  const t = options.commandTimeoutMs;
  if (t !== undefined && !(Number.isFinite(t) && t > 0)) throw new RangeError(`${what}: commandTimeoutMs must be a positive number`);
}

/** One lazily opened client: created (or the caller's taken) on first use, closed only if websift made it. */
export class RedisConnection {
  readonly prefix: string;
  readonly timeoutMs: number;
  readonly onError: (error: unknown) => void;
  readonly #options: RedisConnectionOptions;
  #client: Promise<RedisClientLike> | undefined;
  #owned: RedisClientLike | undefined;
  #closed = false;
  /** Clients seen ready at least once: after that a client not ready is an outage, not a first connection. */
  readonly #wasReady = new WeakSet<RedisClientLike>();
  /** How the last attempt of a client never ready failed: refused (Redis not listening: down) or not (slow). */
  readonly #failed = new WeakMap<RedisClientLike, 'refused' | 'slow'>();

  constructor(options: RedisConnectionOptions, what: string) {
    checkConnectionOptions(options, what);
    this.#options = options;
    this.prefix = options.prefix ?? DEFAULT_PREFIX;
    this.timeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    this.onError = options.onError ?? (() => {});
  }

  /** The client, connected on first use (a failed first connection leaves ioredis retrying; calls then fail fast). */
  client(): Promise<RedisClientLike> {
    if (this.#closed) return Promise.reject(new Error('websift/redis: the adapter is closed'));
    return (this.#client ??= this.#open());
  }

  /**
   * A new client on the same server (for a subscriber), always websift's to close. A duplicate of the
   * caller's client keeps the caller's options (timeouts, retry strategy) but for `override`.
   */
  async duplicate(override: Record<string, unknown>): Promise<RedisClientLike> {
    if (this.#options.client) return this.#watch(this.#options.client.duplicate({ lazyConnect: true, ...override }));
    const Redis = await loadIoredis();
    return this.#watch(new Redis(this.#options.url!, { ...clientOptions(this.timeoutMs), ...override }));
  }

  async #open(): Promise<RedisClientLike> {
    let client = this.#options.client;
    if (!client) {
      const Redis = await loadIoredis();
      client = this.#owned = this.#watch(new Redis(this.#options.url!, clientOptions(this.timeoutMs)));
    }
    this.#track(client);
    if (client.status === 'wait') await this.connect(client);
    return client;
  }

  #track(client: RedisClientLike): void {
    if (client.status === 'ready') this.#wasReady.add(client);
    client.on('ready', () => this.#wasReady.add(client));
    client.on('error', (error: unknown) => {
      if (!this.#wasReady.has(client)) this.#failed.set(client, refusal(error) ? 'refused' : 'slow');
    });
  }

  /**
   * True while `client` makes its first connection: never ready yet, connecting, its last attempt not
   * refused (nothing listening: an outage). A first attempt seen to fail otherwise (a ready check a loaded
   * Redis answered late) is retried by ioredis and still counts, between attempts too: a fresh instance
   * on a slow host is not an outage.
   */
  firstConnecting(client: RedisClientLike): boolean {
    if (this.#wasReady.has(client)) return false;
    const failed = this.#failed.get(client);
    return failed !== 'refused' && (FIRST_CONNECT.has(client.status) || (failed === 'slow' && client.status === 'reconnecting'));
  }

  /** Waits (at most `ms`) for a first connection in progress to end: ready, refused, or given up. Never rejects. */
  async firstReady(client: RedisClientLike, ms: number): Promise<void> {
    if (!this.firstConnecting(client)) return;
    let timer: NodeJS.Timeout | undefined;
    let check = () => {};
    const ended = new Promise<void>((resolve) => {
      check = () => {
        if (!this.firstConnecting(client)) resolve();
      };
      timer = setTimeout(resolve, ms); // a network bound in real time, not a Clock rule
      timer.unref();
    });
    const events = ['ready', 'error', 'end'];
    for (const event of events) client.on(event, check);
    try {
      if (client.status === 'wait') void client.connect().catch(() => {});
      await ended;
    } finally {
      clearTimeout(timer);
      for (const event of events) client.off(event, check);
    }
  }

  /**
   * Starts `client`'s connection and waits for it at most timeoutMs: ioredis's connect() can take far
   * longer (a server that accepts but never answers the ready check). Never rejects: a client still not
   * ready then fails its commands at once, while ioredis goes on connecting.
   */
  async connect(client: RedisClientLike): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.timeoutMs); // a network bound in real time, not a Clock rule
      timer.unref();
    });
    try {
      await Promise.race([client.connect().catch(this.onError), gaveUp]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** ioredis prints unhandled 'error' events; ours go to onError (the failing calls report themselves). */
  #watch(client: RedisClientLike): RedisClientLike {
    client.on('error', this.onError);
    return client;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#client?.catch(() => {}); // an open still in progress ends first, then its client is closed
    const owned = this.#owned;
    this.#owned = undefined;
    if (owned) await closeClient(owned);
  }
}

/** QUIT when connected (lets replies in flight arrive), else drop the socket and stop reconnecting. */
export async function closeClient(client: RedisClientLike): Promise<void> {
  if (client.status === 'ready') {
    try {
      await client.quit();
      return;
    } catch {
      // fall through: the connection went away meanwhile
    }
  }
  client.disconnect();
}
