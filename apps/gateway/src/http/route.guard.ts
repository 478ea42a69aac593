import { createHash } from 'node:crypto';
import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ErrorCode, parseBody, type GatewayRoute, type RateLimitRule, type RouteAccess } from '@digicard/contracts';
import { ApiHttpException, CONFIG } from '@digicard/server';
import type { Config } from '../config.js';
import { rateLimitAddress } from '../security/client-address.js';
import { RateLimiter } from '../security/rate-limiter.js';
import type { SessionRequest } from '../session/session.middleware.js';
import type { Session } from '../session/session.store.js';
import { applePassTokenOf, passTokenMissing } from '../wallet/apple-pass-token.js';
import { scimRateKey, scimTokenMissing, scimTokenOf } from '../scim/scim-token.js';

/** Where `@Route` keeps a handler's table entry. */
export const ROUTE = 'digicard:route';

/** Where the guard keeps the query string as the route's `query` schema parsed it (`ValidQuery` hands it over). */
export const VALID_QUERY = Symbol('valid query');
export type QueryRequest = SessionRequest & { [VALID_QUERY]?: unknown };

/** Accounts are counted by a hash of their email, never by the address itself (it would sit in Redis keys). */
export const emailKey = (email: string): string => createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');

/**
 * 401 signed out, 403 without one of the route's roles. A pass route (`pass`) takes no session: its token is checked
 * by `RouteGuard` (present) and by the service that owns the pass (that pass's).
 */
export function checkAccess(access: RouteAccess, session: Session | null): void {
  if (access === 'public' || access === 'pass' || access === 'scim') return;
  if (!session) throw new ApiHttpException({ statusCode: 401, code: ErrorCode.Unauthorized, message: 'Please log in first.' });
  if (access !== 'account' && !access.includes(session.data.role)) {
    throw new ApiHttpException({ statusCode: 403, code: ErrorCode.Forbidden, message: 'You are not allowed to do that.' });
  }
}

/**
 * Marks a request whose access and limits the upload gate already checked before its body was read (`before-body.ts`),
 * so the guard does not count it twice.
 */
export const CHECKED_BEFORE_BODY = Symbol('checked before body');

/** Counts one hit of each of the route's limits (429 over a limit). */
export async function countLimits(route: GatewayRoute, req: SessionRequest, limiter: RateLimiter, config: Config): Promise<void> {
  for (const rule of route.limits ?? []) {
    // A failures-only limit counts the attempt now, atomically with its check; the sign-in (LocalStrategy) clears the
    // count when the password was right.
    if (rule.counts === 'failures') await limiter.countAttempt(rule.bucket, limitKey(rule, req), config[rule.limit], rule.whenUncounted);
    else await limiter.hit(rule.bucket, limitKey(rule, req), config[rule.limit], rule.whenUncounted);
  }
}

function limitKey(rule: RateLimitRule, req: SessionRequest): string {
  switch (rule.per) {
    case 'ip':
      // IPv6 clients by their /64, IPv4-mapped ones as IPv4 (`rateLimitAddress`).
      return rateLimitAddress(req.ip);
    case 'account':
      if (!req.session) throw new Error(`limit ${rule.bucket} counts by account on a route open to visitors`);
      return req.session.data.accountId;
    case 'profile': {
      const username = req.params['username'];
      if (typeof username !== 'string') throw new Error(`limit ${rule.bucket} counts by profile on a route without :username`);
      return username.toLowerCase();
    }
    case 'scimToken': {
      const token = scimTokenOf(req);
      if (!token) throw new Error(`limit ${rule.bucket} counts by SCIM token on a route without one`);
      return scimRateKey(token);
    }
    case 'email': {
      const { email } = (req.body ?? {}) as { email?: unknown };
      if (typeof email !== 'string') throw new Error(`limit ${rule.bucket} counts by email on a route whose body has none`);
      return emailKey(email);
    }
  }
}

/**
 * What a route's table entry asks of every request, in this order:
 * 1. who may call it (401 'Please log in first.' signed out, 403 without the role);
 * 2. the body, parsed with the route's schema, any text holding a NUL refused (400 with field errors); the handler and a sign-in strategy see what
 *    it parsed to; likewise the query string with the route's `query` schema (`ValidQuery`);
 * 3. the path parameters (404 with the route's message);
 * 4. the limits, each counted in Redis (429; while Redis is away, let through or 503 as the limit says).
 * A sign-in (Passport) comes after, as its own guard, so guessing passwords counts against the limits.
 */
@Injectable()
export class RouteGuard implements CanActivate {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.reflector.get<GatewayRoute | undefined>(ROUTE, context.getHandler());
    if (!route) throw new Error(`${context.getClass().name}.${context.getHandler().name} has RouteGuard but no @Route`);
    const req = context.switchToHttp().getRequest<SessionRequest>();
    // Who may call it comes first: a caller without access learns nothing from the body's field errors.
    checkAccess(route.access, req.session ?? null);
    if (route.access === 'pass' && !applePassTokenOf(req)) throw passTokenMissing();
    if (route.access === 'scim' && !scimTokenOf(req)) throw scimTokenMissing();
    if (route.body) {
      const parsed = parseBody(route.body, req.body);
      if (!parsed.success) throw new ApiHttpException(parsed.error);
      req.body = parsed.data;
    }
    if (route.query) {
      const parsed = parseBody(route.query, req.query);
      if (!parsed.success) throw new ApiHttpException(parsed.error);
      (req as QueryRequest)[VALID_QUERY] = parsed.data;
    }
    if (route.params && !route.params.schema.safeParse(req.params).success) {
      throw new ApiHttpException({ statusCode: 404, code: ErrorCode.NotFound, message: route.params.notFound });
    }
    if (!(req as SessionRequest & { [CHECKED_BEFORE_BODY]?: true })[CHECKED_BEFORE_BODY])
      await countLimits(route, req, this.limiter, this.config);
    return true;
  }
}
