// websift/metrics: Prometheus metrics of an engine and its HTTP bindings, fed by the tracing channels
// (src/channels.ts: one source of events for metrics, traces and logs) and, at each scrape, the engine's
// load (engine.stats()). No organization, key, query or URL is ever a label: every label has a small,
// fixed set of values (endpoints, statuses, source ids, outcomes, kinds).

import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import {
  type CallTraceContext,
  CHANNEL_NAMES,
  type ChargeTraceContext,
  type HttpTraceContext,
  type PageTraceContext,
  type SourceTraceContext,
} from '../channels.js';
import type { Engine } from '../types/index.js';

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
 * A metric's child per label values, looked up by their joined text: prom-client hashes a labels object
 * on every inc/observe, and a request makes several.
 */
function children<T>(make: (...values: string[]) => T): (...values: string[]) => T {
  const made = new Map<string, T>();
  return (...values) => {
    const key = values.join('\u0000');
    let child = made.get(key);
    if (child === undefined) made.set(key, (child = make(...values)));
    return child;
  };
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

  const requests = new Counter({
    name: 'websift_http_requests_total',
    help: 'HTTP requests answered, by endpoint and status',
    labelNames: ['endpoint', 'status'],
    registers,
  });
  const duration = new Histogram({
    name: 'websift_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by endpoint',
    labelNames: ['endpoint'],
    buckets: options.durationBuckets ?? DEFAULT_DURATION_BUCKETS,
    registers,
  });
  const calls = new Counter({
    name: 'websift_calls_total',
    help: 'Engine calls (search, extract) by outcome',
    labelNames: ['kind', 'outcome'],
    registers,
  });
  const credits = new Counter({
    name: 'websift_credits_charged_total',
    help: 'Credits charged, by request kind',
    labelNames: ['kind'],
    registers,
  });
  const sources = new Counter({
    name: 'websift_source_calls_total',
    help: 'Calls to search sources, by source, outcome (answered, empty, failed, timeout, cancelled) and role (primary, fallback, hedge, retry)',
    labelNames: ['source', 'outcome', 'role'],
    registers,
  });
  const pages = new Counter({
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
  const lookups = new Counter({
    name: 'websift_cache_lookups_total',
    help: 'Answers (search) and pages (extract) looked up in a cache',
    labelNames: ['cache'],
    registers,
  });
  const hits = new Counter({
    name: 'websift_cache_hits_total',
    help: 'Answers (search) and pages (extract) served from a cache',
    labelNames: ['cache'],
    registers,
  });
  const requestsOf = children((endpoint, status) => requests.labels(endpoint!, status!));
  const durationOf = children((endpoint) => duration.labels(endpoint!));
  const callsOf = children((kind, outcome) => calls.labels(kind!, outcome!));
  const creditsOf = children((kind) => credits.labels(kind!));
  const sourcesOf = children((source, outcome, role) => sources.labels(source!, outcome!, role!));
  const pagesOf = children((outcome) => pages.labels(outcome!));
  const lookupsOf = children((cache) => lookups.labels(cache!));
  const hitsOf = children((cache) => hits.labels(cache!));
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

  const started = new WeakMap<object, number>();
  const listeners: [string, (message: unknown) => void][] = [
    [`tracing:${CHANNEL_NAMES.http}:start`, (m) => started.set(m as object, performance.now())],
    [
      `tracing:${CHANNEL_NAMES.http}:asyncEnd`,
      (m) => {
        const c = m as HttpTraceContext;
        requestsOf(c.endpoint, String(c.status ?? 500)).inc();
        const at = started.get(c);
        if (at !== undefined) durationOf(c.endpoint).observe((performance.now() - at) / 1000);
      },
    ],
    ...(['search', 'extract'] as const).map(
      (kind) =>
        [
          `tracing:${CHANNEL_NAMES[kind]}:asyncEnd`,
          (m: unknown) => {
            const c = m as CallTraceContext;
            callsOf(kind, c.outcome ?? 'error').inc();
            if (c.cache) {
              const cache = kind === 'search' ? 'search_answer' : 'page';
              lookupsOf(cache).inc(c.cache.lookups);
              hitsOf(cache).inc(c.cache.hits);
            }
          },
        ] as [string, (message: unknown) => void],
    ),
    [
      `tracing:${CHANNEL_NAMES.charge}:asyncEnd`,
      (m) => {
        const c = m as ChargeTraceContext;
        if (c.charged) creditsOf(c.kind).inc(c.charged);
      },
    ],
    [
      `tracing:${CHANNEL_NAMES.source}:asyncEnd`,
      (m) => {
        const c = m as SourceTraceContext;
        sourcesOf(c.source, c.outcome ?? 'failed', c.role).inc();
      },
    ],
    [
      `tracing:${CHANNEL_NAMES.page}:asyncEnd`,
      (m) => {
        const c = m as PageTraceContext;
        pagesOf(c.outcome ?? 'error').inc();
        if (c.conversionMs !== undefined) conversionTime.observe(c.conversionMs / 1000);
      },
    ],
  ];
  for (const [name, listener] of listeners) subscribe(name, listener);
  let open = true;
  return {
    registry,
    text: () => registry.metrics(),
    close() {
      if (!open) return;
      open = false;
      for (const [name, listener] of listeners) unsubscribe(name, listener);
    },
  };
}
