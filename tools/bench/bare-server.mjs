// The bare Node `http` server of tools/bench/public-page.mjs, in its own process like the gateway: it answers every
// request with the very bytes and headers the gateway sent for the page (gzip when accepted, 304 for its ETag). It writes
// no log line per request: it stands for the limit, what Node's `http` alone costs (issue 30: a logging bare server hid
// the cost of that line). `BARE_LOG=1` adds a pino JSON line per request to its stdout, for a comparison.
// Usage: node tools/bench/bare-server.mjs <port> <page.json>   (page.json: { headers, gzipBase64, htmlBase64, etag })
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { createLogger } from '../../libs/config/dist/src/index.js';

const [port, file] = process.argv.slice(2);
const page = JSON.parse(readFileSync(file, 'utf8'));
const gzip = Buffer.from(page.gzipBase64, 'base64');
const html = Buffer.from(page.htmlBase64, 'base64');
const logger = process.env.BARE_LOG === '1' ? createLogger('bare', 'info') : null;

createServer((req, res) => {
  const started = performance.now();
  const requestId = randomUUID();
  const headers = { ...page.headers, 'x-request-id': requestId };
  let status = 200;
  let body = html;
  if (req.headers['if-none-match'] === page.etag) {
    status = 304;
    body = null;
  } else if (/\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
    headers['content-encoding'] = 'gzip';
    body = gzip;
  }
  if (body) headers['content-length'] = body.length;
  res.writeHead(status, headers);
  res.end(body ?? undefined);
  logger?.info(
    { requestId, method: req.method, path: req.url.split('?')[0], status, ms: Math.round(performance.now() - started) },
    'request',
  );
}).listen(Number(port), '127.0.0.1', () => process.stdout.write(`{"msg":"bare server listening","port":${port}}\n`));
