// Conversion off the event loop: fetched documents become Markdown in a pool of worker threads
// (piscina), shared by extract, include_content and stealth. A conversion is abandoned when its
// page's signal aborts (deadline, caller): piscina terminates the worker running it, so nothing keeps
// converting a page nobody waits for. Each worker has a heap limit; a page that exceeds it fails
// alone as `too_large` and the worker is replaced. Pages reach the workers through per-organization
// queues served in turn (fair-queue.ts); a page's time on a worker is counted from when it starts there.
// A document fetched as bytes goes to the worker as bytes, and is decoded there: moved (not copied)
// when websift read them itself.

import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { ConvertibleDocument } from '../convert/document-to-markdown.js';
import { isHandedOver } from '../fetch/owned-bytes.js';
import type { PagePart } from '../passages/index.js';
import { FetchFailure } from '../ports/fetcher.js';
import { timeLimit } from '../signals.js';
import type { PartTask, WorkerResult, WorkerTask } from './conversion-worker.js';
import { BacklogFullError, createFairQueue } from './fair-queue.js';

export interface ConversionPoolOptions {
  /** Worker threads (default: the machine's cores, at most 4). */
  threads?: number;
  /** Heap limit of each worker, in MiB (default 384). */
  memoryMb?: number;
  /** Pages one organization may have queued or converting at once (default 50); past it a page fails as `overloaded`. */
  backlog?: number;
}

/** One page's claim on the pool. */
export interface ConversionRun {
  /** Stops the page, queued or converting (the request's deadline, the caller). */
  signal: AbortSignal;
  /** The organization whose turn and backlog the page uses (default: one shared line). */
  org?: string;
  /** Most time the page may convert, counted from when it starts on a worker (its wait is not counted). */
  budgetMs?: number;
  /** Most time the page may wait for a worker; past it the page fails as a TimeoutError. */
  waitMs?: number;
}

export interface ConversionStats {
  queued: number;
  converting: number;
  capacity: number;
  utilization: number;
}

export interface ConversionPool {
  /**
   * Markdown of `doc`; rejects with the signal's reason when it aborts first, a TimeoutError past
   * `budgetMs`, FetchFailure('too_large') on the heap limit, FetchFailure('overloaded') when the
   * organization's backlog is full.
   */
  convert(doc: ConvertibleDocument, run: ConversionRun | AbortSignal): Promise<string>;
  /**
   * Markdown and the page's metadata (or only the metadata, `want: 'metadata'`, then with the decoded
   * `text` of a bytes task); rejects as `convert` does. A task's `bytes` are copied to the worker, or
   * moved there (the caller's view left empty) when websift handed them over (fetch/owned-bytes.ts).
   */
  convertPage(task: WorkerTask, run: ConversionRun | AbortSignal): Promise<WorkerResult>;
  /**
   * A page's part (reading in parts, src/passages/'s pagePart) on a worker, in the organization's turn
   * like a conversion (its backlog too); rejects as `convert` does.
   */
  part(task: PartTask, run: ConversionRun | AbortSignal): Promise<PagePart>;
  /** Starts the pool's first worker now, so that its start-up overlaps a fetch. */
  warm(): void;
  /** Thread ids of the workers alive now (a worker cut off mid-page is gone from it). */
  readonly threadIds: number[];
  /** Pages waiting for a worker and converting now, the most that convert at once, and piscina's utilization (0–1). */
  stats(): ConversionStats;
  /** Stops every worker; conversions in progress reject. Idempotent. */
  close(): Promise<void>;
}

/**
 * Pages per organization queued or converting: five requests' worth at the default extract
 * concurrency of 10. Ordinary pages convert in tens of milliseconds, so a burst drains long before
 * this; an organization that reaches it is feeding the pool slow pages faster than its share converts.
 */
export const DEFAULT_CONVERSION_BACKLOG = 50;

/**
 * Workers beyond `threads` that only an organization with nothing converting may use: a newcomer's
 * page starts at once while another organization keeps every thread busy (the CPU is oversubscribed
 * by one niced thread for as long as that lasts).
 */
