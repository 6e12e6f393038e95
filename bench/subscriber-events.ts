// What websift/metrics' and websift/otel's handlers cost per charged search, alone: the channel events of one
// search (websift:http start, websift:search start, websift:source start/asyncEnd, websift:charge
// start/asyncEnd, websift:search asyncEnd, websift:http asyncEnd) published directly, with the contexts the
// engine makes, no engine, no promise; the source call and the settlement as the engine makes them since
// obs8: on their channels only when someone listens there, as notes (readCallWork) for websift's readers. Sub-microsecond differences the request benches cannot resolve
// (bench/observability-subscribers.ts, bench/observability.ts) show here. otel is over the API's no-op
// tracer (websift's side), or the SDK with a discarding exporter (`otel-sdk`).
// Variants are interleaved in one process, rotating order, one subscriber set on at a time; each round's
// figure is ns per search minus the same round's "off" (the contexts made, nothing published).
//   npx tsx bench/subscriber-events.ts [--rounds 21] [--searches 40000] [--variants metrics,otel,all]
//     [--base DIR]  also the same variants from DIR/src/metrics and DIR/src/otel (an older tree, e.g.
//                   `git archive main src/metrics src/otel | tar -x -C DIR`, with DIR/src/channels.ts a
//                   symlink to this tree's, so both share one set of contexts and slots) as `base:<variant>`
//     [--base-first] load the base tree before this one (see below)
//     [--only VARIANT] that variant alone, one pass, nothing printed (for an instruction count)

import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type TracerProvider, trace } from '@opentelemetry/api';
import { BasicTracerProvider, type ReadableSpan, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import {
  CallTrace,
  ChargeTrace,
  callWorkRead,
  channels,
  HttpTrace,
  noteAttempt,
  noteCharge,
  noteTime,
  SourceTrace,
} from '../src/channels.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string' },
    searches: { type: 'string' },
    variants: { type: 'string' },
    base: { type: 'string' },
    'base-first': { type: 'boolean' },
    only: { type: 'string' },
  },
});
const ROUNDS = Number(values.rounds ?? 21);
const SEARCHES = Number(values.searches ?? 40000);
const parts = (values.variants ?? 'metrics,otel,all').split(',');

type Off = { close(): void };
type Tree = {
  websiftMetrics: (o: { processMetrics: boolean }) => Off;
  websiftTracing: (o: { tracerProvider: TracerProvider }) => Off;
};
const load = async (dir: string): Promise<Tree> => ({
  ...(await import(`${dir}/src/metrics/index.ts`)),
  ...(await import(`${dir}/src/otel/index.ts`)),
});
const trees: [string, Tree][] = [];
// The same code from two trees has read ~100 ns per search apart (at load ~20, either load order):
// check a comparison against a copy of this tree (--base of an identical copy) and with --base-first.
if (values.base && values['base-first']) trees.push(['base:', await load(resolve(values.base))]);
trees.unshift(['', await load(resolve(import.meta.dirname, '..'))]);
if (values.base && !values['base-first']) trees.push(['base:', await load(resolve(values.base))]);
const discard: SpanExporter = { export: (_s: ReadableSpan[], done) => done({ code: 0 }), shutdown: async () => {} };
const sdk = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(discard)] });

/** Each variant: turns its subscribers on, returns how to turn them off. */
const variants: [string, () => () => void][] = [['off', () => () => {}]];
for (const [prefix, tree] of trees) {
  for (const part of parts) {
    variants.push([
      `${prefix}${part}`,
      () => {
        const on: Off[] = [];
        if (part === 'metrics' || part === 'all') on.push(tree.websiftMetrics({ processMetrics: false }));
        if (part === 'otel' || part === 'all') on.push(tree.websiftTracing({ tracerProvider: trace.getTracerProvider() }));
        if (part === 'otel-sdk') on.push(tree.websiftTracing({ tracerProvider: sdk }));
        return () => {
          for (const o of on) o.close();
        };
      },
    ]);
  }
}

