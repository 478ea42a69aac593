import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { CSRF_HEADER, ErrorCode, type ApiError } from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import { RETRY_AFTER_SECONDS, UNAVAILABLE } from '../http/unavailable.js';
import { RedisUnavailableError } from '../redis/redis-call.js';
import { clearSessionCookie, sessionCookieState } from './session.cookie.js';
import type { Session, SessionStore } from './session.store.js';

export type SessionRequest = Request & { session?: Session | null; requestId?: string };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const same = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Loads the session named by the cookie, and, while signed in, refuses a state-changing request whose
 * x-csrf-token is not the session's own (the second CSRF defence after the cross-site check).
 */
export function sessionMiddleware(store: SessionStore, logger: Logger) {
  return (req: SessionRequest, res: Response, next: NextFunction): void => {
    const { id, sent } = sessionCookieState(req);
    if (!id) {
      req.session = null;
      // A cookie that cannot be one of ours is garbage: the caller is signed out, and the browser forgets it.
      if (sent) clearSessionCookie(res);
      return next();
    }
    store
      .get(id)
      .then((session) => {
        req.session = session;
        if (!session) clearSessionCookie(res);
        if (session && !SAFE_METHODS.has(req.method)) {
          const sent = req.headers[CSRF_HEADER];
          if (typeof sent !== 'string' || !same(sent, session.data.csrfToken)) {
            const body: ApiError = {
              statusCode: 403,
              code: ErrorCode.Forbidden,
              message: 'This page is out of date. Please reload it and try again.',
            };
            res.status(403).json(body);
            return;
          }
        }
        next();
      })
      .catch((error: unknown) => {
        logger.warn(
          { err: error instanceof RedisUnavailableError ? error.cause : error, requestId: req.requestId },
          'session store unavailable',
        );
        // Pages keep serving, as to a visitor who is not signed in; the API asks the client to come back.
        if (!req.path.startsWith('/api')) {
          req.session = null;
          return next();
        }
        res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
        res.status(503).json(UNAVAILABLE);
      });
  };
}
