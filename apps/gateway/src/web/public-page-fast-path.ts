import type { IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { Logger } from '@digicard/config';
import { rawVisitOf, type Visit } from '../analytics/page-analytics.js';
import type { ProxyTrust } from '../security/trusted-proxies.js';
import { PageCache } from '../profiles/page-cache.js';
import type { PublicPageService } from '../profiles/public-page.service.js';
import { REQUEST_ID_HEADER, requestIdOf } from '../http/request-meta.js';
import { SESSION_COOKIE } from '../session/session.cookie.js';
import { endHttpSpan, startHttpSpan } from '../http/http-span.js';
import { httpDuration, httpRequests, publicPageCache } from '@digicard/server';

/** A cached page answered slower than this is logged; the others are counted in metrics, not logged one by one. */
export const SLOW_FAST_PATH_MS = 50;

const USERNAME = /^\/([a-z0-9-]{1,64})$/;
/** The route label of a public page, in metrics and spans (the same as the full path's). */
const ROUTE = '/:username';

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Public pages already rendered, answered before the Nest/express stack: a GET or HEAD of `/{username}` (lowercase,
 * so capitals still redirect), from a visitor without a session cookie, whose page is in the cache. Anything else
 * returns false and takes the full path (session, owner's view, redirects, not-found, every other route).
 *
 * The answer is what the full path sends for the same page: helmet's headers (computed once at start), the
 * request id, `Cache-Control: no-cache` with the page's ETag (304 for a repeat visit), gzip when accepted, and the
 * view counted. It writes no log line per page (the ingress keeps access logs, metrics count the pages): only a slow
 * answer is logged.
 */
export function publicPageFastPath(
  pages: PublicPageService,
  securityHeaders: OutgoingHttpHeaders,
  logger: Logger,
  countView: (visit: Visit, username: string) => void,
  trustProxy: ProxyTrust,
) {
  const base: OutgoingHttpHeaders = {
    ...securityHeaders,
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-cache',
    vary: 'Accept-Encoding',
  };
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const started = performance.now();
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = req.url ?? '';
    const mark = url.indexOf('?');
    const path = mark < 0 ? url : url.slice(0, mark);
    const username = USERNAME.exec(path)?.[1];
    if (!username) return false;
    // A signed-in visitor may be the owner (who sees their own page, notices and all): the full path decides.
    if (req.headers.cookie?.includes(SESSION_COOKIE)) return false;
    const page = pages.cachedPage(username);
    if (!page) return false;
    publicPageCache.inc({ result: 'hit' });
    countView(rawVisitOf(req, trustProxy), username);
    const span = startHttpSpan(req);

    const requestId = requestIdOf(req);
    const headers: OutgoingHttpHeaders = { ...base, etag: page.etag, [REQUEST_ID_HEADER]: requestId };
    let status = 200;
    let body: Buffer | null;
    if (req.headers['if-none-match'] === page.etag) {
      status = 304;
      body = null;
    } else if (/\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
      headers['content-encoding'] = 'gzip';
      body = page.gzip;
    } else {
      body = PageCache.html(page);
    }
    if (body) headers['content-length'] = body.length;
    res.writeHead(status, headers);
    res.end(req.method === 'HEAD' ? undefined : (body ?? undefined));
    endHttpSpan(span, req.method, ROUTE, status);
    const ms = performance.now() - started;
    httpRequests.inc({ method: req.method, route: ROUTE, status });
    httpDuration.observe({ method: req.method, route: ROUTE }, ms / 1000);
    if (ms >= SLOW_FAST_PATH_MS) logger.warn({ requestId, method: req.method, path, status, ms: Math.round(ms) }, 'slow cached page');
    return true;
  };
}

/** Puts `fastPath` in front of the server's request listener (the express app Nest installed). */
export function installFastPath(server: Server, fastPath: (req: IncomingMessage, res: ServerResponse) => boolean): void {
  const listeners = server.listeners('request') as RequestListener[];
  if (listeners.length !== 1) throw new Error(`expected one request listener on the HTTP server, found ${listeners.length}`);
  const [app] = listeners as [RequestListener];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!fastPath(req, res)) app(req, res);
  });
}
