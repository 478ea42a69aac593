import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import compression from 'compression';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from '@digicard/config';
import { httpDuration, httpRequests } from '@digicard/server';
import {
  API_JSON_MAX_BYTES,
  ErrorCode,
  HttpRoutes,
  ITN_MAX_BYTES,
  SCIM_BASE_PATH,
  SCIM_MEDIA_TYPE,
  ImageMessages,
  MAX_IMAGE_BYTES,
  type ApiError,
} from '@digicard/contracts';
import type { Config } from './config.js';
import { ItnSourceRejections, itnSourceGate } from './billing/itn-gate.js';
import { ApiExceptionFilter } from './http/api-exception.filter.js';
import { SCIM_BODY_UNREADABLE } from './scim/scim-token.js';
import { REQUEST_ID_HEADER, requestIdOf } from './http/request-meta.js';
import { endHttpSpan, runInHttpSpan } from './http/http-span.js';
import { beforeBody } from './http/before-body.js';
import { crossSiteGuard } from './security/cross-site.middleware.js';
import { RateLimiter } from './security/rate-limiter.js';
import { PublicPageService } from './profiles/public-page.service.js';
import { PageAnalytics } from './analytics/page-analytics.js';
import { precomputedSecurityHeaders, securityHeaders } from './security/security-headers.js';
import { sessionMiddleware } from './session/session.middleware.js';
import { SessionStore } from './session/session.store.js';
import { installFastPath, publicPageFastPath } from './web/public-page-fast-path.js';
import { proxyTrust } from './security/trusted-proxies.js';

const UNSUPPORTED_MEDIA_TYPE: ApiError = {
  statusCode: 415,
  code: ErrorCode.ValidationFailed,
  message: 'Please send the body as JSON (Content-Type: application/json; charset=utf-8).',
};
const ITN_TOO_LARGE: ApiError = { statusCode: 413, code: ErrorCode.ValidationFailed, message: 'What you sent is too large.' };
/** Whether the request carries a body (as body-parser decides it: a length other than 0, or chunked). */
const hasBody = (req: Request): boolean => req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';

/** The route pattern a request matched (never its path, which carries ids), or what served it otherwise. */
export function routeOf(req: Request): string {
  const route: unknown = (req as unknown as { route?: { path?: unknown } }).route?.path;
  if (typeof route === 'string') return `${req.baseUrl}${route}`;
  return req.path.startsWith('/assets/') ? '/assets' : 'unmatched';
}

/**
 * Everything the gateway puts around its Nest module before it listens: request ids and the request log, security
 * headers, compression, static files, the cross-site guard, sessions, the body parsers and their errors, the error
 * filter and the public page's fast path. One function for the process (main.ts) and the in-process test harness
 * (test/support/in-process-gateway.ts), so both carry the same rules.
 */
