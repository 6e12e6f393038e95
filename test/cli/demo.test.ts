import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROCESS_START_BUDGET_MS, runCli, startCli, waitForLine } from './run-cli.js';

interface Step {
  name: string;
  status: number;
  body: Record<string, any>;
}

describe('websift demo (the main job, offline)', () => {
  it('indexes the corpus, serves it on loopback, runs search, include_content and extract through HTTP, exits 0', async () => {
    const res = await runCli(['demo']);
    expect(res.stderr).toMatch(/allowPrivateNetwork: true/);
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as { server: string; documents: number; steps: Step[] };
    expect(out.documents).toBeGreaterThanOrEqual(24);
    const [search, withContent, extract, usage] = out.steps;
    expect(out.steps.map((s) => s.status)).toEqual([200, 200, 200, 200]);

    expect(search!.body.results[0].url).toBe(`${out.server}/corpus/sourdough-starter.html`);
    expect(search!.body.metadata.credits_used).toBe(1);

    const delivered = withContent!.body.results.filter((r: { content?: string }) => typeof r.content === 'string');
    expect(delivered.length).toBeGreaterThan(0);
    expect(withContent!.body.metadata.content_delivered).toBe(delivered.length);
    for (const r of delivered) expect(r.content).not.toMatch(/Home · About|Websift Demo Corpus/); // main content only

    expect(extract!.body.success).toBe(true);
    const [lens, git] = extract!.body.results;
    expect(lens.markdown).toMatch(/Fresnel/);
    expect(git.markdown).toMatch(/git switch -c/);
    expect(extract!.body.metadata.credits_used).toBe(2);

    const spent = 1 + withContent!.body.metadata.credits_used + 2;
    expect(usage!.body.credits).toEqual({ balance: 100 - spent, used: spent });

    const db = /database (\S+)/.exec(res.stderr)?.[1];
    expect(db && existsSync(db)).toBe(false); // the temporary database is removed
  });

  it(
    '--keep-serving keeps answering until SIGINT, then exits 0',
    async () => {
      const child = startCli(['demo', '--keep-serving']);
      const exited = once(child, 'exit');
      const [, url, key] = await waitForLine(child, /still serving on (\S+); try: curl -H 'Authorization: Bearer (\S+)'/);
      const res = await fetch(`${url}/api/search?q=compass`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      expect((await res.json()).results[0].url).toBe(`${url}/corpus/magnetic-compass.html`);
      child.kill('SIGINT');
      expect((await exited)[0]).toBe(0);
    },
    PROCESS_START_BUDGET_MS,
  );
});
