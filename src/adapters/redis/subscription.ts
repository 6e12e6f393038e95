// A dedicated subscriber connection on one channel (pub/sub needs its own connection): subscribed
// again on every reconnect by us (ioredis only resubscribes channels it once subscribed, so a first
// connection that failed would never be), `live` only while subscribed.

import { closeClient, type RedisClientLike, type RedisConnection } from './client.js';

export interface Subscription {
  /** True while subscribed: messages published now will arrive. */
  readonly live: boolean;
  /** Resolves when first subscribed; rejects if closed before. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

export interface SubscriptionHandlers {
  message(text: string): void;
  /** Runs each time the channel is (re)subscribed: anything published while away was lost. */
  subscribed(): void;
}

export function subscribeChannel(connection: RedisConnection, channel: string, handlers: SubscriptionHandlers): Subscription {
  let live = false;
  let closed = false;
  let markReady!: () => void;
  let failReady!: (error: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  ready.catch(() => {}); // nobody has to await it

  async function start(): Promise<RedisClientLike> {
    const client = await connection.duplicate({ autoResubscribe: false });
    if (closed) {
      client.disconnect();
      throw new Error('websift/redis: the adapter is closed');
    }
    client.on('message', (from: string, text: string) => {
      if (from === channel) handlers.message(text);
    });
    client.on('close', () => {
      live = false;
    });
    client.on('ready', () => {
      client.subscribe(channel).then(
        () => {
          if (closed) return;
          live = true;
          handlers.subscribed();
          markReady();
        },
        (error: unknown) => connection.onError(error), // dropped again; the next 'ready' retries
      );
    });
    if (client.status === 'wait') await connection.connect(client);
    return client;
  }

  const started = start();
  started.catch(connection.onError);
  return {
    get live() {
      return live;
    },
    ready,
    async close() {
      closed = true;
      live = false;
      failReady(new Error('websift/redis: closed before the subscriber was ready'));
      const client = await started.catch(() => undefined);
      if (client) await closeClient(client);
    },
  };
}