const SPARE_WORKERS = 1;

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
  const backlog = options.backlog ?? DEFAULT_CONVERSION_BACKLOG;
  if (!(Number.isInteger(backlog) && backlog >= 1)) throw new RangeError('conversionBacklog must be a positive integer');
  // At most `threads` pages are handed to piscina at once, plus one (the spare) for an organization
  // with nothing converting: piscina's own queue stays empty and the turn is ours.
  const queue = createFairQueue({ slots: threads, spare: SPARE_WORKERS, backlog });
  let pool: Piscina | undefined;
  let closed = false;

  // Started on the first conversion: an engine that never extracts starts no thread.
  const start = (): Piscina =>
    (pool ??= new Piscina({
      ...workerEntry(),
      // Up to three workers stay warm (a worker's first page pays for loading the converter): the
      // threads an organization converts on and the spare the fair queue keeps for a newcomer, so its
      // page, or a page after a worker was cut off, finds a started worker. Idle workers are unref'd,
      // so they never keep the host process alive. Extra workers leave after a minute idle.
      minThreads: Math.min(3, threads + SPARE_WORKERS),
      maxThreads: threads + SPARE_WORKERS,
      idleTimeout: 60_000,
      // Below the host's own threads: with every core converting, the event loop still gets its turn
      // (Linux applies nice per thread; where @napi-rs/nice is missing this is a no-op).
      niceIncrement: 10,
      // The young generation is left to V8, which sizes it at 32 MiB for the default heap: 16 MiB cost
      // 1.14x the CPU, 64 MiB no gain beyond the noise (docs/conversion.md, bench/convert-pool-young.ts).
      resourceLimits: { maxOldGenerationSizeMb: memoryMb },
    }));

  /** Runs one task on a worker in the organization's turn: `prepare` builds it (and its transfers) only then. */
  const onWorker = async <T>(
    name: string,
    prepare: () => { task: unknown; transferList: ArrayBuffer[] },
    claim: ConversionRun | AbortSignal,
  ): Promise<T> => {
    const run: ConversionRun = claim instanceof AbortSignal ? { signal: claim } : claim;
    if (closed) throw new Error('websift: the conversion pool is closed');
    run.signal.throwIfAborted();
    let release: () => void;
    const wait =
      run.waitMs === undefined
        ? undefined
        : timeLimit(run.waitMs, run.signal, `The page waited longer than ${run.waitMs} ms for a conversion worker`);
    try {
      release = await queue.acquire(run.org ?? '', wait?.signal ?? run.signal);
    } catch (error) {
      if (error instanceof BacklogFullError) {
        throw new FetchFailure('overloaded', `${error.message}; retry when some have finished`, 0, { cause: error });
      }
      throw error;
    } finally {
      wait?.clear();
    }
    // The page's own time starts now, on a worker: its wait in the queue is not counted against it.
    const budget =
      run.budgetMs === undefined
        ? undefined
        : timeLimit(run.budgetMs, run.signal, `The page took longer than ${run.budgetMs} ms to convert`);
    const signal = budget?.signal ?? run.signal;
    // Built (and a handed-over body moved) only now, on a worker's turn: a page aborted in the queue keeps its bytes.
    const { task, transferList } = prepare();
    try {
      return (await start().run(task, { name, signal, transferList })) as T;
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if ((error as { code?: string })?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new FetchFailure('too_large', `The page needs more than ${memoryMb} MiB of memory to convert`, 0, { cause: error });
      }
      throw error;
    } finally {
      budget?.clear();
      release();
    }
  };

  const convertPage = (doc: WorkerTask, claim: ConversionRun | AbortSignal): Promise<WorkerResult> =>
    onWorker<WorkerResult>('default', () => workerTask(doc), claim);

  return {
    async convert(doc, run) {
      return (await convertPage({ mimeType: doc.mimeType, text: doc.text, finalUrl: doc.finalUrl }, run)).markdown;
    },
    convertPage,
    part: (task, claim) =>
      onWorker<PagePart>(
        'part',
        () => ({ task: { content: task.content, format: task.format, options: task.options }, transferList: [] }),
        claim,
      ),
    warm() {
      if (!closed) start();
    },
    stats() {
      const { queued, running } = queue.totals();
      return { queued, converting: running, capacity: threads + SPARE_WORKERS, utilization: pool?.utilization ?? 0 };
    },
    get threadIds() {
      return pool?.threads.map((w) => w.threadId) ?? [];
    },
    async close() {
      if (closed) return;
      closed = true;
      queue.close(new Error('websift: the conversion pool is closed'));
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
 * The worker (exported for bench/convert-pool-young.ts): a CommonJS entry (cjs/conversion-worker.cjs: why it is not the module itself is said
 * there) that imports the converter module named in workerData — compiled JavaScript in the package;
 * run from the TypeScript source, a bundle named by WEBSIFT_CONVERSION_WORKER (the test suite builds
 * one) or else the source through tsx.
 */
export function workerEntry(): {
  filename: string;
  workerData: { websiftConversionWorker: string; websiftTsx?: true };
  execArgv: string[];
} {
  const filename = fileURLToPath(new URL('../../cjs/conversion-worker.cjs', import.meta.url));
  const source = import.meta.url.endsWith('.ts');
  const bundle = source ? process.env['WEBSIFT_CONVERSION_WORKER'] : undefined;
  // JavaScript workers get no flags of the host (a loader such as tsx would be loaded again per worker).
  if (bundle) return { filename, workerData: { websiftConversionWorker: pathToFileURL(bundle).href }, execArgv: [] };
  // From the source, the entry registers tsx in the worker itself (cjs/conversion-worker.cjs says why not execArgv).
  const module = new URL(`./conversion-worker.${source ? 'ts' : 'js'}`, import.meta.url).href;
  return { filename, workerData: { websiftConversionWorker: module, ...(source && { websiftTsx: true as const }) }, execArgv: [] };
}
