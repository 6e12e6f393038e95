// The client of the search's scripts auto-pipelines: the commands issued in one tick leave in one socket
// write (with many searches in flight, the callers one reply wakes send their next commands together: one
// write syscall per batch instead of one per command; docs/benchmarks.md "Issue 33, c32"). The others
// write each command at once (a flight's release, not awaited, must not leave after the answer).

import { afterEach, describe, expect, it } from 'vitest';
import { RedisConnection } from '../../src/adapters/redis/client.js';
import { serviceAvailable } from '../support/services.js';
import { deleteKeys, REDIS_URL, testPrefix } from './redis-kit.js';

const redis = await serviceAvailable('Redis');

describe.skipIf(!redis)('websift-made Redis clients', () => {
  const prefix = testPrefix('writes');
  const closers: RedisConnection[] = [];
  afterEach(async () => {
    for (const connection of closers.splice(0)) await connection.close();
    await deleteKeys(prefix);
  });

  /** Socket writes for ten SETs then ten GETs, each batch issued in one tick. */
  async function writesOf(pipelined: boolean): Promise<number> {
    const connection = new RedisConnection({ url: REDIS_URL, prefix }, 'test', pipelined);
    closers.push(connection);
    const client = await connection.client();
    await client.set(`${prefix}warm`, 'x', 'PX', 10_000); // connected and ready
    const stream = (client as unknown as { stream: { write: (...args: unknown[]) => boolean } }).stream;
    const write = stream.write;
    let writes = 0;
    stream.write = function (this: unknown, ...args: unknown[]) {
      writes++;
      return write.apply(this, args);
    };
    try {
      const keys = Array.from({ length: 10 }, (_, i) => `${prefix}k${i}`);
      await Promise.all(keys.map((key, i) => client.set(key, String(i), 'PX', 10_000)));
      expect(await Promise.all(keys.map((key) => client.get(key)))).toEqual(keys.map((_, i) => String(i)));
      return writes;
    } finally {
      stream.write = write;
    }
  }

  it("the search scripts' client sends the commands of one tick in one socket write, each answered as its own", async () => {
    expect(await writesOf(true)).toBe(2); // one per tick: the ten SETs, then the ten GETs
  });

  it('the other clients write each command at once', async () => {
    expect(await writesOf(false)).toBe(20);
  });
});
