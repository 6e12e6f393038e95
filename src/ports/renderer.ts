// The Renderer port: full-browser rendering of one page (stealth mode).

/** What the engine asks of one `Renderer.render`. */
export interface RenderOptions {
  /** Aborts the render (the request deadline or the caller's signal). */
  signal: AbortSignal;
  /** Cap on the rendered HTML, in bytes of UTF-8. */
  maxBytes: number;
}

export interface RenderedPage {
  /** Final URL after redirects. */
  url: string;
  /** HTTP status of the main document. */
  status: number;
  /** Content type of the main document (lower-case, without parameters). */
  contentType: string;
  /** The DOM serialized after scripts ran. */
  html: string;
}

export interface Renderer {
  /** Throws FetchFailure (from ./fetcher.js) for per-URL problems. */
  render(url: string, options: RenderOptions): Promise<RenderedPage>;
  close(): Promise<void>;
}
