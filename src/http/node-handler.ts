// createNodeHandler: a thin node:http adapter over the same API core as the fetch handler. It reads the
// request body as a pull stream (stopping at the size limit) and writes the reply in one piece. It
// builds no fetch Request/Response (their construction cost more than the rest of the adapter) and
// patches no globals.

import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Engine } from '../types/index.js';
import { createApiHandler } from './api-handler.js';
import type { ApiReply, ApiRequest } from './exchange.js';
import { BodyAlreadyReadError } from './http-errors.js';
import { piecesLength } from './json-pieces.js';
import type { FetchHandlerOptions } from './options.js';

/** A `node:http` request listener (also an Express/Connect middleware: it answers every request it gets). */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * What a framework may have left on the request (Express, Nest, Connect body parsers): `body` read from
 * the stream, and `originalUrl` when it was mounted under a path (Express strips the mount path from `url`).
 */
type FrameworkRequest = IncomingMessage & { body?: unknown; originalUrl?: string };

/**
 * The HTTP API as a `node:http` request listener: the same endpoints, answers and options as
 * `createFetchHandler`, without building fetch `Request`/`Response` objects. A client that disconnects
 * aborts its call (nothing is charged if it lands before settlement).
 *
 * It can be mounted in a framework that has already read the body (Express's `express.json()` or
 * `express.raw()`, Nest): a parsed `req.body` is used instead of the stream (a Buffer or string as the
 * body's bytes, an object as its JSON), and a stream a framework consumed without leaving `req.body`
 * answers a 500 naming the cause (see "Mounting in a framework" in docs/http.md).
 *
 * @param engine The engine to serve (not closed by the handler).
 * @param options `basePath`, `maxBodyBytes`, `bodyTimeoutMs`, `deprecationLink`, `onError`, `clock`, `health` (/healthz and /readyz).
 * @throws {TypeError} at creation for a bad option (as `createFetchHandler`).
 * @example
 * ```ts
 * createServer(createNodeHandler(engine)).listen(8080, '127.0.0.1');
 * ```
 */
export function createNodeHandler(engine: Engine, options: FetchHandlerOptions = {}): NodeHandler {
  const handle = createApiHandler(engine, options);
  return (req: FrameworkRequest, res) => {
    const body = req.method === 'GET' || req.method === 'HEAD' ? null : bodyOf(req);
    const connection = connectionOf(req, res);
    connection.unanswered++;
    handle(new NodeRequest(req, body?.stream ?? null, connection.signal)).then(
      (reply) => {
        connection.unanswered--;
        try {
          send(reply, req, res, body !== null && !body.finished());
        } catch (error) {
          drop(res, error);
        }
      },
      // Not expected (the core answers every error itself; a failing option such as its clock), but never leave
      // the request hanging, nor counted as unanswered: the close it causes would abort the connection's signal.
      (error: unknown) => {
        connection.unanswered--;
        drop(res, error);
      },
    );
  };
}

/** Only writing can fail (the handler answers every error itself): drop the connection. */
function drop(res: ServerResponse, error: unknown): void {
  res.destroy(error instanceof Error ? error : new Error(String(error)));
}

/**
 * The request as the core reads it, straight from the IncomingMessage: its target as received (the core
 * splits path and query from it) and the absolute URL built only when read (error reports, a rare parse).
 * It is its own `headers` (one object a request, not two).
 */
