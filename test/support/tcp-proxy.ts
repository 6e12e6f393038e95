// A TCP proxy in front of a real server, to inject the network faults a networked ledger must survive,
// without touching the server itself. One proxy, one fault at a time (`mode`):
//   'forward'       bytes flow both ways (the default);
//   'partition'     no byte moves either way, sockets stay open, nothing is reset: what a dropped-packet
//                   partition looks like to both ends. Bytes sent meanwhile are held and delivered on
//                   heal (TCP retransmits them), so a statement sent during a partition may still run late;
//   'lose-replies'  the client's bytes reach the server (its statements run and commit), every reply is
//                   dropped and its connection cut: "committed, then the reply was lost".
// stop()/start() take the server away entirely (connections cut, new ones refused) and back.

import { connect, createServer, type Server, type Socket } from 'node:net';

export type ProxyMode = 'forward' | 'partition' | 'lose-replies';

export interface TcpProxy {
  readonly port: number;
  /** The current fault; setting 'forward' heals a partition (held bytes flow on). */
  mode: ProxyMode;
  /** 'lose-replies' for the next reply only: that connection is cut, then the proxy forwards again. */
  loseNextReply(): void;
  /** Connections cut by 'lose-replies' so far. */
  readonly repliesLost: number;
  /** Cuts every open connection and stops listening: connections are refused. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function tcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  let server: Server | undefined;
  let port = 0;
  let mode: ProxyMode = 'forward';
  let oneShot = false;
  let repliesLost = 0;

  const setMode = (next: ProxyMode) => {
    mode = next;
    // Paused sockets read nothing: their bytes wait in the kernel, as unacknowledged TCP segments would.
    for (const { client, upstream } of pairs) {
      if (next === 'partition') {
        client.pause();
        upstream.pause();
      } else {
        client.resume();
        upstream.resume();
      }
    }
  };

  const listen = async () => {
    server = createServer((client) => {
      const upstream = connect(target);
      const pair = { client, upstream };
      pairs.add(pair);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('close', () => {
          sockets.delete(s);
          pairs.delete(pair);
        });
        s.on('error', () => undefined);
      }
      client.on('data', (chunk: Buffer) => {
        if (!upstream.write(chunk)) client.pause();
      });
      upstream.on('drain', () => mode !== 'partition' && client.resume());
      upstream.on('data', (chunk: Buffer) => {
        if (mode === 'lose-replies') {
          repliesLost++;
          if (oneShot) {
            oneShot = false;
            mode = 'forward';
          }
          client.destroy();
          upstream.destroy();
          return;
        }
        if (!client.write(chunk)) upstream.pause();
      });
      client.on('drain', () => mode !== 'partition' && upstream.resume());
      client.on('end', () => upstream.end());
      upstream.on('end', () => client.end());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      if (mode === 'partition') {
        client.pause();
        upstream.pause();
      }
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  };
  const stop = async () => {
    for (const s of sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
  };
  await listen();
  return {
    get port() {
      return port;
    },
    get mode() {
      return mode;
    },
    set mode(next: ProxyMode) {
      oneShot = false;
      setMode(next);
    },
    loseNextReply() {
      setMode('lose-replies');
      oneShot = true;
    },
    get repliesLost() {
      return repliesLost;
    },
    stop,
    start: listen,
    close: stop,
  };
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
