import type { NextFunction, Request, Response } from 'express';
import { ErrorCode, type ApiError } from '@digicard/contracts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests that a browser says come from another site (Fetch Metadata), or whose Origin
 * is not ours. Clients that send neither header are not browsers and carry no ambient credentials; the
 * session-bound CSRF token (accounts work) covers the rest.
 */
export function crossSiteGuard(publicUrl: string) {
  const allowed = new Set([new URL(publicUrl).origin]);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (SAFE_METHODS.has(req.method)) return next();
    const site = req.headers['sec-fetch-site'];
    const origin = req.headers.origin;
    const ownOrigin = `${req.protocol}://${req.get('host') ?? ''}`;
    const refused =
      (typeof site === 'string' && site !== 'same-origin' && site !== 'none') ||
      (typeof origin === 'string' && origin !== 'null' && !allowed.has(origin) && origin !== ownOrigin) ||
      origin === 'null';
    if (!refused) return next();
    const body: ApiError = { statusCode: 403, code: ErrorCode.Forbidden, message: 'Cross-site requests are not allowed.' };
    res.status(403).json(body);
  };
}
