// Loopback servers for the renderer tests: the pages, and an "other" server that must never be reached.

import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Served {
  port: number;
  origin: string;
  /** Paths requested, in order. */
  requests: string[];
  /** TCP connections accepted. */
  connections: number;
  close(): Promise<void>;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, self: Served) => void;

export async function serve(handler: Handler): Promise<Served> {
  const sockets = new Set<import('node:net').Socket>();
  const served: Served = { port: 0, origin: '', requests: [], connections: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    served.requests.push(req.url ?? '');
    handler(req, res, served);
  });
  server.on('connection', (socket) => {
    served.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  served.port = (server.address() as AddressInfo).port;
  served.origin = `http://127.0.0.1:${served.port}`;
  served.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return served;
}

const html = (res: http.ServerResponse, body: string, status = 200) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(body);
};

export const ARTICLE_TEXT = 'The lighthouse keeper counted every ship that passed the northern reef that winter.';

/**
 * The pages. `otherOrigin` is a loopback server the pages try (and must fail) to reach; `thirdOrigin` an
 * allowed one that a page redirects to.
 */
export function pages(otherOrigin: () => string, thirdOrigin: () => string = otherOrigin): Handler {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const other = otherOrigin();
    switch (path) {
      case '/robots.txt':
        res.writeHead(200, { 'content-type': 'text/plain' });
        return void res.end('User-agent: *\nDisallow: /private\n');
      case '/js-article':
        // The article exists only after scripts run: it is fetched and inserted after load.
        return html(
          res,
          `<!doctype html><html><head><title>Reef log</title></head><body><main id="app">Loading…</main>
<script>
window.addEventListener('load', () => setTimeout(async () => {
  const data = await (await fetch('/api/article')).json();
  document.getElementById('app').innerHTML = '<article><h1>' + data.title + '</h1><p>' + data.text + '</p></article>';
}, 30));
</script></body></html>`,
        );
      case '/api/article':
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ title: 'Winter at the reef', text: ARTICLE_TEXT }));
      case '/leaky':
        return html(
          res,
          `<!doctype html><html><head>
<link rel="preconnect" href="${other}"><link rel="dns-prefetch" href="${other}">
<link rel="stylesheet" href="${other}/style.css"></head><body><p id="done">page</p>
<iframe src="${other}/frame"></iframe>
<img src="${other}/pixel.png"><img src="/local.png">
<script src="${other}/script.js"></script>
<script>
const out = [];
const note = (what) => { out.push(what); document.getElementById('done').dataset.out = out.join(','); };
fetch('${other}/fetch').then(() => note('other-fetch-ok'), () => note('other-fetch-failed'));
fetch('${other}/no-cors', { mode: 'no-cors' }).then((r) => note('other-nocors-' + r.type), () => note('other-nocors-failed'));
fetch('http://169.254.169.254/latest/meta-data/', { mode: 'no-cors' }).then(() => note('metadata-ok'), () => note('metadata-failed'));
fetch('/redirect-to-other').then(() => note('redirect-ok'), () => note('redirect-failed'));
navigator.sendBeacon('${other}/beacon', 'x');
try { const ws = new WebSocket('${other.replace('http', 'ws')}/ws'); ws.onerror = () => note('ws-failed'); } catch { note('ws-threw'); }
note('rtc-' + typeof window.RTCPeerConnection);
try { const own = new WebSocket(location.origin.replace('http', 'ws') + '/ws'); own.onclose = (e) => note('own-ws-' + e.code); } catch { note('own-ws-threw'); }
(navigator.serviceWorker ? navigator.serviceWorker.register('/sw.js').then(() => 'ok', () => 'failed') : Promise.resolve('absent')).then((r) => note('sw-' + r));
new Worker(URL.createObjectURL(new Blob(["fetch('${other}/worker').catch(() => {})"], { type: 'text/javascript' })));
</script></body></html>`,
        );
      case '/redirect-to-other':
        res.writeHead(302, { location: `${other}/via-redirect` });
        return void res.end();
      case '/redirect-to-private':
        res.writeHead(302, { location: '/private/landing' });
        return void res.end();
      case '/go-slow-robots':
        res.writeHead(302, { location: `${thirdOrigin()}/page` });
        return void res.end();
      case '/go-other':
        res.writeHead(302, { location: `${other}/landing` });
        return void res.end();
      case '/hop': {
        const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('n') ?? 0);
        res.writeHead(302, { location: n > 0 ? `/hop?n=${n - 1}` : '/js-article' });
        return void res.end();
      }
      case '/js-to-private':
        return html(
          res,
          `<html><body><p>moving</p><script>setTimeout(() => { location.href = '/private/secret'; }, 10);</script></body></html>`,
        );
      case '/private/secret':
        return html(res, '<html><body>secret</body></html>');
      case '/missing':
        return html(res, '<html><body>not here</body></html>', 404);
      case '/pdf-no-extension':
        res.writeHead(200, { 'content-type': 'application/pdf' });
        return void res.end('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n');
      case '/png-as-html':
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end(Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'));
      case '/huge-declared':
        // Announces 64 MiB and trickles: must be refused on its headers, not downloaded.
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(64 * 1024 * 1024) });
        res.write('<html><body>');
        return;
      case '/grows-in-browser':
        // Small on the wire, large once its script has run: the cap applies to the final HTML.
        return html(
          res,
          `<html><body><div id="x"></div><script>
document.getElementById('x').textContent = 'y'.repeat(300000);</script></body></html>`,
        );
      case '/json':
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end('{"answer":42}');
      case '/never-settles':
        return html(
          res,
          `<html><body><p>ticker</p><script>
setInterval(() => fetch('/api/article?tick=' + Date.now()).catch(() => {}), 20);</script></body></html>`,
        );
      case '/stalls':
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<html><body>'.padEnd(2048, ' '));
        return; // never finishes
      case '/plain':
        return html(res, `<html><body><h1>Plain</h1><p>${ARTICLE_TEXT}</p></body></html>`);
      default:
        return html(res, '<html><body>not found</body></html>', 404);
    }
  };
}
