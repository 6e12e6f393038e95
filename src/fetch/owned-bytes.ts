// Buffers websift made itself and hands on, used once: the conversion pool may transfer them to its
// worker (emptying them here) instead of copying 10 MiB. A body from a custom Fetcher is never one of
// them (its adapter may keep and reuse it), so the pool copies that instead.

const owned = new WeakSet<ArrayBufferLike>();

/** Marks `bytes` as websift's own, to be handed on and not used again here; returns them. */
export function handOver(bytes: Uint8Array): Uint8Array {
  // Only a view over its whole buffer: transferring a shared one (Node's pool of small buffers) would empty the rest.
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) owned.add(bytes.buffer);
  return bytes;
}

/** Whether the pool may transfer `bytes`' buffer (websift's own, the whole of it). */
export const isHandedOver = (bytes: Uint8Array): boolean =>
  owned.has(bytes.buffer) && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