export function configureGatewayApp(app: NestExpressApplication, config: Config, logger: Logger): void {
  // An idle keep-alive connection is closed by the client (or the load balancer in front, 60 s at most for the common
  // ones) before the gateway closes it: closing first races a request sent on it at that moment ("other side closed").
  const server = app.getHttpServer();
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const trustProxy = proxyTrust(config.TRUST_PROXY, config.TRUST_PROXY_FROM);
  app.set('trust proxy', trustProxy);
  app.disable('x-powered-by');
  app.use((req: Request & { requestId?: string }, res: Response, next: NextFunction) => {
    const started = performance.now();
    req.requestId = requestIdOf(req);
    res.setHeader(REQUEST_ID_HEADER, req.requestId);
    // The request's span is the root of its trace; every call to a service continues it.
    const span = runInHttpSpan(req, res, next);
    res.on('finish', () => {
      const ms = performance.now() - started;
      // The path only: query strings can carry tokens.
      logger.info({ requestId: req.requestId, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms) }, 'request');
      const route = routeOf(req);
      endHttpSpan(span, req.method, route, res.statusCode);
      httpRequests.inc({ method: req.method, route, status: res.statusCode });
      httpDuration.observe({ method: req.method, route }, ms / 1000);
    });
  });
  app.use(securityHeaders(config));
  app.use(compression());
  // Hashed build assets never change: cache them for a year.
  app.use(
    '/assets',
    express.static(join(config.WEB_DIST_DIR, 'assets'), { immutable: true, maxAge: '365d', index: false, fallthrough: false }),
  );
  app.use(express.static(config.WEB_DIST_DIR, { index: false, maxAge: '1h' }));
  app.use('/api', crossSiteGuard(config.PUBLIC_URL));
  // Pages need the session too: an owner sees their own profile before it is shared.
  app.use(sessionMiddleware(app.get(SessionStore), logger));
  // Image uploads arrive as the raw file: who sends it, their upload limit and the declared length are checked
  // before the body is read (nothing is buffered for a signed-out or over-limit caller); the spec's 2 MB limit is
  // checked again on the bytes.
  app.use(
    '/api/profile/images',
    beforeBody(HttpRoutes.uploadImage, MAX_IMAGE_BYTES, app.get(RateLimiter), config),
    express.raw({ type: () => true, limit: MAX_IMAGE_BYTES }),
  );
  // PayFast's notification is form-encoded and signed as posted: kept as the raw bytes for the payments service. Before a
  // byte is read: the source address (403 outside PAYFAST_SOURCE_RANGES, counted for health), the per-address limit,
  // the declared length; then the bytes themselves are capped.
  app.use(
    HttpRoutes.payfastNotify.path,
    itnSourceGate(config.PAYFAST_SOURCE_RANGES, app.get(ItnSourceRejections), logger),
    beforeBody(HttpRoutes.payfastNotify, ITN_MAX_BYTES, app.get(RateLimiter), config, ITN_TOO_LARGE),
    express.raw({ type: () => true, limit: ITN_MAX_BYTES }),
  );
  // The public page's click beacon (navigator.sendBeacon) posts JSON as text/plain, a type that needs no preflight.
  const beaconJson = express.json({ type: ['text/plain', 'application/json'], limit: '1kb' });
  app.use('/api/profiles', (req: Request, res: Response, next: NextFunction) =>
    /^\/[^/]+\/clicks$/.test(req.path) ? beaconJson(req, res, next) : next(),
  );
  app.use('/api', express.json({ limit: API_JSON_MAX_BYTES }));
  // SCIM (issue 27): application/scim+json, or application/json as some providers send. A body that is not JSON, or of
  // another type, is marked rather than answered here, so the SCIM route answers it in SCIM's format and audits it.
  app.use(
    SCIM_BASE_PATH,
    express.json({ type: [SCIM_MEDIA_TYPE, 'application/json'], limit: API_JSON_MAX_BYTES }),
    (error: Error | undefined, req: Request, _res: Response, next: NextFunction) => {
      if (error) (req as Request & { [SCIM_BODY_UNREADABLE]?: true })[SCIM_BODY_UNREADABLE] = true;
      req.body = undefined;
      next();
    },
    (req: Request, _res: Response, next: NextFunction) => {
      if (req.body === undefined && hasBody(req)) (req as Request & { [SCIM_BODY_UNREADABLE]?: true })[SCIM_BODY_UNREADABLE] = true;
      next();
    },
  );
  // A body none of the parsers above read is of a type the API does not take (XML to a JSON route, say): 415.
  app.use('/api', (req: Request, res: Response, next: NextFunction) => {
    if (req.body !== undefined || !hasBody(req)) return next();
    res.status(415).json(UNSUPPORTED_MEDIA_TYPE);
  });
  app.use('/api', (error: Error & { status?: number; type?: string }, req: Request, res: Response, next: NextFunction) => {
    if (!error) return next();
    const status = error.status ?? 400;
    const upload = req.path.startsWith('/profile/images');
    const body: ApiError =
      status === 413
        ? upload
          ? { statusCode: 400, code: ErrorCode.ValidationFailed, message: ImageMessages.tooLarge }
          : { statusCode: 413, code: ErrorCode.ValidationFailed, message: 'What you sent is too large.' }
        : status === 415
          ? UNSUPPORTED_MEDIA_TYPE // JSON in a charset or content encoding the parser does not read
          : { statusCode: 400, code: ErrorCode.ValidationFailed, message: 'The request body is not valid JSON.' };
    res.status(body.statusCode).json(body);
  });
  app.useGlobalFilters(new ApiExceptionFilter(logger));

  if (config.PUBLIC_PAGE_FAST_PATH) {
    const analytics = app.get(PageAnalytics);
    // Cached public pages for visitors without a session, before the whole stack above (same headers and log).
    installFastPath(
      app.getHttpServer(),
      publicPageFastPath(
        app.get(PublicPageService),
        precomputedSecurityHeaders(config),
        logger,
        (visit, username) => analytics.countView(visit, username),
        trustProxy,
        config.PUBLIC_PAGE_TRACE_RATIO,
      ),
    );
  }
}
