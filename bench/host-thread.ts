// The host thread with big pages (issue 32): the event loop's lateness while 2 and 4 extracts of
// ten ~10 MiB ordinary pages run at once, in the markdown and the html formats, at the defaults.
// The pages come from another process, so that serving them costs this event loop nothing.
// Usage: npx tsx bench/host-thread.ts [--extracts 2,4] [--format markdown,html] [--answer-only]
// Then a ~30 MB answer (three 10 MiB pages in the html format) made into an HTTP reply body, in one
// piece (JSON.stringify and its UTF-8 copy, as before) and in pieces (src/http/json-pieces.ts).
// Figures (bench/lib/loop-probe.ts): a 20 ms timer's largest lateness and monitorEventLoopDelay's max
// (wall clock: they include waiting for a core on a loaded machine), and the most CPU time the host
// thread itself spent between two ticks (its own work: what this code controls). A same-process
// baseline (the idle loop, 2 s) is printed first.

import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../src/index.js';
import { type LoopFigures, probeLoop } from './lib/loop-probe.js';
import { ordinaryPage } from './lib/ordinary-pages.js';

const PAGE_BYTES = 10 * 1024 * 1024 - 4096;
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return (i >= 0 ? process.argv[i + 1] : undefined) ?? fallback;
};

if (process.argv.includes('--serve')) {
  // Ten distinct pages, encoded once; any query string serves the same page (distinct URLs per extract).
  const pages = Array.from({ length: 10 }, (_, i) => Buffer.from(ordinaryPage(PAGE_BYTES, i), 'utf8'));
  const server = createServer((req, res) => {
    const i = Number(/^\/p(\d+)/.exec(req.url ?? '')?.[1]);
    const body = pages[i];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(
      JSON.stringify({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bytes: pages[0]!.length }) + '\n',
    );
  });
} else {
  if (!process.argv.includes('--answer-only')) await main();
  await answer();
}

async function main() {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--serve'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // The first JSON line (flags such as --trace-gc print to the same stdout).
  const line = await new Promise<string>((resolve) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const found = out.split('\n').find((l) => l.startsWith('{') && l.endsWith('}'));
      if (found) resolve(found);
    });
  });
  const { origin, bytes } = JSON.parse(line) as { origin: string; bytes: number };
  const engine = createEngine({ allowPrivateNetwork: true, robots: false, rateLimit: false });
  await engine.admin.createOrganization('bench', { credits: 1_000_000 });
  const ctx = { organization: 'bench' };
  const show = (f: LoopFigures) =>
    `late max ${f.lateMaxMs.toFixed(0)} ms (loop max ${f.loopMaxMs.toFixed(0)} ms), host thread busy max ${f.busyMaxMs.toFixed(0)} ms`;
  const idle = await probeLoop(() => new Promise((r) => setTimeout(r, 2000)));
  console.log(
    `## host thread: ten pages of ${(bytes / 1048576).toFixed(1)} MiB per extract, engine defaults; load average ${loadavg()[0]!.toFixed(1)}`,
  );
  console.log(`idle 2 s: ${show(idle)}`);
  await engine.extract({ urls: [`${origin}/p0?warm`] }, ctx); // the pool's start-up is once per process
  let run = 0;
  for (const format of arg('--format', 'markdown,html').split(',') as Array<'markdown' | 'html'>) {
    for (const extracts of arg('--extracts', '2,4').split(',').map(Number)) {
      run++;
      const t = performance.now();
      const figures = await probeLoop(() =>
        Promise.all(
          Array.from({ length: extracts }, (_, e) =>
            engine.extract({ urls: Array.from({ length: 10 }, (_, i) => `${origin}/p${i}?r${run}e${e}`), format }, ctx),
          ),
        ),
      );
      const outcomes = new Map<string, number>();
      for (const r of figures.result.flatMap((x) => x.results))
        outcomes.set(r.error_type ?? 'ok', (outcomes.get(r.error_type ?? 'ok') ?? 0) + 1);
      console.log(
        `${format} × ${extracts} extracts: ${show(figures)}; ` +
          `wall ${Math.round(performance.now() - t)} ms; pages ${JSON.stringify(Object.fromEntries(outcomes))}`,
      );
    }
  }
  await engine.close();
  child.kill();
}

async function answer() {
  const { answerReply, jsonReply } = await import('../src/http/responses.js');
  const value = {
    success: true,
    results: [0, 1, 2].map((i) => ({ url: `https://x.test/${i}`, success: true, html: ordinaryPage(PAGE_BYTES, i) })),
  };
  for (let round = 0; round < 3; round++) {
    const whole = await probeLoop(async () => Buffer.from(jsonReply(200, value).body as string, 'utf8').length);
    const pieces = await probeLoop(async () => ((await answerReply(200, value)).body as Uint8Array[]).length);
    console.log(
      `answer of ${(whole.result / 1e6).toFixed(1)} MB: one piece: host thread busy max ${whole.busyMaxMs.toFixed(0)} ms; ` +
        `${pieces.result} pieces: busy max ${pieces.busyMaxMs.toFixed(0)} ms (late max ${pieces.lateMaxMs.toFixed(0)} ms)`,
    );
  }
}
