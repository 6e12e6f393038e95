// websift/metrics: Prometheus metrics of an engine and its HTTP bindings, fed by the tracing channels
// (src/channels.ts: one source of events for metrics, traces and logs), the notes of a traced call's
// source calls and settlement (`readCallWork`, same facts as websift:source/charge) and, at each scrape, the engine's
// load (engine.stats()). No organization, key, query or URL is ever a label: every label has a small,
// fixed set of values (endpoints, statuses, source ids, outcomes, kinds).

import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import {
  type CallTraceContext,
  CHANNEL_NAMES,
  type HttpTraceContext,
  notedRequestStart,
  type PageTraceContext,
  readCallWork,
  wantRequestStarts,
} from '../channels.js';
import type { Engine } from '../types/index.js';
import { CellHistogram } from './cell-histogram.js';

export interface MetricsOptions {
  /** The registry to register in (a host's own). Default: a new one, returned as `registry`. */
  registry?: Registry;
  /** The engine whose conversion pool is reported (gauges read at each scrape). */
  engine?: Engine;
  /** Also collect prom-client's Node process metrics. Default: true for a new registry, false for a host's (which usually has them). */
  processMetrics?: boolean;
  /** Buckets of the request duration histogram, in seconds. */
  durationBuckets?: number[];
}

export interface WebsiftMetrics {
  readonly registry: Registry;
  /** The Prometheus text of the registry (what `/metrics` answers). */
  text(): Promise<string>;
  /** Stops listening to the channels (the metrics stay registered). */
  close(): void;
}

/**
 * A counter's counts kept as plain numbers, one cell per label values (found through nested maps, no key
 * string built), added to the prom-client counter when it is read (its `collect`, run at each scrape):
 * prom-client's `inc` hashes the labels into a string and copies every series of the metric on each call
 * (~200 ns), a request makes six, and a cell's increment is a few ns (docs/benchmarks.md, "Observability").
 */
interface Cell {
  labels: Record<string, string>;
  pending: number;
  flushed: boolean;
}

class Tally {
  readonly #labelNames: readonly string[];
  readonly #root = new Map<string, unknown>();
  readonly #cells: Cell[] = [];

  constructor(labelNames: readonly string[]) {
    if (labelNames.length < 1 || labelNames.length > 3) throw new RangeError('a tally has 1 to 3 labels');
    this.#labelNames = labelNames;
  }

  /** The last series added to, and its label values: a server's requests mostly repeat the previous one's. */
  #last: Cell | undefined = undefined;
  #lastA = '';
  #lastB = '';
  #lastC = '';

  /** Adds `n` to the series of the given label values (as many as the counter's label names). */
  add(n: number, a: string, b = '', c = ''): void {
    const last = this.#last;
    if (last !== undefined && a === this.#lastA && b === this.#lastB && c === this.#lastC) {
      last.pending += n;
      return;
    }
    const cell = this.#cell(a, b, c);
    this.#last = cell;
    this.#lastA = a;
    this.#lastB = b;
    this.#lastC = c;
    cell.pending += n;
  }

