import { Inject, Injectable, type CanActivate, type ExecutionContext, type Type } from '@nestjs/common';
import type { Request, Response } from 'express';
import type passport from 'passport';
import { AccountMessages, ErrorCode, type SessionUser, type SignInMethod } from '@digicard/contracts';
import { ApiHttpException } from '@digicard/server';
import { LocalStrategy } from './local.strategy.js';

/**
 * Passport authenticates; it does not keep the session. `session: false`: our own SessionStore (Redis, a new id
 * at every sign-in, a per-account set so a reset can end them all, the CSRF token) issues the session once the
 * handler has the account (`SessionSignIn`). A Passport serializer onto the store would split that work between
 * two places for no gain, and any further way in (Google, Microsoft) is just another strategy and another entry
 * here, with the same handler after it.
 *
 * Each strategy is asked through the Passport it is registered with, this gateway's own (see `LocalStrategy`), not
 * through Passport's process-wide default as @nestjs/passport's `AuthGuard` does. The account goes on `req.user`
 * (`SignedInUser`); the strategy's error as it is; a failure without one (ours always throws) is a failed sign-in.
 */
function authenticate(authenticator: passport.Authenticator, strategy: string, context: ExecutionContext): Promise<true> {
  const http = context.switchToHttp();
  const req = http.getRequest<Request & { user?: SessionUser }>();
  const res = http.getResponse<Response>();
  return new Promise((resolve, reject) => {
    const done = (error: unknown, user: SessionUser | false | undefined) => {
      if (error instanceof Error) reject(error);
      else if (error || !user)
        reject(new ApiHttpException({ statusCode: 401, code: ErrorCode.LoginFailed, message: AccountMessages.loginFailed }));
      else {
        req.user = user;
        resolve(true);
      }
    };
    // The callback answers every outcome; `next` is only reached by an error Passport itself raises.
    const middleware = authenticator.authenticate(strategy, { session: false }, done) as (
      req: Request,
      res: Response,
      next: (error?: unknown) => void,
    ) => void;
    middleware(req, res, (error) => reject(error instanceof Error ? error : new Error('The sign-in did not finish')));
  });
}

@Injectable()
class LocalSignInGuard implements CanActivate {
  constructor(@Inject(LocalStrategy) private readonly strategy: LocalStrategy) {}

  canActivate(context: ExecutionContext): Promise<true> {
    return authenticate(this.strategy.getPassportInstance(), 'local', context);
  }
}

/** The guard that signs in with each method a route can declare (`signIn` in the route table). */
export const SignInGuards: Record<SignInMethod, Type<CanActivate>> = {
  local: LocalSignInGuard,
};
