import type { NextFunction, Response } from 'express';
import { ErrorCode, ImageMessages, type ApiError, type GatewayRoute } from '@digicard/contracts';
import { ApiHttpException } from '@digicard/server';
import type { Config } from '../config.js';
import { RedisUnavailableError } from '../redis/redis-call.js';
import { RateLimitedException, type RateLimiter } from '../security/rate-limiter.js';
import type { SessionRequest } from '../session/session.middleware.js';
import { RETRY_AFTER_SECONDS, UNAVAILABLE } from './unavailable.js';
import { CHECKED_BEFORE_BODY, checkAccess, countLimits } from './route.guard.js';

/**
 * The upload gate, mounted before a raw body parser (image uploads, PayFast's notifications): a route's access (the session and its CSRF token were checked
 * by the session middleware before) and its limits are applied before a byte of the body is read, and a declared
 * length over `maxBytes` is refused at once (`tooLarge`). The answer closes the connection, so the unread body is never buffered.
 * `RouteGuard` then checks the body and the parameters as for any route, without counting the limits again.
 */
export function beforeBody(
  route: GatewayRoute,
  maxBytes: number,
  limiter: RateLimiter,
  config: Config,
  tooLarge: ApiError = { statusCode: 400, code: ErrorCode.ValidationFailed, message: ImageMessages.tooLarge },
) {
  const refuse = (res: Response, body: ApiError): void => {
    res.setHeader('Connection', 'close');
    res.status(body.statusCode).json(body);
  };
  return (req: SessionRequest, res: Response, next: NextFunction): void => {
    if (req.method.toLowerCase() !== route.method) return next();
    const run = async (): Promise<void> => {
      checkAccess(route.access, req.session ?? null);
      const declared = Number(req.headers['content-length'] ?? 0);
      if (declared > maxBytes) {
        return refuse(res, tooLarge);
      }
      await countLimits(route, req, limiter, config);
      (req as SessionRequest & { [CHECKED_BEFORE_BODY]?: true })[CHECKED_BEFORE_BODY] = true;
      next();
    };
    run().catch((error: unknown) => {
      if (error instanceof RateLimitedException) res.setHeader('Retry-After', String(error.retryAfterSeconds));
      if (error instanceof ApiHttpException) return refuse(res, error.body);
      if (error instanceof RedisUnavailableError) {
        res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
        return refuse(res, UNAVAILABLE);
      }
      next(error);
    });
  };
}
