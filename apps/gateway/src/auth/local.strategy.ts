import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-local';
import { AccountMessages, ErrorCode, Rpc, type SessionUser } from '@digicard/contracts';
import { ApiHttpException } from '@digicard/server';
import { requestMetaOf } from '../http/request-meta.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import type { SessionRequest } from '../session/session.middleware.js';

/**
 * Sign-in with email and password. The password is checked by the identity service (argon2id, the same cost for an
 * unknown email), so this strategy only asks it. Its errors: 401 AUTH_INVALID_CREDENTIALS as the service says (the
 * same for an unknown email and a wrong password), 503 when it does not answer, and 401 AUTH_FAILED for anything else.
 * By the time Passport runs, `@Route` has validated the body (so email is trimmed) and counted the limits.
 */
@Injectable()
export class LocalStrategy extends PassportStrategy(Strategy, 'local') {
  constructor(@Inject(GatewayRpc) private readonly rpc: GatewayRpc) {
    super({ usernameField: 'email', passwordField: 'password', passReqToCallback: true });
  }

  async validate(req: SessionRequest, email: string, password: string): Promise<SessionUser> {
    try {
      return await this.rpc.call(Rpc.authenticate, { email, password }, requestMetaOf(req));
    } catch (error) {
      if (error instanceof ApiHttpException && (error.body.statusCode === 401 || error.body.statusCode === 503)) throw error;
      throw new ApiHttpException({ statusCode: 401, code: ErrorCode.LoginFailed, message: AccountMessages.loginFailed });
    }
  }
}
