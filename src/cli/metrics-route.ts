// `websift serve`'s GET /metrics: the Prometheus text of websift/metrics' registry, without a key (the
// labels hold no organization, key or query; `--no-metrics` turns the route off, docs/operating.md).

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebsiftMetrics } from '../metrics/index.js';

/** A pre-handler answering GET/HEAD /metrics; false for any other request. */
export function metricsRoute(metrics: WebsiftMetrics): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if ((req.url ?? '/').split('?')[0] !== '/metrics') return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('GET /metrics\n');
      return true;
    }
    metrics.text().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`metrics failed: ${String(error)}\n`),
    );
    return true;
  };
}
