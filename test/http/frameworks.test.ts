// The "Mounting in a framework" recipes of docs/http.md, each run through the real framework on a loopback
// port: a POST must reach the engine (the body the framework read, or the stream it left) and be answered.

import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve as serveHono } from '@hono/node-server';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/create-engine.js';
import { createFetchHandler, createNodeHandler } from '../../src/http/index.js';
import { scriptedSource } from '../../src/testing/index.js';
import { RESULTS } from './harness.js';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function apiEngine() {
  const engine = createEngine({ sources: [scriptedSource('s', { cats: RESULTS })], rateLimit: false });
  await engine.admin.createOrganization('acme', { credits: 100 });
  const key = await engine.admin.createApiKey('acme');
  closers.push(() => engine.close());
  return { engine, key };
}

async function listening(server: Server): Promise<string> {
  if (!server.listening) await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(
    () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A charged search through the mounted API, then the same key and body again (replayed), then a non-API route of the host. */
async function expectServed(base: string, key: string, init: { contentType?: string } = {}) {
  const post = (body: string) =>
    fetch(`${base}/api/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'idempotency-key': 'k-1', 'content-type': init.contentType ?? 'application/json' },
      body,
      signal: AbortSignal.timeout(10_000),
    });
  const first = await post(JSON.stringify({ q: 'cats' }));
  expect(first.status).toBe(200);
  const answer = await first.json();
  expect(answer.results).toHaveLength(2);
  expect(answer.metadata.credits_used).toBe(1);
  const again = await post(JSON.stringify({ q: 'cats' }));
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect((await again.json()).id).toBe(answer.id);
  // Bad input is websift's 400 naming the field, whoever read the body.
  const bad = await fetch(`${base}/api/crawl`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': init.contentType ?? 'application/json' },
    body: JSON.stringify({ urls: 'nope' }),
    signal: AbortSignal.timeout(10_000),
  });
  expect(bad.status).toBe(400);
  expect((await bad.json()).problems[0].field).toBe('urls');
  const usage = await (await fetch(`${base}/api/usage`, { headers: { authorization: `Bearer ${key}` } })).json();
  expect(usage.credits.balance).toBe(99);
  // The host's own routes stay the host's.
  const own = await fetch(`${base}/hello`, { signal: AbortSignal.timeout(10_000) });
  expect(await own.text()).toBe('host');
}

describe('mounting createNodeHandler in a framework', () => {
  it('Express 5 after express.json() (a parsed req.body), mounted under /api', async () => {
    const { engine, key } = await apiEngine();
    const app = express();
    app.use(express.json());
    app.use('/api', createNodeHandler(engine));
    app.get('/hello', (_req, res) => void res.send('host'));
    await expectServed(await listening(createServer(app)), key);
  });

  it('Express 5 after express.raw() (a Buffer req.body), with the body limit still applied', async () => {
    const { engine, key } = await apiEngine();
    const app = express();
    app.use(express.raw({ type: '*/*' }));
    app.use(createNodeHandler(engine, { basePath: '/v1' }));
    const base = await listening(createServer(app));
    const res = await fetch(`${base}/v1/api/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' },
      body: JSON.stringify({ q: 'cats' }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).results).toHaveLength(2);
    const big = await fetch(`${base}/v1/api/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' },
      body: new Blob([JSON.stringify({ q: 'x'.repeat(70_000) })]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(big.status).toBe(413);
    expect((await big.json()).code).toBe('payload_too_large');
  });

  it('Fastify 5 with a pass-through parser in the API scope', async () => {
    const { engine, key } = await apiEngine();
    const handler = createNodeHandler(engine);
    const app = Fastify();
    app.get('/hello', async () => 'host');
    await app.register(async (api) => {
      api.removeAllContentTypeParsers();
      api.addContentTypeParser('*', (_request, _payload, done) => done(null));
      api.all('/api/*', (request, reply) => {
        reply.hijack();
        handler(request.raw, reply.raw);
      });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => app.close());
    await expectServed(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, key);
  });

  it('Hono on @hono/node-server, through the fetch handler', async () => {
    const { engine, key } = await apiEngine();
    const handle = createFetchHandler(engine);
    const app = new Hono();
    app.all('/api/*', (c) => handle(c.req.raw));
    app.get('/hello', (c) => c.text('host'));
    const server = await new Promise<Server>((resolve) => {
      const s = serveHono({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
    });
    await expectServed(await listening(server), key);
  });

  it('Koa, handing the raw request and response over', async () => {
    const { engine, key } = await apiEngine();
    const handler = createNodeHandler(engine);
    const app = new Koa();
    app.use(async (ctx, next) => {
      if (!ctx.path.startsWith('/api/')) return next();
      ctx.respond = false;
      handler(ctx.req, ctx.res);
    });
    app.use((ctx) => {
      ctx.body = 'host';
    });
    await expectServed(await listening(createServer(app.callback())), key);
  });

  it('Nest on Express (its JSON parser fills req.body), mounted with app.use', async () => {
    const { engine, key } = await apiEngine();
    class AppModule {}
    Module({})(AppModule);
    const app = await NestFactory.create(AppModule, { logger: false });
    app.use('/api', createNodeHandler(engine));
    app.use('/hello', (_req: unknown, res: { end(text: string): void }) => res.end('host'));
    await app.init();
    closers.push(() => app.close());
    await expectServed(await listening(app.getHttpServer() as Server), key);
  });
});

describe('a body the host already read', () => {
  /** A host that reads the whole body first, then hands the request over with `body` (or without). */
  async function readingHost(body: (raw: Buffer) => unknown, options: Parameters<typeof createNodeHandler>[1] = {}) {
    const { engine, key } = await apiEngine();
    const errors: unknown[] = [];
    const handler = createNodeHandler(engine, { ...options, onError: (e) => errors.push(e) });
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const value = body(Buffer.concat(chunks));
        if (value !== undefined) Object.assign(req, { body: value });
        handler(req, res);
      });
    });
    return { base: await listening(server), key, errors, engine };
  }

  it('answers 500 naming the cause (and tells onError) when the stream was consumed and no body left', async () => {
    const host = await readingHost(() => undefined);
    const res = await fetch(`${host.base}/api/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${host.key}` },
      body: JSON.stringify({ q: 'cats' }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body.code).toBe('internal_error');
    expect(body.error).toMatch(/already read/);
    expect(host.errors).toHaveLength(1);
    expect((await host.engine.usage({ organization: 'acme' })).credits.balance).toBe(100);
  });

  it('applies maxBodyBytes to a parsed object by its JSON text', async () => {
    const host = await readingHost((raw) => JSON.parse(raw.toString('utf8')) as unknown, { maxBodyBytes: 1024 });
    const send = (q: string) =>
      fetch(`${host.base}/api/search`, {
        method: 'POST',
        headers: { authorization: `Bearer ${host.key}` },
        body: new Blob([JSON.stringify({ q })]).stream(),
        duplex: 'half',
      } as RequestInit);
    const big = await send('x'.repeat(2000));
    expect(big.status).toBe(413);
    expect((await big.json()).max_body_bytes).toBe(1024);
    const ok = await send('cats');
    expect(ok.status).toBe(200);
  });

  it('takes a string body as the JSON text, and a parsed non-object as a 400', async () => {
    const text = await readingHost((raw) => raw.toString('utf8'));
    const ok = await fetch(`${text.base}/api/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${text.key}` },
      body: '{"q":"cats"}',
    });
    expect(ok.status).toBe(200);
    const list = await readingHost(() => ['cats']);
    const bad = await fetch(`${list.base}/api/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${list.key}` },
      body: '["cats"]',
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).problems[0].field).toBe('body');
  });
});