  #cell(a: string, b: string, c: string): Cell {
    const depth = this.#labelNames.length;
    let level = this.#root;
    if (depth > 1) level = below(level, a);
    if (depth > 2) level = below(level, b);
    const last = depth === 1 ? a : depth === 2 ? b : c;
    let cell = level.get(last) as Cell | undefined;
    if (cell === undefined) {
      const values = [a, b, c];
      cell = { labels: Object.fromEntries(this.#labelNames.map((name, i) => [name, values[i]!])), pending: 0, flushed: false };
      level.set(last, cell);
      this.#cells.push(cell);
    }
    return cell;
  }

  /** Moves what was counted since the last read into `counter` (a series appears once counted, even by 0, as with `inc`). */
  flush(counter: Counter<string>): void {
    for (const cell of this.#cells) {
      if (cell.pending === 0 && cell.flushed) continue;
      counter.inc(cell.labels, cell.pending);
      cell.pending = 0;
      cell.flushed = true;
    }
  }
}

/** HTTP statuses as label values, made once (String(status) per request was a new string each time). */
const STATUS_TEXT = Array.from({ length: 600 }, (_, status) => String(status));
const statusText = (status: number): string => STATUS_TEXT[status] ?? String(status);

function below(level: Map<string, unknown>, value: string): Map<string, unknown> {
  let next = level.get(value) as Map<string, unknown> | undefined;
  if (next === undefined) level.set(value, (next = new Map()));
  return next;
}

/** A counter fed by a Tally; `add` is the hot path. */
function tallied(config: { name: string; help: string; labelNames: string[]; registers: Registry[] }): Tally {
  const tally = new Tally(config.labelNames);
  new Counter({
    ...config,
    collect() {
      tally.flush(this);
    },
  });
  return tally;
}

/** The duration histograms' buckets, in seconds (Prometheus' defaults plus 30 s, the extract deadline). */
export const DEFAULT_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Starts counting: subscribes to the websift channels and registers the websift_* metrics in `registry`.
 * @example
 * ```ts
 * const metrics = websiftMetrics({ engine });
 * app.get('/metrics', async (_req, res) => res.type(metrics.registry.contentType).send(await metrics.text()));
 * ```
 */
export function websiftMetrics(options: MetricsOptions = {}): WebsiftMetrics {
  const registry = options.registry ?? new Registry();
  const registers = [registry];
  if (options.processMetrics ?? options.registry === undefined) collectDefaultMetrics({ register: registry });

  const requests = tallied({
    name: 'websift_http_requests_total',
    help: 'HTTP requests answered, by endpoint and status',
    labelNames: ['endpoint', 'status'],
    registers,
  });
  const duration = new CellHistogram({
    name: 'websift_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by endpoint',
    labelName: 'endpoint',
    buckets: options.durationBuckets ?? DEFAULT_DURATION_BUCKETS,
    registers,
  });
  const calls = tallied({
    name: 'websift_calls_total',
    help: 'Engine calls (search, extract) by outcome',
    labelNames: ['kind', 'outcome'],
    registers,
  });
  const credits = tallied({
    name: 'websift_credits_charged_total',
    help: 'Credits charged, by request kind',
    labelNames: ['kind'],
    registers,
  });
  const sources = tallied({
    name: 'websift_source_calls_total',
    help: 'Calls to search sources, by source, outcome (answered, empty, failed, timeout, cancelled) and role (primary, fallback, hedge, retry)',
    labelNames: ['source', 'outcome', 'role'],
    registers,
  });
  const pages = tallied({
    name: 'websift_pages_total',
    help: 'Pages fetched and converted, by outcome (success or the error type)',
    labelNames: ['outcome'],
    registers,
  });
  const conversionTime = new Histogram({
    name: 'websift_page_conversion_seconds',
    help: 'Time to convert a page on a conversion worker',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers,
  });
  const lookups = tallied({
    name: 'websift_cache_lookups_total',
    help: 'Answers (search) and pages (extract) looked up in a cache',
    labelNames: ['cache'],
    registers,
  });
  const hits = tallied({
    name: 'websift_cache_hits_total',
    help: 'Answers (search) and pages (extract) served from a cache',
    labelNames: ['cache'],
    registers,
  });
  const engine = options.engine;
  const pool = (name: string, help: string, read: (s: ReturnType<Engine['stats']>['conversion']) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        if (engine) this.set(read(engine.stats().conversion));
      },
    });
  pool('websift_conversion_queued', 'Pages waiting for a conversion worker', (s) => s.queued);
  pool('websift_conversion_active', 'Pages converting now', (s) => s.converting);
  pool('websift_conversion_capacity', 'Pages that can convert at once', (s) => s.capacity);
  pool('websift_conversion_utilization', "The conversion workers' utilization, 0–1", (s) => s.utilization);

  // A request's start is the one noted on its websift:http context: the access log's open, else the bindings'
  // clock read as the context starts (wantRequestStarts, stampRequestStart): no listener on websift:http's
  // start, so metrics alone publishes no start event.
  const stopStarts = wantRequestStarts();
  const listeners: [string, (message: unknown) => void][] = [
    [
      `tracing:${CHANNEL_NAMES.http}:asyncEnd`,
      (m) => {
        const c = m as HttpTraceContext;
        requests.add(1, c.endpoint, statusText(c.status ?? 500));
        const at = notedRequestStart(c);
        if (at !== undefined) duration.record(c.endpoint, (performance.now() - at) / 1000);
      },
    ],
    ...(['search', 'extract'] as const).map(
      (kind) =>
        [
          `tracing:${CHANNEL_NAMES[kind]}:asyncEnd`,
          (m: unknown) => {
            const c = m as CallTraceContext;
            calls.add(1, kind, c.outcome ?? 'error');
            if (c.cache) {
              const cache = kind === 'search' ? 'search_answer' : 'page';
              lookups.add(c.cache.lookups, cache);
              hits.add(c.cache.hits, cache);
            }
          },
        ] as [string, (message: unknown) => void],
    ),
    [
      `tracing:${CHANNEL_NAMES.page}:asyncEnd`,
      (m) => {
        const c = m as PageTraceContext;
        pages.add(1, c.outcome ?? 'error');
        if (c.conversionMs !== undefined) conversionTime.observe(c.conversionMs / 1000);
      },
    ],
  ];
  for (const [name, listener] of listeners) subscribe(name, listener);
  // A traced call's source calls and settlement, from the notes the router and the settlement hand
  // websift's readers (src/channels.ts, `readCallWork`): no websift:source or websift:charge subscription,
  // so neither channel is traced for the metrics.
  const stopReading = readCallWork({
    times: false, // counts only: the notes' clock reads are skipped when no other reader wants them
    attempt: (_call, source, _attempt, role, outcome) => sources.add(1, source, outcome, role),
    charge: (_call, kind, _reserved, charged) => {
      if (charged) credits.add(charged, kind);
    },
  });
  let open = true;
  return {
    registry,
    text: () => registry.metrics(),
    close() {
      if (!open) return;
      open = false;
      for (const [name, listener] of listeners) unsubscribe(name, listener);
      stopReading();
      stopStarts();
    },
  };
}
