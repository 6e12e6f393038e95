// Listens on 127.0.0.1 (random port) and keeps every open socket, so close() ends at once instead of
// waiting for keep-alive or tunnelled connections to drain. Shared by the stealth egress proxy and the
// test page server.

import type { Server } from 'node:net';
import type { Duplex } from 'node:stream';

export interface LoopbackListener {
  readonly port: number;
  /** Also destroys `socket` on close (for sockets the server did not accept itself, e.g. upstreams). */
  track(socket: Duplex): void;
  /** Destroys every tracked socket, then closes the server. */
  close(): Promise<void>;
}

export async function listenOnLoopback(server: Server): Promise<LoopbackListener> {
  const sockets = new Set<Duplex>();
  const track = (socket: Duplex): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  server.on('connection', track);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('loopback server has no TCP address');
  return {
    port: address.port,
    track,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
