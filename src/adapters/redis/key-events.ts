// redisKeyEvents: the KeyEvents port over Redis pub/sub. Revocations are published on the channel
// `<prefix>key-revoked` (the message is the key's SHA-256 digest, never the key); each instance
// listens on a dedicated subscriber connection. Pub/sub keeps no backlog, so while that connection
// is down `live` is false (callers stop trusting their caches), and each time it is subscribed again
// the listeners' onReset runs (announcements made meanwhile are lost).

import type { KeyEvents } from '../../ports/key-events.js';
import { closeClient, RedisConnection, type RedisClientLike, type RedisConnectionOptions } from './client.js';

export interface RedisKeyEvents extends KeyEvents {
  /** Resolves once the subscriber is first subscribed (or rejects when closed first); optional to await. */
  ready(): Promise<void>;
}

export function redisKeyEvents(options: RedisConnectionOptions): RedisKeyEvents {
  const connection = new RedisConnection(options, 'redisKeyEvents');
  const channel = `${connection.prefix}key-revoked`;
  const listeners = new Set<{ onRevoked: (digest: string) => void; onReset: () => void }>();
  let live = false;
  let closed = false;
  let subscriber: Promise<RedisClientLike> | undefined;
  let markReady!: () => void;
  let failReady!: (error: unknown) => void;
  const firstReady = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  firstReady.catch(() => {}); // nobody has to await it

  /** Every listener, each shielded from the others' exceptions (one bad listener must not starve the rest). */
  const notify = (call: (l: { onRevoked: (digest: string) => void; onReset: () => void }) => void) => {
    for (const listener of [...listeners]) {
      try {
        call(listener);
      } catch (error) {
        connection.onError(error);
      }
    }
  };

  async function start(): Promise<RedisClientLike> {
    // autoResubscribe off: we subscribe on every 'ready' ourselves, which also covers a first
    // connection that failed (ioredis only resubscribes channels it once subscribed).
    const client = await connection.duplicate({ autoResubscribe: false });
    if (closed) {
      client.disconnect();
      throw new Error('websift/redis: the adapter is closed');
    }
    client.on('message', (from: string, digest: string) => {
      if (from === channel) notify((l) => l.onRevoked(digest));
    });
    client.on('close', () => {
      live = false;
    });
    client.on('ready', () => {
      client.subscribe(channel).then(
        () => {
          if (closed) return;
          live = true;
          notify((l) => l.onReset()); // anything published while we were away is lost: start clean
          markReady();
        },
        (error: unknown) => connection.onError(error), // the connection dropped again; the next 'ready' retries
      );
    });
    if (client.status === 'wait') await connection.connect(client);
    return client;
  }

  return {
    get live() {
      return live;
    },
    ready: () => firstReady,
    async publishRevoked(digest) {
      await (await connection.client()).publish(channel, digest);
    },
    subscribe(onRevoked, onReset) {
      const listener = { onRevoked, onReset };
      listeners.add(listener);
      subscriber ??= start();
      subscriber.catch(connection.onError);
      return () => {
        listeners.delete(listener);
      };
    },
    async close() {
      closed = true;
      live = false;
      failReady(new Error('websift/redis: key events closed before the subscriber was ready'));
      const client = await subscriber?.catch(() => undefined);
      if (client) await closeClient(client);
      await connection.close();
    },
  };
}
