import { Injectable, type CanActivate, type Type } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { AccountMessages, ErrorCode, type SignInMethod } from '@digicard/contracts';
import { ApiHttpException } from '@digicard/server';

/**
 * Passport authenticates; it does not keep the session. `session: false`: our own SessionStore (Redis, a new id
 * at every sign-in, a per-account set so a reset can end them all, the CSRF token) issues the session once the
 * handler has the account (`SessionSignIn`). A Passport serializer onto the store would split that work between
 * two places for no gain, and any further way in (Google, Microsoft) is just another strategy and another entry
 * here, with the same handler after it.
 */
@Injectable()
class LocalSignInGuard extends AuthGuard('local') {
  override getAuthenticateOptions() {
    return { session: false };
  }

  /** The strategy's error as it is; a failure without one (ours always throws) is a failed sign-in. */
  override handleRequest<TUser>(error: unknown, user: TUser | false): TUser {
    if (error instanceof Error) throw error;
    if (error || !user) throw new ApiHttpException({ statusCode: 401, code: ErrorCode.LoginFailed, message: AccountMessages.loginFailed });
    return user;
  }
}

/** The guard that signs in with each method a route can declare (`signIn` in the route table). */
export const SignInGuards: Record<SignInMethod, Type<CanActivate>> = {
  local: LocalSignInGuard,
};
