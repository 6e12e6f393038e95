// The host thread with big pages (issue 32): the event loop's lateness while 2 and 4 extracts of
// ten ~10 MiB ordinary pages run at once, in the markdown and the html formats, at the defaults.
// The pages come from another process, so that serving them costs this event loop nothing.
// Usage: npx tsx bench/host-thread.ts [--extracts 2,4] [--format markdown,html] [--rounds 3] [--answer-only]
// Then a ~30 MB answer (three 10 MiB pages in the html format) made into an HTTP reply body, in one
// piece (JSON.stringify and its UTF-8 copy, as before) and in pieces (src/http/json-pieces.ts).
// Figures (bench/lib/loop-probe.ts): a 20 ms timer's largest lateness and monitorEventLoopDelay's max
// (wall clock: they include waiting for a core on a loaded machine), and the most CPU time the host
// thread itself spent between two ticks (its own work: what this code controls). A same-process
// baseline (the idle loop, 2 s) runs in every round before the extracts; the answer's two ways alternate
// which goes first. Each row: median (min–max) over --rounds.

import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../src/index.js';
import { type LoopFigures, probeLoop } from './lib/loop-probe.js';
import { ordinaryPage } from './lib/ordinary-pages.js';
import { spread } from './lib/rounds.js';

const PAGE_BYTES = 10 * 1024 * 1024 - 4096;
const ROUNDS = Number((process.argv.includes('--rounds') ? process.argv[process.argv.indexOf('--rounds') + 1] : undefined) ?? 3);
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
  const show = (fs: LoopFigures[]) =>
    `late max ${spread(
      fs.map((f) => f.lateMaxMs),
      0,
    )} ms (loop max ${spread(
      fs.map((f) => f.loopMaxMs),
      0,
    )} ms), host thread busy max ${spread(
      fs.map((f) => f.busyMaxMs),
      0,
    )} ms`;
  console.log(
    `## host thread: ten pages of ${(bytes / 1048576).toFixed(1)} MiB per extract, engine defaults; load average ${loadavg()[0]!.toFixed(1)}; median (min–max) over ${ROUNDS} rounds`,
  );
  await engine.extract({ urls: [`${origin}/p0?warm`] }, ctx); // the pool's start-up is once per process
  const rows = new Map<string, { figures: LoopFigures[]; wall: number[]; outcomes: Map<string, number> }>();
  const row = (name: string) => rows.get(name) ?? rows.set(name, { figures: [], wall: [], outcomes: new Map() }).get(name)!;
  let run = 0;
  for (let round = 0; round < ROUNDS; round++) {
    row('idle 2 s').figures.push(await probeLoop(() => new Promise((r) => setTimeout(r, 2000))));
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
        const r = row(`${format} × ${extracts} extracts`);
        r.figures.push(figures);
        r.wall.push(performance.now() - t);
        for (const x of figures.result.flatMap((y) => y.results))
          r.outcomes.set(x.error_type ?? 'ok', (r.outcomes.get(x.error_type ?? 'ok') ?? 0) + 1);
      }
    }
  }
  for (const [name, r] of rows)
    console.log(
      `${name}: ${show(r.figures)}${r.wall.length ? `; wall ${spread(r.wall, 0)} ms; pages over all rounds ${JSON.stringify(Object.fromEntries(r.outcomes))}` : ''}`,
    );
  await engine.close();
  child.kill();
}

async function answer() {
  const { answerReply, jsonReply } = await import('../src/http/responses.js');
  const value = {
    success: true,
    results: [0, 1, 2].map((i) => ({ url: `https://x.test/${i}`, success: true, html: ordinaryPage(PAGE_BYTES, i) })),
  };
  const whole: Awaited<ReturnType<typeof probeLoop<number>>>[] = [];
  const pieces: Awaited<ReturnType<typeof probeLoop<number>>>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const runWhole = async () => whole.push(await probeLoop(async () => Buffer.from(jsonReply(200, value).body as string, 'utf8').length));
    const runPieces = async () => pieces.push(await probeLoop(async () => ((await answerReply(200, value)).body as Uint8Array[]).length));
    if (round % 2 === 0) {
      await runWhole();
      await runPieces();
    } else {
      await runPieces();
      await runWhole();
    }
  }
  console.log(
    `answer of ${(whole[0]!.result / 1e6).toFixed(1)} MB, median (min–max) over ${ROUNDS} rounds: one piece: host thread busy max ${spread(
      whole.map((x) => x.busyMaxMs),
      0,
    )} ms; ${pieces[0]!.result} pieces: busy max ${spread(
      pieces.map((x) => x.busyMaxMs),
      0,
    )} ms (late max ${spread(
      pieces.map((x) => x.lateMaxMs),
      0,
    )} ms)`,
  );
}