const { http, search, source, charge } = channels;
/** One charged search's events, in the order the engine publishes them (those with a subscriber). */
function oneSearch(i: number): void {
  if (!http.hasSubscribers) return;
  const h = new HttpTrace(`r${i & 1023}`, 'GET', '/api/search', '/api/search', undefined, undefined);
  if (http.start.hasSubscribers) http.start.publish(h);
  const c = new CallTrace('search', 'bench', h);
  if (search.start.hasSubscribers) search.start.publish(c);
  // The source call and the settlement: their channels' contexts and events only when someone listens
  // to them (an APM, or an older tree's subscribers: traced()), the notes for websift's readers
  // (readCallWork: this tree's metrics and otel) with their two clock reads each when a reader wants times
  // (noteTime), as the engine makes them.
  const noted = callWorkRead();
  const sourceStart = noted ? noteTime() : 0;
  if (source.hasSubscribers) {
    const s = new SourceTrace('scripted', 1, 'primary', c);
    if (source.start.hasSubscribers) source.start.publish(s);
    s.outcome = 'answered';
    s.latencyMs = 1;
    if (source.asyncEnd.hasSubscribers) source.asyncEnd.publish(s);
  }
  if (noted) noteAttempt(c, 'scripted', 1, 'primary', 'answered', sourceStart, noteTime());
  const chargeStart = noted ? noteTime() : 0;
  if (charge.hasSubscribers) {
    const ch = new ChargeTrace('search', 'bench', 1, c);
    if (charge.start.hasSubscribers) charge.start.publish(ch);
    ch.charged = 1;
    if (charge.asyncEnd.hasSubscribers) charge.asyncEnd.publish(ch);
  }
  if (noted) noteCharge(c, 'search', 1, 1, undefined, chargeStart, noteTime());
  c.credits = 1;
  c.outcome = 'success';
  c.cache = { lookups: 1, hits: 0 };
  if (search.asyncEnd.hasSubscribers) search.asyncEnd.publish(c);
  h.status = 200;
  h.organization = 'bench';
  if (http.asyncEnd.hasSubscribers) http.asyncEnd.publish(h);
}
/** "off" still makes the http and search contexts (a subscriber on an event never published here), and publishes nothing. */
const idle = () => {};
function plumbing(on: boolean): void {
  on ? http.error.subscribe(idle) : http.error.unsubscribe(idle);
}

/** CPU ns per search (process CPU: the machine is shared), yielding every 1,000 (the SDK's processor settles its exports in promises). */
async function measure(n: number): Promise<number> {
  const t = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    oneSearch(i);
    if (i % 1000 === 999) await new Promise(setImmediate);
  }
  const used = process.cpuUsage(t);
  return ((used.user + used.system) * 1000) / n;
}

if (values.only) {
  // One variant, one pass (warm-up and measured searches): for counting instructions, e.g. under
  // `valgrind --tool=callgrind`, two runs with different --searches, their difference per search.
  const [, start] = variants.find(([name]) => name === values.only)!;
  if (values.only === 'off') plumbing(true);
  start();
  await measure(SEARCHES / 4);
  await measure(SEARCHES);
  process.exit(0);
}

const results = new Map<string, number[]>(variants.map(([name]) => [name, []]));
for (let round = 0; round < ROUNDS + 1; round++) {
  // Rotated, and reversed every other round: each variant runs after each other one.
  const order = variants.map((_, i) => variants[(i + round) % variants.length]!);
  if (round % 2 === 1) order.reverse();
  const ns = new Map<string, number>();
  for (const [name, start] of order) {
    const stop = start();
    if (name === 'off') plumbing(true);
    await measure(SEARCHES / 4); // warm this variant's handlers
    ns.set(name, await measure(SEARCHES));
    if (name === 'off') plumbing(false);
    stop();
  }
  if (round === 0) continue; // the first round compiles everything: not counted
  for (const [name] of variants) results.get(name)!.push(ns.get(name)! - (name === 'off' ? 0 : ns.get('off')!));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`${ROUNDS} rounds × ${SEARCHES} searches; ns per search, median (min–max); variants: above off`);
const line = (name: string, xs: number[]) =>
  console.log(`${name.padEnd(22)} ${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`);
for (const [name, xs] of results) line(name, xs);
// Paired: each round's difference between this tree's variant and the base's.
for (const [name, xs] of results) {
  const base = results.get(`base:${name}`);
  if (base && name !== 'off')
    line(
      `${name} − base:${name}`,
      xs.map((x, i) => x - base[i]!),
    );
}
