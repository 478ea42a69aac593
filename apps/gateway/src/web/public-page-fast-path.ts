import {
  validateHeaderName,
  validateHeaderValue,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Logger } from '@digicard/config';
import { rawVisitOf, type Visit } from '../analytics/page-analytics.js';
import type { ProxyTrust } from '../security/trusted-proxies.js';
import { PageCache } from '../profiles/page-cache.js';
import type { PublicPageService } from '../profiles/public-page.service.js';
import { REQUEST_ID_HEADER, requestIdOf } from '../http/request-meta.js';
import { SESSION_COOKIE } from '../session/session.cookie.js';
import { endHttpSpan, startHttpSpan } from '../http/http-span.js';
import { boundCounter, httpDuration, httpRequests, publicPageCache, sampledRootContext } from '@digicard/server';

/** A cached page answered slower than this is logged; the others are counted in metrics, not logged one by one. */
export const SLOW_FAST_PATH_MS = 50;

const USERNAME = /^\/([a-z0-9-]{1,64})$/;
/** The route label of a public page, in metrics and spans (the same as the full path's). */
const ROUTE = '/:username';
const GZIP = /\bgzip\b/;

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The headers of one kind of answer as a flat `[name, value, ...]` list made once: the fixed ones (helmet's, type,
 * caching), then slots for what changes per page or request, filled in just before `writeHead` (which reads the list
 * synchronously into its header string and keeps no reference to it). Nothing is allocated for the headers per request.
 */
class HeaderTemplate {
  readonly list: (string | number)[];
  private readonly slots = new Map<string, number>();

  constructor(fixed: OutgoingHttpHeaders, variable: readonly string[], extra: Readonly<Record<string, string>> = {}) {
    this.list = [];
    for (const [name, value] of Object.entries({ ...fixed, ...extra })) {
      if (value === undefined) continue;
      // Headers with several values (none among helmet's today) stay one line each, as `setHeader` sends them.
      for (const one of Array.isArray(value) ? value : [value]) {
        const text = String(one);
        validateHeaderName(name);
        validateHeaderValue(name, text);
        this.list.push(name, text);
      }
    }
    for (const name of variable) {
      this.slots.set(name, this.list.length + 1);
      this.list.push(name, '');
    }
  }

  /** Where the value of a variable header goes in `list`. */
  slot(name: string): number {
    const at = this.slots.get(name);
    if (at === undefined) throw new Error(`no slot for ${name}`);
    return at;
  }
}

/**
 * Public pages already rendered, answered before the Nest/express stack: a GET or HEAD of `/{username}` (lowercase,
 * so capitals still redirect), from a visitor without a session cookie, whose page is in the cache. Anything else
 * returns false and takes the full path (session, owner's view, redirects, not-found, every other route).
 *
 * The answer is what the full path sends for the same page: helmet's headers (computed once at start), the
 * request id, `Cache-Control: no-cache` with the page's ETag (304 for a repeat visit), gzip when accepted, and the
 * view counted. It writes no log line per page (the ingress keeps access logs, metrics count the pages): only a slow
 * answer is logged. Per request it allocates next to nothing of its own: the headers are filled into lists made at
 * start, and a span is started only for the sampled share of requests (`sampledRootContext`, at `traceRatio`).
 */
export function publicPageFastPath(
  pages: PublicPageService,
  securityHeaders: OutgoingHttpHeaders,
  logger: Logger,
  countView: (visit: Visit, username: string) => void,
  trustProxy: ProxyTrust,
  /** The share of answers traced (PUBLIC_PAGE_TRACE_RATIO; at most the process's ratio). */
  traceRatio: number,
) {
  const base: OutgoingHttpHeaders = {
    ...securityHeaders,
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-cache',
    vary: 'Accept-Encoding',
  };
  const gzipped = new HeaderTemplate(base, ['etag', REQUEST_ID_HEADER, 'content-length'], { 'content-encoding': 'gzip' });
  const plain = new HeaderTemplate(base, ['etag', REQUEST_ID_HEADER, 'content-length']);
  const notModified = new HeaderTemplate(base, ['etag', REQUEST_ID_HEADER]);
  const fill = (template: HeaderTemplate) => ({
    list: template.list,
    etag: template.slot('etag'),
    requestId: template.slot(REQUEST_ID_HEADER),
    length: template.list.includes('content-length') ? template.slot('content-length') : -1,
  });
  const answers = { gzipped: fill(gzipped), plain: fill(plain), notModified: fill(notModified) };
  // Metrics without prom-client's per-call work: the series this path counts are bound once.
  const hit = boundCounter(publicPageCache, { result: 'hit' });
  const served = (method: 'GET' | 'HEAD') => ({
    ok: boundCounter(httpRequests, { method, route: ROUTE, status: 200 }),
    notModified: boundCounter(httpRequests, { method, route: ROUTE, status: 304 }),
    duration: httpDuration.labels({ method, route: ROUTE }),
  });
  const byMethod = { GET: served('GET'), HEAD: served('HEAD') };

  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const started = performance.now();
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const url = req.url ?? '';
    const mark = url.indexOf('?');
    const path = mark < 0 ? url : url.slice(0, mark);
    const username = USERNAME.exec(path)?.[1];
    if (!username) return false;
    // A signed-in visitor may be the owner (who sees their own page, notices and all): the full path decides.
    if (req.headers.cookie?.includes(SESSION_COOKIE)) return false;
    const page = pages.cachedPage(username);
    if (!page) return false;
    hit.inc();
    countView(rawVisitOf(req, trustProxy), username);
    const root = sampledRootContext(traceRatio);
    const span = root ? startHttpSpan(req, root) : null;

    const requestId = requestIdOf(req);
    let status = 200;
    let body: Buffer | null;
    let answer;
    if (req.headers['if-none-match'] === page.etag) {
      status = 304;
      body = null;
      answer = answers.notModified;
    } else if (GZIP.test(req.headers['accept-encoding'] ?? '')) {
      body = page.gzip;
      answer = answers.gzipped;
    } else {
      body = PageCache.html(page);
      answer = answers.plain;
    }
    const headers = answer.list;
    headers[answer.etag] = page.etag;
    headers[answer.requestId] = requestId;
    if (body) headers[answer.length] = body.length;
    res.writeHead(status, headers);
    res.end(method === 'HEAD' ? undefined : (body ?? undefined));
    if (span) endHttpSpan(span, method, ROUTE, status);
    const ms = performance.now() - started;
    const metrics = byMethod[method];
    (status === 304 ? metrics.notModified : metrics.ok).inc();
    metrics.duration.observe(ms / 1000);
    if (ms >= SLOW_FAST_PATH_MS) logger.warn({ requestId, method, path, status, ms: Math.round(ms) }, 'slow cached page');
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
