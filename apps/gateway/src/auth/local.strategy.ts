import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import passport from 'passport';
import { Strategy } from 'passport-local';
import { AccountMessages, ErrorCode, HttpRoutes, Rpc, SsoMessages, type RateLimitRule, type SessionUser } from '@digicard/contracts';
import { ApiHttpException } from '@digicard/server';
import { emailKey } from '../http/route.guard.js';
import { requestMetaOf } from '../http/request-meta.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { RateLimiter } from '../security/rate-limiter.js';
import type { SessionRequest } from '../session/session.middleware.js';

/** The sign-in's failures-only limits (per account): each attempt counted by the route guard, cleared here on success. */
const failureLimits = (HttpRoutes.login.limits as readonly RateLimitRule[]).filter(
  (rule) => rule.counts === 'failures' && rule.per === 'email',
);

/**
 * Sign-in with email and password. The password is checked by the identity service (argon2id, the same cost for an
 * unknown email), so this strategy only asks it. Its errors: 401 AUTH_INVALID_CREDENTIALS as the service says (the
 * same for an unknown email and a wrong password), 503 when it does not answer, and 401 AUTH_FAILED for anything else.
 * By the time Passport runs, `@Route` has validated the body (so email is trimmed) and checked the limits; a wrong
 * password stays counted against the account (the guard counted the attempt before asking), a right one clears the count.
 * A team member whose team requires its company account (single sign-on) is then refused: 403 SSO_REQUIRED, with the
 * way in they must use (the teams service says; while it does not answer, 503: the rule is never skipped).
 *
 * It is registered with a Passport of its own, never with Passport's default instance, whose strategies are one list
 * per process: with two gateways in a process (the in-process tests start a second beside the first) the second's
 * strategy took the first's sign-ins with its own clients, and after it stopped its closed NATS client reconnected
 * (Nest's client connects again at its next call) and kept the process alive. `SignInGuards` authenticates through
 * `passport` (`getPassportInstance` is @nestjs/passport's hook for it).
 */
@Injectable()
export class LocalStrategy extends PassportStrategy(Strategy, 'local') {
  /** Made when the mixin's constructor registers the strategy (`declare`: no field initialiser runs after it). */
  declare private own: passport.Authenticator | undefined;

  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
  ) {
    super({ usernameField: 'email', passwordField: 'password', passReqToCallback: true });
  }

  /** The Passport this strategy is registered with, under the name 'local'. */
  getPassportInstance(): passport.Authenticator {
    return (this.own ??= new passport.Authenticator());
  }

  async validate(req: SessionRequest, email: string, password: string): Promise<SessionUser> {
    let user: SessionUser;
    try {
      user = await this.rpc.call(Rpc.authenticate, { email, password }, requestMetaOf(req));
    } catch (error) {
      if (error instanceof ApiHttpException && (error.body.statusCode === 401 || error.body.statusCode === 503)) throw error;
      throw new ApiHttpException({ statusCode: 401, code: ErrorCode.LoginFailed, message: AccountMessages.loginFailed });
    }
    for (const rule of failureLimits) await this.limiter.clearFailures(rule.bucket, emailKey(email));
    if (user.role === 'teamMember') {
      const sso = await this.rpc.call(Rpc.ssoAccountState, { accountId: user.id }, requestMetaOf(req));
      if (sso.passwordRefused) throw new ApiHttpException({ statusCode: 403, code: ErrorCode.SsoRequired, message: SsoMessages.required });
    }
    return user;
  }
}