class NodeRequest implements ApiRequest {
  readonly method: string;
  readonly target: string;
  readonly headers: NodeRequest;
  /**
   * The request's header object, read once: IncomingMessage's `headers` is a getter (node:http builds the
   * object on first read), and the core reads three or four headers a request.
   */
  readonly #fields: IncomingHttpHeaders;
  #url: string | undefined;
  constructor(
    req: FrameworkRequest,
    readonly body: ReadableStream<Uint8Array> | null,
    readonly signal: AbortSignal,
  ) {
    this.method = req.method ?? 'GET';
    // The path and query as the client sent them: Express's `originalUrl` keeps the path it was mounted under (`app.use('/api', …)`).
    const target = typeof req.originalUrl === 'string' ? req.originalUrl : (req.url ?? '/');
    this.target = target.charCodeAt(0) === 0x2f /* / */ ? target : '/';
    this.headers = this;
    this.#fields = req.headers;
  }
  get url(): string {
    this.#url ??= `http://${authorityOf(this.#fields.host)}${this.target}`;
    return this.#url;
  }
  /**
   * A header by its lower-case name, as the core asks for them all (node:http keeps them lower-case; several
   * values are joined by ", "). Not lower-cased here: that cost a string a read.
   */
  get(name: string): string | null {
    const value = this.#fields[name];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
}

/**
 * A client connection as the handler sees it: its abort controller and signal, whether the handler aborted
 * it, and how many of its requests are unanswered. `signal` and `aborted` are kept beside the controller:
 * its `signal` and the signal's `aborted` are getters that check their receiver, two calls a request.
 */
interface Connection {
  abort: AbortController;
  signal: AbortSignal;
  /** Set with every `abort.abort()` (only the handler holds the controller: nothing else aborts it). */
  aborted: boolean;
  unanswered: number;
}

function newConnection(): Connection {
  const abort = new AbortController();
  return { abort, signal: abort.signal, aborted: false, unanswered: 0 };
}

/** Aborts the calls of the connection's requests (the handler's only way to abort a connection's signal). */
function abortCalls(connection: Connection, reason: unknown): void {
  connection.aborted = true;
  connection.abort.abort(reason);
}

/**
 * The connections, one per socket, shared by the requests it carries. Node 20 builds an AbortSignal
 * slowly (~3–9 µs) and the engine's first listener on a fresh one costs as much again, ~10 µs of CPU per
 * request (bench/http-throughput.ts); a kept-alive connection pays it once. Its `close` listener too is
 * added once per connection, not once per request.
 */
const connections = new WeakMap<object, Connection>();

const goneError = () => new DOMException('The client closed the connection before the reply', 'AbortError');

/**
 * The request's connection. Its signal aborts when the connection closes while a request it carries is
 * unanswered: the client went away, and with it every request of that connection still running. A
 * request answered earlier on the same connection shares the signal (it may read aborted afterwards,
 * once its call is long over).
 */
function connectionOf(req: IncomingMessage, res: ServerResponse): Connection {
  const socket = req.socket as Socket | null;
  if (!socket) {
    // No socket to follow (a framework's stand-in request): this request alone, until its reply closes.
    const alone = newConnection();
    res.once('close', () => {
      if (!res.writableFinished) abortCalls(alone, goneError());
    });
    return alone;
  }
  let connection = connections.get(socket);
  if (!connection || connection.aborted) {
    const fresh = newConnection();
    socket.once('close', () => {
      if (fresh.unanswered > 0) abortCalls(fresh, goneError());
    });
    connections.set(socket, fresh);
    connection = fresh;
  }
  return connection;
}

/**
 * Aborts, now, the calls of the requests still unanswered on `socket` (the handler's signal of that
 * connection). For a server about to destroy the connection: the socket's 'close', which aborts them
 * otherwise, comes an event-loop turn later, and a call may have begun its charge by then.
 */
export function abortConnection(socket: object, reason: unknown): void {
  const connection = connections.get(socket);
  if (connection && connection.unanswered > 0) abortCalls(connection, reason);
}

interface NodeBody {
  stream: ReadableStream<Uint8Array>;
  /** Whether the request body was read to its end. */
  finished(): boolean;
}

/**
 * The request body: what a framework's parser left in `req.body` when there is one, else the stream
 * (an error if a framework consumed it and left nothing, rather than a read that never ends).
 */
function bodyOf(req: FrameworkRequest): NodeBody {
  if (req.body !== undefined) return parsedBodyOf(req.body);
  if (req.readableEnded || req.readableDidRead) return failedBody(new BodyAlreadyReadError());
  return streamOf(req);
}

/**
 * A body a framework already parsed, as the bytes the core reads (so `maxBodyBytes` still applies):
 * a Buffer, typed array or string as it is, anything else (a parsed JSON object) as its JSON text.
 */
function parsedBodyOf(body: unknown): NodeBody {
  const bytes =
    body instanceof Uint8Array
      ? body
      : typeof body === 'string'
        ? Buffer.from(body, 'utf8')
        : body === null
          ? Buffer.from('null')
          : Buffer.from(JSON.stringify(body) ?? '', 'utf8');
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      if (bytes.byteLength > 0) controller.enqueue(bytes);
      controller.close();
    },
  });
  return { stream, finished: () => true };
}

