// redisKeyEvents: the KeyEvents port over Redis pub/sub. Revocations are published on the channel
// `<prefix>key-revoked` (the message is the key's SHA-256 digest, never the key); each instance
// listens on a dedicated subscriber connection. Pub/sub keeps no backlog, so while that connection
// is down `live` is false (callers stop trusting their caches), and each time it is subscribed again
// the listeners' onReset runs (announcements made meanwhile are lost).

import type { KeyEvents } from '../../ports/key-events.js';
import { RedisConnection, type RedisConnectionOptions } from './client.js';
import { type Subscription, subscribeChannel } from './subscription.js';

export interface RedisKeyEvents extends KeyEvents {
  /** Resolves once the subscriber is first subscribed (or rejects when closed first); optional to await. */
  ready(): Promise<void>;
}

type Listener = { onRevoked: (digest: string) => void; onReset: () => void };

/**
 * API-key revocations announced to every instance over Redis pub/sub, so each engine's key cache drops
 * a revoked key at once (not after its 5 s TTL). Pass it as `createEngine({ keyEvents })`; not closed by
 * the engine. While its subscriber is disconnected, `live` is false and caches are bypassed.
 * Needs the optional peer `ioredis` (`npm install ioredis`), loaded on first use; give `url` or your own `client`.
 * @throws {TypeError} at creation unless exactly one of `url` and `client` is given, or for a bad option (RangeError for numbers out of range).
 */
export function redisKeyEvents(options: RedisConnectionOptions): RedisKeyEvents {
  const connection = new RedisConnection(options, 'redisKeyEvents');
  const channel = `${connection.prefix}key-revoked`;
  const listeners = new Set<Listener>();
  let subscription: Subscription | undefined;
  let closed = false;

  /** Every listener, each shielded from the others' exceptions (one bad listener must not starve the rest). */
  const notify = (call: (listener: Listener) => void) => {
    for (const listener of [...listeners]) {
      try {
        call(listener);
      } catch (error) {
        connection.onError(error);
      }
    }
  };
  /** Started by the first subscribe: an instance that only publishes needs no subscriber. */
  const subscribed = () =>
    (subscription ??= subscribeChannel(connection, channel, {
      message: (digest) => notify((l) => l.onRevoked(digest)),
      subscribed: () => notify((l) => l.onReset()),
    }));

  return {
    get live() {
      return subscription?.live ?? false;
    },
    ready: () => (closed ? Promise.reject(new Error('websift/redis: key events closed')) : subscribed().ready),
    async publishRevoked(digest) {
      await (await connection.client()).publish(channel, digest);
    },
    subscribe(onRevoked, onReset) {
      const listener = { onRevoked, onReset };
      listeners.add(listener);
      subscribed();
      return () => {
        listeners.delete(listener);
      };
    },
    async close() {
      closed = true;
      await subscription?.close();
      await connection.close();
    },
  };
}
