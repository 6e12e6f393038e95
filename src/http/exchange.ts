// The shapes the shared handler core works on. A fetch `Request` satisfies ApiRequest as it is; the
// node adapter builds a light one straight from the IncomingMessage, so neither binding pays for
// objects the other needs.

export interface ApiRequest {
  readonly method: string;
  /** Absolute URL. */
  readonly url: string;
  /**
   * The request-target as received (path and query, starting with `/`), when the binding has it: the
   * core reads the path and query from it without parsing `url` (the node binding then builds `url` only
   * when something reads it).
   */
  readonly target?: string;
  /** Read by lower-case names only (the node binding looks them up as given). */
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
  /** Aborts when the client goes away; the engine call is cancelled with it (a fetch Request has one). */
  readonly signal?: AbortSignal;
}

export interface ApiReply {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /**
   * JSON text; null for no body. Text, not bytes: node:http writes a string body together with the
   * head in one write (a Buffer goes out with writev), and no UTF-8 copy is made up front. A big
   * answer is UTF-8 pieces instead, made a turn of the event loop at a time (json-pieces.ts).
   */
  body: string | Uint8Array[] | null;
}

/** What the `onError` hook is told about the request that failed. */
export interface RequestInfo {
  readonly method: string;
  readonly url: string;
  /** The request's X-Request-Id (as answered), to find it in logs. */
  readonly requestId?: string;
}