function failedBody(error: Error): NodeBody {
  return { stream: new ReadableStream<Uint8Array>({ start: (controller) => controller.error(error) }), finished: () => true };
}

/**
 * A pull-based body: data is read from the socket only as the handler asks, so it can stop at the limit.
 * Once cancelled the stream takes nothing more: after the reply node:http drains the unread rest of the
 * body and emits 'end', and closing a cancelled stream would throw outside any handler.
 */
function streamOf(req: IncomingMessage): NodeBody {
  let ended = false;
  let open = true;
  let onData = (_chunk: Buffer): void => {};
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        onData = (chunk) => {
          if (!open) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        };
        req.pause();
        req.on('data', onData);
        req.once('end', () => {
          ended = true;
          if (open) controller.close();
          open = false;
        });
        req.once('error', (error) => {
          if (open) controller.error(error);
          open = false;
        });
      },
      pull() {
        req.resume();
      },
      cancel() {
        // Stop reading; the answer then closes the connection (see send()).
        open = false;
        req.pause();
        req.off('data', onData);
      },
    },
    { highWaterMark: 1 },
  );
  return { stream, finished: () => ended };
}

/** A Host that parses as a URL authority (the last one seen is remembered: a server sees few). */
let knownGoodHost = '';

/**
 * The Host header only names the server in the URL the core parses: a malformed one (`a:b`, `[::1`,
 * `x:99999`) is replaced by a placeholder rather than failing the request.
 */
function authorityOf(host: string | undefined): string {
  if (host === undefined || host === '') return 'localhost';
  if (host === knownGoodHost) return host;
  // `/ ? # \ @` would end or move the authority and change the path the core routes on.
  if (/[/?#\\@\s]/.test(host) || !URL.canParse(`http://${host}/`)) return 'localhost';
  knownGoodHost = host;
  return host;
}

function send(reply: ApiReply, req: IncomingMessage, res: ServerResponse, unreadBody: boolean): void {
  // The client went away: there is no one to answer.
  if (res.destroyed || res.writableEnded) return;
  const { headers } = reply; // the reply's own (every reply is made for its request): no copy
  // A body left unread (over the limit, or not needed) can't be skipped on a kept-alive connection.
  if (unreadBody) {
    headers['connection'] = 'close';
    lingerBeforeClosing(req.socket);
  }
  if (reply.body !== null) headers['content-length'] = String(byteLength(reply.body));
  res.writeHead(reply.status, headers);
  if (Array.isArray(reply.body)) {
    // A big answer's pieces: already UTF-8, queued on the socket without a copy.
    if (req.method !== 'HEAD') for (const piece of reply.body) res.write(piece);
    res.end();
    return;
  }
  // A string body: node:http sends it with the head in one write.
  res.end(req.method === 'HEAD' || reply.body === null ? undefined : reply.body, 'utf8');
}

/** The body's UTF-8 bytes (Buffer.byteLength's default: named, the encoding is looked up on each call). */
const byteLength = (body: string | Uint8Array[]): number => (typeof body === 'string' ? Buffer.byteLength(body) : piecesLength(body));

/** How long a connection closed with its request body unread keeps discarding what the client still sends. */
const LINGER_MS = 2000;

/**
 * A lingering close (as nginx does): after a reply that leaves the body unread, node:http would
 * destroy the socket at once, and the client's next write of its body makes the kernel answer with
 * a reset that can wipe the reply before the client reads it. Instead the reply is followed by a FIN
 * while the rest of the body is read and discarded (the request is dumped), for at most LINGER_MS.
 */
function lingerBeforeClosing(socket: Socket): void {
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
    socket.once('close', () => clearTimeout(timer));
  };
}
