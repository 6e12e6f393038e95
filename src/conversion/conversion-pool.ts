// Conversion off the event loop: fetched documents become Markdown in a pool of worker threads
// (piscina), shared by extract, include_content and stealth. A conversion is abandoned when its
// page's signal aborts (deadline, caller): piscina terminates the worker running it, so nothing keeps
// converting a page nobody waits for. Each worker has a heap limit; a page that exceeds it fails
// alone as `too_large` and the worker is replaced. A document fetched as bytes goes to the worker as
// bytes, and is decoded there: moved (not copied) when websift read them itself.

import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { ConvertibleDocument } from '../convert/document-to-markdown.js';
import type { WorkerResult, WorkerTask } from './conversion-worker.js';
import { FetchFailure } from '../ports/fetcher.js';
import { isHandedOver } from '../fetch/owned-bytes.js';

export interface ConversionPoolOptions {
  /** Worker threads (default: the machine's cores, at most 4). */
  threads?: number;
  /** Heap limit of each worker, in MiB (default 384). */
  memoryMb?: number;
}

export interface ConversionPool {
  /** Markdown of `doc`; rejects with the signal's reason when it aborts first, FetchFailure('too_large') on the heap limit. */
  convert(doc: ConvertibleDocument, signal: AbortSignal): Promise<string>;
  /**
   * Markdown and the page's metadata (or only the metadata, `want: 'metadata'`, then with the decoded
   * `text` of a bytes task); rejects as `convert` does. A task's `bytes` are copied to the worker, or
   * moved there (the caller's view left empty) when websift handed them over (fetch/owned-bytes.ts).
   */
  convertPage(task: WorkerTask, signal: AbortSignal): Promise<WorkerResult>;
  /** Starts the pool's first worker now, so that its start-up overlaps a fetch. */
  warm(): void;
  /** Thread ids of the workers alive now (a worker cut off mid-page is gone from it). */
  readonly threadIds: number[];
  /** Stops every worker; conversions in progress reject. Idempotent. */
  close(): Promise<void>;
}

/** Room for the largest page the element cap lets through (50,000 table cells: ~130 MiB of heap). */
export const DEFAULT_CONVERSION_MEMORY_MB = 384;

export function defaultConversionThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

export function createConversionPool(options: ConversionPoolOptions = {}): ConversionPool {
  const threads = options.threads ?? defaultConversionThreads();
  const memoryMb = options.memoryMb ?? DEFAULT_CONVERSION_MEMORY_MB;
  if (!(Number.isInteger(threads) && threads >= 1)) throw new RangeError('conversionThreads must be a positive integer');
  if (!(Number.isFinite(memoryMb) && memoryMb >= 16)) throw new RangeError('conversionMemoryMb must be at least 16');
  let pool: Piscina | undefined;
  let closed = false;

  // Started on the first conversion: an engine that never extracts starts no thread.
  const start = (): Piscina =>
    (pool ??= new Piscina({
      ...workerEntry(),
      // One worker stays warm (a worker's first page pays for loading the converter); idle workers
      // are unref'd, so they never keep the host process alive. Extra workers leave after a minute idle.
      minThreads: 1,
      maxThreads: threads,
      idleTimeout: 60_000,
      // Below the host's own threads: with every core converting, the event loop still gets its turn
      // (Linux applies nice per thread; where @napi-rs/nice is missing this is a no-op).
      niceIncrement: 10,
      resourceLimits: { maxOldGenerationSizeMb: memoryMb },
    }));

  const convertPage = async (doc: WorkerTask, signal: AbortSignal): Promise<WorkerResult> => {
    if (closed) throw new Error('websift: the conversion pool is closed');
    signal.throwIfAborted();
    const { task, transferList } = workerTask(doc);
    try {
      return (await start().run(task, { signal, transferList })) as WorkerResult;
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if ((error as { code?: string })?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new FetchFailure('too_large', `The page needs more than ${memoryMb} MiB of memory to convert`, 0, { cause: error });
      }
      throw error;
    }
  };

  return {
    async convert(doc, signal) {
      return (await convertPage({ mimeType: doc.mimeType, text: doc.text, finalUrl: doc.finalUrl }, signal)).markdown;
    },
    convertPage,
    warm() {
      if (!closed) start();
    },
    get threadIds() {
      return pool?.threads.map((w) => w.threadId) ?? [];
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool?.destroy();
    },
  };
}

/** The task as posted: the known fields only, and a bytes document in a buffer of its own, to transfer. */
function workerTask(doc: WorkerTask): { task: WorkerTask; transferList: ArrayBuffer[] } {
  const extra = {
    ...(doc.want !== undefined ? { want: doc.want } : {}),
    ...(doc.links !== undefined ? { links: doc.links } : {}),
    ...(doc.contentLanguage !== undefined ? { contentLanguage: doc.contentLanguage } : {}),
  };
  const common = { mimeType: doc.mimeType, finalUrl: doc.finalUrl, ...extra };
  if ('text' in doc) return { task: { ...common, text: doc.text }, transferList: [] };
  // websift's own bodies move to the worker; any other (a custom Fetcher's, which it may reuse) is
  // copied first, as is a view on part of a buffer (cloning it would copy the whole buffer).
  const bytes = isHandedOver(doc.bytes) ? doc.bytes : doc.bytes.slice();
  const contentType = doc.contentType !== undefined ? { contentType: doc.contentType } : {};
  return { task: { ...common, bytes, ...contentType }, transferList: [bytes.buffer as ArrayBuffer] };
}

/**
 * The worker module: compiled JavaScript in the package; run from the TypeScript source, a bundle
 * named by WEBSIFT_CONVERSION_WORKER (the test suite builds one) or else the source through tsx.
 */
function workerEntry(): { filename: string; execArgv?: string[] } {
  const source = import.meta.url.endsWith('.ts');
  const bundle = source ? process.env['WEBSIFT_CONVERSION_WORKER'] : undefined;
  // JavaScript workers get no flags of the host (a loader such as tsx would be loaded again per worker).
  if (bundle) return { filename: pathToFileURL(bundle).href, execArgv: [] };
  const filename = new URL(`./conversion-worker.${source ? 'ts' : 'js'}`, import.meta.url).href;
  return { filename, execArgv: source ? ['--import', 'tsx'] : [] };
}
