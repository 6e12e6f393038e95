// `websift demo`: the main job on a fresh machine, with no network. Creates an organization and key,
// indexes the shipped corpus, serves the API and the corpus on 127.0.0.1, and runs a search, a search
// with include_content and an extract through HTTP, then prints the responses and the usage.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectPositionals, intOption, type Options, parse, stringOption } from '../args.js';
import { CliError } from '../cli-error.js';
import { loadConfig } from '../config.js';
import { CORPUS_DIR, CORPUS_PREFIX, corpusHandler } from '../corpus.js';
import type { CliCommand } from '../help.js';
import { listFiles } from '../local-files.js';
import { openEngine } from '../open-engine.js';
import { printJson, say } from '../output.js';
import { startServer, untilSignal } from '../server.js';
import { indexFiles } from './index-add.js';

const ORGANIZATION = 'demo';
const CREDITS = 100;

interface Step {
  name: string;
  request: { method: string; path: string; body?: unknown };
  status: number;
  body: unknown;
}

const OPTIONS: Options = {
  'keep-serving': { type: 'boolean', help: 'keep serving after the run (prints a curl line to try) until Ctrl-C' },
  port: { type: 'string', value: 'N', help: 'port on 127.0.0.1 (default 0: any free port)' },
};

export const demo: CliCommand = {
  help: {
    usage: ['demo [options]'],
    summary:
      'Offline demo: creates an organization and key (in a temporary database unless --database is given), indexes the shipped corpus, serves it and the API on 127.0.0.1, and calls search, search with content, extract and usage through HTTP.',
    options: OPTIONS,
    notes: ['Exit codes: 0 when every call answered 200, else 1.'],
    examples: ['websift demo --keep-serving --port 8080'],
  },
  run: demoCommand,
};

async function demoCommand(args: string[]): Promise<void> {
  const parsed = parse('demo', args, OPTIONS);
  expectPositionals(parsed, 'demo', []);
  const port = intOption(parsed, 'port', 0, 0, 65535);
  const chosenDb = stringOption(parsed, 'database') ?? stringOption(parsed, 'db');
  const tempDir = chosenDb === undefined ? mkdtempSync(join(tmpdir(), 'websift-demo-')) : undefined;
  const database = chosenDb ?? join(tempDir!, 'demo.db');
  const opened = await openEngine({ database, config: loadConfig(stringOption(parsed, 'config')), allowPrivateNetwork: true });
  const server = await startServer({ engine: opened.engine, host: '127.0.0.1', port, preHandler: corpusHandler(), log: () => {} });
  try {
    say(`websift demo: database ${database}`);
    say(`serving the API and the demo corpus on ${server.url}`);
    say(
      'allowPrivateNetwork: true, because the pages to extract are served by this demo on 127.0.0.1 (the default refuses loopback targets)',
    );

    // With --db the demo may run again on the same file: reuse its organization, top it up.
    const existing = (await opened.engine.admin.listOrganizations()).find((o) => o.id === ORGANIZATION);
    if (existing) await opened.engine.admin.addCredits(ORGANIZATION, CREDITS);
    else await opened.engine.admin.createOrganization(ORGANIZATION, { credits: CREDITS });
    const key = await opened.engine.admin.createApiKey(ORGANIZATION);
    say(`organization '${ORGANIZATION}' with ${existing ? `${existing.balance} + ` : ''}${CREDITS} credits; API key ${key}`);
    const indexed = await indexFiles(opened.index, listFiles([CORPUS_DIR]).files, `${server.url}${CORPUS_PREFIX}`);
    if (indexed.failed.length > 0) throw new CliError(`demo: could not index ${indexed.failed.map((f) => f.source).join(', ')}`, 1);

    const call = callApi(server.url, key);
    const steps: Step[] = [];
    steps.push(await call('search', 'GET', '/api/search?q=sourdough+starter'));
    steps.push(await call('search with include_content', 'POST', '/api/search', { q: 'water', include_content: true, content_results: 3 }));
    steps.push(
      await call('extract', 'POST', '/api/crawl', {
        urls: [`${server.url}${CORPUS_PREFIX}lighthouse-lenses.html`, `${server.url}${CORPUS_PREFIX}git-branching.md`],
      }),
    );
    steps.push(await call('usage', 'GET', '/api/usage'));
    printJson({ server: server.url, organization: ORGANIZATION, api_key: key, documents: await opened.index.count(), steps });

    const failed = steps.filter((s) => s.status !== 200);
    if (failed.length > 0) throw new CliError(`demo: ${failed.map((s) => `${s.name} answered ${s.status}`).join('; ')}`, 1);
    say('demo finished: every call answered 200');
    if (parsed.values['keep-serving']) {
      const stop = untilSignal(); // before the lines that invite the signal (see serve)
      say(`still serving on ${server.url}; try: curl -H 'Authorization: Bearer ${key}' '${server.url}/api/search?q=compass'`);
      say('press Ctrl-C to stop');
      await stop;
    }
  } finally {
    await server.close();
    await opened.close();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  }
}

function callApi(base: string, key: string) {
  return async (name: string, method: string, path: string, body?: unknown): Promise<Step> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json: unknown = await response.json();
    say(`${name}: ${method} ${path.split('?')[0]} → ${response.status}${summary(json)}`);
    return {
      name,
      request: { method, path, ...(body === undefined ? {} : { body }) },
      status: response.status,
      body: json,
    };
  };
}

/** A few words about a response for the terminal. */
function summary(body: unknown): string {
  const b = body as {
    results?: unknown[];
    metadata?: { credits_used?: number; content_delivered?: number };
    credits?: { balance: number };
  };
  if (b.credits) return `, balance ${b.credits.balance}`;
  const parts: string[] = [];
  if (Array.isArray(b.results)) parts.push(`${b.results.length} result(s)`);
  if (typeof b.metadata?.content_delivered === 'number') parts.push(`${b.metadata.content_delivered} page(s) of content`);
  if (typeof b.metadata?.credits_used === 'number') parts.push(`${b.metadata.credits_used} credit(s)`);
  return parts.length > 0 ? `, ${parts.join(', ')}` : '';
}
