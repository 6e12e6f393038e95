// The shapes the shared handler core works on. A fetch `Request` satisfies ApiRequest as it is; the
// node adapter builds a light one straight from the IncomingMessage, so neither binding pays for
// objects the other needs.

export interface ApiRequest {
  readonly method: string;
  /** Absolute URL. */
  readonly url: string;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
}

export interface ApiReply {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** JSON bytes; null for no body. */
  body: Uint8Array | null;
}

/** What the `onError` hook is told about the request that failed. */
export interface RequestInfo {
  readonly method: string;
  readonly url: string;
}
