// Reads a JSON request body under a byte limit, without buffering more than the limit, and under a time
// limit, so a client trickling its body can't hold the request (and its connection) open.

import { InvalidRequestError, WebsiftError } from '../errors.js';
import type { ApiRequest } from './exchange.js';
import { PayloadTooLargeError, RequestTimeoutError } from './http-errors.js';
import type { ResolvedOptions } from './options.js';

type BodyLimits = Pick<ResolvedOptions, 'maxBodyBytes' | 'bodyTimeoutMs'>;

/**
 * The body as a JSON object; an absent or empty body is `{}` so the engine can name the missing fields.
 * Throws PayloadTooLargeError (stops reading at the size limit), RequestTimeoutError (stops at the time
 * limit) or InvalidRequestError (not a JSON object).
 */
export async function readJsonObject(request: ApiRequest, limits: BodyLimits): Promise<Record<string, unknown>> {
  const text = await readText(request, limits);
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidRequestError([{ field: 'body', message: `malformed JSON (${(error as Error).message})` }]);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    throw new InvalidRequestError([{ field: 'body', message: `must be a JSON object, got ${kind}` }]);
  }
  return value as Record<string, unknown>;
}

/**
 * Refuses a body whose declared Content-Length is over the limit, from the header alone (so before the
 * key is checked: no body byte is read and nothing is looked up for a request that can't be served).
 */
export function refuseDeclaredOversize(request: ApiRequest, limit: number): void {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw new PayloadTooLargeError(limit);
}

async function readText(request: ApiRequest, { maxBodyBytes: limit, bodyTimeoutMs }: BodyLimits): Promise<string> {
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), bodyTimeoutMs)));
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array> | 'late';
      try {
        chunk = await Promise.race([reader.read(), late]);
      } catch (error) {
        // A binding's own answer (the host consumed the body: node-handler.ts) stands as it is.
        if (error instanceof WebsiftError) throw error;
        // The client went away or broke the transfer: a bad request, not a server fault.
        throw new InvalidRequestError([{ field: 'body', message: 'could not be read to its end' }]);
      }
      if (chunk === 'late') {
        // Stop reading: the rest is never pulled, and the reply closes the connection (node-handler's send()).
        await reader.cancel().catch(() => {});
        throw new RequestTimeoutError(bodyTimeoutMs);
      }
      const { done, value } = chunk;
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        throw new PayloadTooLargeError(limit);
      }
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new InvalidRequestError([{ field: 'body', message: 'is not valid UTF-8' }]);
  }
}
